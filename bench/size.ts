// What a large file costs beyond intake (issue 43), on the size phase's seeded database:
// - start-up of `ces serve` on a copy of the file (a file it has not opened before: the quick check
//   before serving) and on a file `ces restore` made (checked by the restore itself), each then
//   stopped with SIGTERM while the full check after start may still run;
// - the longest event-loop stall, intake's p99 and the SIGTERM-to-exit time while the work that
//   grows with the data runs: the retention rule pruning weeks of webhook events, and the
//   automatic allocation of a campaign switched from manual numbers with nearly all of its pairs
//   held, each of whose entries walks about a million held pairs.
// The loads are open-loop, so a stalled server shows in the latencies.
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliActor } from '../src/audit/actor.ts';
import { restoreDatabase } from '../src/backup/backup.ts';
import { createCampaign, updateCampaign } from '../src/campaigns/campaigns.ts';
import { systemClock } from '../src/kernel/clock.ts';
import { cryptoRandom } from '../src/kernel/random.ts';
import { issueKey } from '../src/keys/keys.ts';
import type { Child } from './children.ts';
import { openLoopIntake, withBenchCtx, type BenchCampaign } from './data.ts';
import { latencyPercentiles, type OpenLoopResult } from './open-loop.ts';
import { seedEntries, syncFile } from './seed.ts';

export interface SizeWorkDeps {
  work: string;
  dbPath: string;
  campaign: BenchCampaign;
  entries: number;
  /** Days of the newest entries that were seeded with their webhook events (seedLarge). */
  daysWithEvents: number;
  yymm: string;
  progress: (line: string) => void;
  startCes: (dbPath: string, o: { tickMs?: string; env?: Record<string, string>; startTimeoutMs?: number }) => Promise<Child>;
  stop: (child: Child, role: string) => Promise<void>;
}

const HOURS = 3_600_000;
const round = (x: number, digits = 0): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** The benchmark campaign of a database a run seeded and kept, with a new key; its entries. */
export function openKeptDatabase(dbPath: string): { campaign: BenchCampaign; entries: number } {
  return withBenchCtx(dbPath, (ctx) => {
    const campaignId = ctx.db
      .prepare(`SELECT id FROM campaigns WHERE name = 'Benchmark campaign' ORDER BY created_at LIMIT 1`)
      .pluck()
      .get() as string;
    const key = issueKey(ctx, { campaignId, mode: 'live' }, cliActor('bench'));
    const entries = ctx.db.prepare(`SELECT count(*) FROM entries WHERE campaign_id = ?`).pluck().get(campaignId) as number;
    return { campaign: { campaignId, liveKey: key.key, liveKeyId: key.id }, entries };
  });
}

/** SIGTERM, and the ms until the process has exited (the bench kills it after 30 s). */
async function timedStop(deps: SizeWorkDeps, child: Child, role: string): Promise<{ ms: number; killed: boolean }> {
  const t0 = performance.now();
  await deps.stop(child, role);
  return { ms: Math.round(performance.now() - t0), killed: child.process.signalCode === 'SIGKILL' };
}

/** Start-up on a copy of the file: the quick check before serving, then a stop during the full check. */
async function startOnCopy(deps: SizeWorkDeps, out: Record<string, unknown>): Promise<void> {
  const copy = join(deps.work, 'copied.db');
  deps.progress(`start-up on a copy of the ${deps.entries}-entry file`);
  copyFileSync(deps.dbPath, copy);
  try {
    const t0 = performance.now();
    const ces = await deps.startCes(copy, { startTimeoutMs: 6 * HOURS });
    out.start_s_copied_file = round((performance.now() - t0) / 1000, 1);
    const stopped = await timedStop(deps, ces, 'size_start_copied');
    out.sigterm_to_exit_ms_during_full_check = stopped.ms;
    out.sigterm_killed_during_full_check = stopped.killed;
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
  }
}

