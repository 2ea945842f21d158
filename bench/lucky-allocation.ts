// Cost of one automatic lucky-number allocation at 0%, 90% and 99.9% fill of a campaign's pair
// space (series_count 1: 100,000 pairs). Every pair, including the fill, is drawn by the real
// allocateLuckyNumbers (lazy Fisher-Yates over lucky_pools/lucky_pool_swaps) on a real SQLite
// file with the service's pragmas; each measured allocation is one entry's evaluation of
// quantity 1 inside its own transaction, as the pipeline runs it (timed up to, not including, COMMIT).
//   npx tsx bench/lucky-allocation.ts        (standalone; `npm run bench` calls measureLuckyAllocation)
import { cliActor } from '../src/audit/actor.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCampaign } from '../src/campaigns/campaigns.ts';
import { ManualClock, monotonicMs } from '../src/kernel/clock.ts';
import { loadConfig } from '../src/kernel/config.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { openDatabase } from '../src/db/open.ts';
import { writeEntry } from '../src/intake/write-stage.ts';
import { parseSubmission } from '../src/entries/submission.ts';
import { issueKey, type Caller } from '../src/keys/keys.ts';
import { createSilentLogger } from '../src/kernel/log.ts';
import { allocateLuckyNumbers } from '../src/mechanics/lucky-numbers.ts';
import { seededRandom } from '../src/kernel/random.ts';
import { entryBody } from '../test/support/harness.ts';

export interface LuckyAllocationRow {
  fill_percent: number;
  pairs_held_before: number;
  allocations: number;
  mean_us: number;
  p50_us: number;
  p95_us: number;
}

export interface LuckyAllocationResult {
  pool_size: number;
  rows: LuckyAllocationRow[];
}

const POOL = 100_000;
const NOW = '2026-11-22T12:00:00.000Z';

export function measureLuckyAllocation(options: { samples?: number } = {}): LuckyAllocationResult {
  const samples = options.samples ?? 100;
  const dir = mkdtempSync(join(tmpdir(), 'ces-bench-lucky-'));
  const dbPath = join(dir, 'bench.db');
  const clock = new ManualClock(NOW);
  const ctx: Ctx = {
    db: openDatabase(dbPath),
    clock,
    random: seededRandom(42),
    config: loadConfig({ db: dbPath }, {}, false),
    log: createSilentLogger(),
  };
  try {
    const campaign = createCampaign(
      ctx,
      { name: 'bench lucky', luckyNumbers: 'auto', luckyQuantity: 1, seriesCount: 1 },
      cliActor('bench'),
    );
    const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, cliActor('bench'));
    const caller: Caller = { keyId: key.id, campaignId: campaign.id, mode: 'live', livemode: true };
    let n = 0;
    const newEntry = (): string => {
      const i = ++n;
      const submission = parseSubmission(entryBody({}, i), clock.now());
      return ctx.db.transaction(() => writeEntry(ctx, campaign, caller, `bench-${i}`, submission)).immediate().entry_id;
    };
    const allocate = (entryId: string, quantity: number): void => {
      const r = ctx.db
        .transaction(() => allocateLuckyNumbers(ctx, { campaignId: campaign.id, livemode: 1, seriesCount: 1, entryId, quantity, now: NOW }))
        .immediate();
      if (!r.ok) throw new Error(`pool exhausted at ${held} pairs`);
    };
    let held = 0;
    const rows: LuckyAllocationRow[] = [];
    for (const fill of [0, 0.9, 0.999]) {
      const target = Math.round(POOL * fill);
      // Fill with real draws, in chunks of 10,000 pairs per filler entry.
      while (held < target) {
        const chunk = Math.min(10_000, target - held);
        allocate(newEntry(), chunk);
        held += chunk;
      }
      const entries = Array.from({ length: samples }, newEntry);
      const times: number[] = [];
      for (const id of entries) {
        // Timed inside the transaction: the allocation's own work, not the COMMIT's fsync (which
        // the evaluation job shares with its other writes and does not depend on the fill).
        ctx.db
          .transaction(() => {
            const t0 = monotonicMs();
            const r = allocateLuckyNumbers(ctx, {
              campaignId: campaign.id,
              livemode: 1,
              seriesCount: 1,
              entryId: id,
              quantity: 1,
              now: NOW,
            });
            times.push((monotonicMs() - t0) * 1000);
            if (!r.ok) throw new Error(`pool exhausted at ${held} pairs`);
          })
          .immediate();
      }
      rows.push({ fill_percent: fill * 100, pairs_held_before: held, allocations: samples, ...summarize(times) });
      held += samples;
    }
    return { pool_size: POOL, rows };
  } finally {
    ctx.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarize(times: number[]): { mean_us: number; p50_us: number; p95_us: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (x: number): number => Math.round(x * 10) / 10;
  return { mean_us: round(times.reduce((a, b) => a + b, 0) / times.length), p50_us: round(at(0.5)), p95_us: round(at(0.95)) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = measureLuckyAllocation();
  console.log(
    `automatic lucky-number allocation, pool of ${result.pool_size} pairs (one allocation = one entry, quantity 1, timed inside its transaction)`,
  );
  console.log('fill      held before  allocations  mean µs  p50 µs  p95 µs');
  for (const r of result.rows) {
    console.log(
      `${`${r.fill_percent}%`.padEnd(8)}  ${String(r.pairs_held_before).padStart(11)}  ${String(r.allocations).padStart(11)}  ${String(r.mean_us).padStart(7)}  ${String(r.p50_us).padStart(6)}  ${String(r.p95_us).padStart(6)}`,
    );
  }
}
