// Cost of intake's write stage alone, in process: the same requests the intake load sends, parsed
// beforehand, written by performWrite (the code the intake writer runs) in group-commit batches of 40
// on a real file with the service's pragmas (synchronous=FULL) and, as in `ces serve`, the WAL
// checkpoint thread beside it. No HTTP, no validation, no thread:
// what is left is what SQLite and the write's own JavaScript cost per entry, split into the
// statements and the batch's COMMIT (its WAL writes and fsync). With the echo's server CPU it
// bounds what one thread can serve: 1 s / (echo + write stage + the rest of intake's HTTP work).
// With `stored`, the file first holds that many entries of the same load, written the same way, so
// the random indexes are large; with `returning`, each measured entry comes from one of those
// entries' participants, taken in scattered order (a participant coming back days later), with
// an access key and Idempotency-Key of its own.
//   npx tsx bench/write-stage.ts             (standalone; `npm run bench` calls measureWriteStage)
//   npx tsx bench/write-stage.ts --stored 300000 [--returning] [--entries 20000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { monotonicMs } from '../src/kernel/clock.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { startCheckpointer } from '../src/db/checkpointer.ts';
import { openDatabase } from '../src/db/open.ts';
import { parseSubmission } from '../src/entries/submission.ts';
import { performWrite, type WriteRequest } from '../src/intake/entry-writer.ts';
import type { Caller } from '../src/keys/keys.ts';
import { createSilentLogger } from '../src/kernel/log.ts';
import { cryptoRandom } from '../src/kernel/random.ts';
import { accessKey, createBenchCampaign, currentYymm, entryRequest, labelUuid } from './data.ts';

export interface WriteStageOptions {
  entries?: number;
  batch?: number;
  /** Entries written before the measured ones (default 0). */
  stored?: number;
  /** Measured entries from the stored entries' participants (needs stored >= 2). */
  returning?: boolean;
}

export interface WriteStageResult {
  entries: number;
  batch: number;
  stored: number;
  returning: boolean;
  us_per_entry: number;
  statements_us_per_entry: number;
  commit_us_per_entry: number;
  commit_p99_ms: number;
}

export async function measureWriteStage(options: WriteStageOptions = {}): Promise<WriteStageResult> {
  const entries = options.entries ?? 20_000;
  const batch = options.batch ?? 40;
  const stored = options.stored ?? 0;
  const returning = options.returning ?? false;
  if (returning && stored < 2) throw new Error('returning entries need stored participants (stored >= 2)');
  const dir = mkdtempSync(join(tmpdir(), 'ces-bench-write-'));
  const dbPath = join(dir, 'bench.db');
  try {
    const campaign = createBenchCampaign(dbPath);
    const db = openDatabase(dbPath);
    const checkpointer = startCheckpointer(dbPath, createSilentLogger());
    try {
      const base = { db, config: loadConfig({ db: dbPath, logFormat: 'json' }, {}, false), log: createSilentLogger() };
      const caller: Caller = { keyId: campaign.liveKeyId, campaignId: campaign.campaignId, mode: 'live', livemode: true };
      const yymm = currentYymm(Date.now());
      const toWriteRequest = (body: unknown, idempotencyKey: string): WriteRequest => {
        const now = Date.now();
        return { caller, idempotencyKey, submission: parseSubmission(body, now), now, seed: cryptoRandom.bytes(16).toString('hex') };
      };
      const loadRequest = (n: number): WriteRequest => {
        const { body, idempotencyKey } = entryRequest(n, { tag: 'write-stage', offset: 0, yymm });
        return toWriteRequest(JSON.parse(body), idempotencyKey);
      };
      // Participant p of the stored entries sent entries 2p and 2p + 1 (./data.ts); 7,919 is prime,
      // so consecutive measured entries go to participants far apart.
      const returningRequest = (n: number): WriteRequest => {
        const participant = (n * 7_919) % Math.floor(stored / 2);
        const body = JSON.parse(entryRequest(2 * participant, { tag: 'write-stage', offset: 0, yymm }).body);
        body.evidence.access_key = accessKey(stored + n, yymm);
        return toWriteRequest(body, labelUuid(`write-stage-returning-${n}`));
      };
      const begin = db.prepare('BEGIN IMMEDIATE');
      const commit = db.prepare('COMMIT');
      for (let i = 0; i < stored; i += 1000) {
        begin.run();
        for (let n = i; n < Math.min(i + 1000, stored); n++) performWrite(base, loadRequest(n));
        commit.run();
      }
      const requests = Array.from({ length: entries }, (_, n) => (returning ? returningRequest(n) : loadRequest(stored + n)));
      let statementsMs = 0;
      const commits: number[] = [];
      for (let i = 0; i < entries; i += batch) {
        const t0 = monotonicMs();
        begin.run();
        for (const request of requests.slice(i, i + batch)) performWrite(base, request);
        const t1 = monotonicMs();
        commit.run();
        statementsMs += t1 - t0;
        commits.push(monotonicMs() - t1);
        // One turn of the event loop between batches, as between two group commits of the server.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const commitMs = commits.reduce((a, b) => a + b, 0);
      commits.sort((a, b) => a - b);
      const round = (n: number) => Math.round(n * 10) / 10;
      return {
        entries,
        batch,
        stored,
        returning,
        us_per_entry: round(((statementsMs + commitMs) * 1000) / entries),
        statements_us_per_entry: round((statementsMs * 1000) / entries),
        commit_us_per_entry: round((commitMs * 1000) / entries),
        commit_p99_ms: round(commits[Math.floor(0.99 * (commits.length - 1))]),
      };
    } finally {
      await checkpointer.close();
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { entries: { type: 'string' }, batch: { type: 'string' }, stored: { type: 'string' }, returning: { type: 'boolean' } },
  });
  const number = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
  const result = await measureWriteStage({
    entries: number(values.entries),
    batch: number(values.batch),
    stored: number(values.stored),
    returning: values.returning,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