/** Start-up on a copied file and on a restored one; each copy is removed after use. */
export async function measureStartUps(deps: SizeWorkDeps): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  // BENCH_SIZE_STARTUPS=0 leaves the start-ups out (a run for the work at size alone).
  if (process.env.BENCH_SIZE_STARTUPS === '0') return out;
  // BENCH_SIZE_COPY=0 leaves the start-up on a copy out (a run for the restore alone).
  if (process.env.BENCH_SIZE_COPY !== '0') await startOnCopy(deps, out);

  // BENCH_SIZE_RESTORE=0 leaves the restore out: it copies the whole file and checks the copy,
  // some 13 minutes at 10 million entries here.
  if (process.env.BENCH_SIZE_RESTORE === '0') return out;
  const restored = join(deps.work, 'restored.db');
  deps.progress(`ces restore of the ${deps.entries}-entry file`);
  try {
    const r0 = performance.now();
    await restoreDatabase({
      source: deps.dbPath,
      dbPath: restored,
      pid: process.pid,
      clock: systemClock,
      actor: cliActor('bench'),
      random: cryptoRandom,
      progress: (line) => deps.progress(`  ${line}`),
    });
    out.restore_s = round((performance.now() - r0) / 1000, 1);
    deps.progress('start-up on the restored file');
    const t0 = performance.now();
    const ces = await deps.startCes(restored, { startTimeoutMs: 6 * HOURS });
    out.start_s_restored_file = round((performance.now() - t0) / 1000, 1);
    out.sigterm_to_exit_ms_restored_file = (await timedStop(deps, ces, 'size_start_restored')).ms;
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(restored + suffix, { force: true });
  }
  return out;
}

/** Pairs of the switched campaign (100 series), and how many a manual phase left held. */
const LUCKY_PAIRS = 10_000_000;
const LUCKY_HELD = LUCKY_PAIRS - 10;

/**
 * Adds the campaign whose allocation walks held pairs: manual numbers holding all but 10 of its
 * 10 million pairs (one filler entry holds them), then switched to automatic numbers.
 */
function addSwitchedCampaign(deps: SizeWorkDeps): BenchCampaign {
  const actor = cliActor('bench');
  const campaign = withBenchCtx(deps.dbPath, (ctx) => {
    const created = createCampaign(
      ctx,
      { name: 'Switched to automatic', luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 100 },
      actor,
    );
    const key = issueKey(ctx, { campaignId: created.id, mode: 'live' }, actor);
    return { campaignId: created.id, liveKey: key.key, liveKeyId: key.id };
  });
  seedEntries({
    dbPath: deps.dbPath,
    campaignId: campaign.campaignId,
    apiKeyId: campaign.liveKeyId,
    entries: 1,
    yymm: deps.yymm,
    offset: 990_000_000,
    label: 'filler',
  });
  const raw = new Database(deps.dbPath);
  try {
    raw.pragma('synchronous = OFF');
    const filler = raw.prepare(`SELECT id, created_at FROM entries WHERE campaign_id = ?`).get(campaign.campaignId) as {
      id: string;
      created_at: string;
    };
    raw
      .prepare(
        `WITH RECURSIVE v(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM v WHERE x + 1 < ?)
        INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
        SELECT ?, 1, x / 100000, x % 100000, ?, 'manual', ? FROM v`,
      )
      .run(LUCKY_HELD, campaign.campaignId, filler.id, filler.created_at);
    raw.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    raw.close();
  }
  // Written with synchronous=OFF: flushed now, or the kernel writes the gigabyte back during the
  // window measured next, and the server's own fsyncs wait behind it (a 1,064 ms stall of one
  // COMMIT in a run at a million entries was that).
  syncFile(deps.dbPath);
  withBenchCtx(deps.dbPath, (ctx) => updateCampaign(ctx, campaign.campaignId, { luckyNumbers: 'auto' }, actor));
  return campaign;
}

interface WorkState {
  /** Settled events of the seed (all before `seedEnd`): the ones the retention rule may prune. */
  settledEvents: number;
  autoNumbers: number;
  pairsDrawn: number;
  /** Entries of the two campaigns created since `windowStart` that processing has settled. */
  processed: number;
}

function readWork(dbPath: string, campaignIds: string[], luckyCampaignId: string, seedEnd: string, windowStart: string): WorkState {
  const db = new Database(dbPath, { readonly: true });
  try {
    const one = (sql: string, ...args: unknown[]): number =>
      (db
        .prepare(sql)
        .pluck()
        .get(...args) as number | null) ?? 0;
    return {
      settledEvents: one(`SELECT count(*) FROM webhook_deliveries WHERE status IN ('delivered', 'skipped') AND created_at < ?`, seedEnd),
      autoNumbers: one(`SELECT count(*) FROM lucky_numbers WHERE campaign_id = ? AND source = 'auto'`, luckyCampaignId),
      pairsDrawn: one(`SELECT drawn FROM lucky_pools WHERE campaign_id = ?`, luckyCampaignId),
      // From the (campaign, mode, status, created_at) index: a count over the table would read gigabytes.
      processed: campaignIds
        .map((id) =>
          one(
            `SELECT count(*) FROM entries WHERE campaign_id = ? AND livemode = 1 AND status IN ('APPROVED', 'REJECTED') AND created_at >= ?`,
            id,
            windowStart,
          ),
        )
        .reduce((a, b) => a + b, 0),
    };
  } finally {
    db.close();
  }
}

let loadPhase = 0;
function intake(url: string, campaign: BenchCampaign, yymm: string, ratePerS: number, durationS: number): Promise<OpenLoopResult> {
  const options = { tag: `size-work-${++loadPhase}-${Date.now().toString(36)}`, offset: 700_000_000 + loadPhase * 10_000_000, yymm };
  return openLoopIntake(url, campaign, options, ratePerS, durationS);
}

/**
 * A server with its tick running, retention pruning and allocations walking held pairs, under
 * open-loop intake: the longest event-loop stall, intake's latencies, the work done, then the
 * time from SIGTERM to exit in the middle of it.
 */
export async function measureWorkAtSize(deps: SizeWorkDeps, o: { windowS: number; ratePerS: number }): Promise<Record<string, unknown>> {
  deps.progress(`adding a campaign switched to automatic numbers with ${LUCKY_HELD} of its ${LUCKY_PAIRS} pairs held`);
  const lucky = addSwitchedCampaign(deps);
  // The intake phases ran without a tick: their entries wait unprocessed, and the jobs run first
  // in, first out, so the window would go to that backlog, not to the work it measures. Those
  // entries stay PENDING in this bench file.
  const raw = new Database(deps.dbPath);
  try {
    raw.prepare(`DELETE FROM jobs`).run();
  } finally {
    raw.close();
  }
  // Events of the newest `daysWithEvents` days are seeded; the rule keeps `retention` days of them
  // (the seed ends two days ago), so the rest, some two fifths, is due for pruning.
  const retentionDays = Math.max(1, Math.floor(2 + deps.daysWithEvents * 0.6));
  const seedEnd = new Date(Date.now() - 86_400_000).toISOString();
  const campaigns = [deps.campaign.campaignId, lucky.campaignId];
  const before = readWork(deps.dbPath, campaigns, lucky.campaignId, seedEnd, new Date().toISOString());
  const loopFile = join(deps.work, 'size-work-loop.jsonl');
  const ces = await deps.startCes(deps.dbPath, {
    tickMs: '200',
    env: { CES_RETENTION_DAYS: String(retentionDays), BENCH_LOOP_DELAY: loopFile },
    startTimeoutMs: 6 * HOURS,
  });
  deps.progress(
    `work at size: ${o.ratePerS} entries/s and 2/s to the switched campaign for ${o.windowS} s, retention ${retentionDays} days`,
  );
  const windowStart = new Date().toISOString();
  const [main, switched] = await Promise.all([
    intake(ces.url, deps.campaign, deps.yymm, o.ratePerS, o.windowS),
    intake(ces.url, lucky, deps.yymm, 2, o.windowS),
  ]);
  const during = readWork(deps.dbPath, campaigns, lucky.campaignId, seedEnd, windowStart);
  const stopped = await timedStop(deps, ces, 'size_work');
  const loop = existsSync(loopFile)
    ? (JSON.parse(readFileSync(loopFile, 'utf8').trim().split('\n').at(-1)!) as { p99: number; max: number })
    : null;
  const latency = latencyPercentiles(main.requests);
  const accepted = main.requests.filter((r) => r.status === 202).length + switched.requests.filter((r) => r.status === 202).length;
  return {
    work_window_s: o.windowS,
    work_intake_rate_per_s: o.ratePerS + 2,
    work_accepted: accepted,
    work_errors: main.errors + switched.errors,
    // Of those, the ones processing had settled (APPROVED or REJECTED) when the window ended.
    work_entries_processed: during.processed,
    work_intake_p50_ms: latency.p50,
    work_intake_p99_ms: latency.p99,
    work_longest_loop_stall_ms: loop?.max ?? null,
    work_loop_delay_p99_ms: loop?.p99 ?? null,
    work_events_pruned: before.settledEvents - during.settledEvents,
    work_retention_days: retentionDays,
    // Every pair drawn from the pool is either given to an entry or a held one skipped.
    work_held_pairs_skipped: during.pairsDrawn - before.pairsDrawn - (during.autoNumbers - before.autoNumbers),
    work_numbers_allocated: during.autoNumbers - before.autoNumbers,
    sigterm_to_exit_ms_during_work: stopped.ms,
    sigterm_killed_during_work: stopped.killed,
    db_mb_after_work: round(statSync(deps.dbPath).size / 1_048_576),
  };
}
