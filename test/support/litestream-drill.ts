// One kill-the-machine drill (issue 33): `ces serve` under Litestream with a `file` replica takes
// entries at a steady rate; at a moment drawn from a seeded source both are SIGKILLed, the data
// folder is deleted, `litestream restore` brings the database back, and the result is judged:
// `ces check`, which acknowledged entries are missing and how long before the kill they were
// acknowledged, the replica's WAL continuity, and whether `ces serve` starts on the restored file
// and accepts an entry. test/slow/litestream-drill.test.ts runs one in CI; bench/drill.ts repeats it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { entryBody, OPERATOR, request, runCli } from './harness.ts';
import { checkReplicaContinuity, type ContinuityReport } from './litestream-replica.ts';
import { killLitestream, restoreLitestream, startLitestream, writeLitestreamConfig, type LitestreamProcess } from './litestream.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from './serve-process.ts';

export type CheckpointMode = 'external' | 'internal';

export interface DrillOptions {
  /** The Litestream binary (test/support/litestream.ts findLitestream). */
  binary: string;
  /** CES_CHECKPOINTS of `ces serve`. */
  mode: CheckpointMode;
  /** Seeds the moment of the kill. */
  seed: number;
  /** Entries a second, sent at a steady pace whatever the answers. */
  ratePerS?: number;
  /** The kill falls in [min, max) ms after the steady load starts (once a first entry was answered). */
  killWindowMs?: [number, number];
  /** Entries acknowledged longer than this before the kill must survive it. */
  promiseMs?: number;
  /** Keep the drill's folder (printed in the result) instead of deleting it. */
  keep?: boolean;
  /** Run `ces serve` from this built bundle instead of the sources (faster starts for repeated runs). */
  bundle?: string;
}

export interface DrillResult {
  mode: CheckpointMode;
  seed: number;
  /** When the kill came, in ms after the steady load started. */
  killAfterMs: number;
  acknowledged: number;
  /** Entries acknowledged more than promiseMs before the kill: those the promise covers. */
  acknowledgedBeyondPromise: number;
  /** Acknowledged entries missing from the restored database. */
  lost: number;
  /** How long before the kill the oldest missing entry was acknowledged (ms); null when none is missing. */
  oldestLostMs: number | null;
  /** Missing entries acknowledged more than promiseMs before the kill: a broken promise. */
  lostBeyondPromise: number;
  /** `ces check` of the restored file passed (integrity_check and foreign_key_check). */
  checkPassed: boolean;
  checkOutput: string;
  continuity: ContinuityReport;
  /** How long `litestream restore` took (ms); null when it failed. */
  restoreMs: number | null;
  /** `ces serve` started on the restored file and answered 202 to a new entry. */
  servedAfterRestore: boolean;
  /** What went wrong outside the judged steps (a restore that failed, a server that did not start). */
  errors: string[];
  dir: string | null;
}

interface Acknowledgement {
  entryId: string;
  at: number;
}

export async function runDrill(options: DrillOptions): Promise<DrillResult> {
  const ratePerS = options.ratePerS ?? 50;
  const [killMin, killMax] = options.killWindowMs ?? [3_000, 6_000];
  const promiseMs = options.promiseMs ?? 2_000;
  const killAfterMs = killMin + seededRandom(options.seed).int(killMax - killMin);
  const dir = mkdtempSync(join(tmpdir(), 'ces-drill-'));
  const dataDir = join(dir, 'data');
  const dbPath = join(dataDir, 'ces.db');
  const replicaDir = join(dir, 'replica');
  const configPath = join(dir, 'litestream.yml');
  const env = { CES_CHECKPOINTS: options.mode };
  const errors: string[] = [];
  mkdirSync(dataDir, { mode: 0o700 });
  writeLitestreamConfig(configPath, dbPath, replicaDir);

  // The world exists before Litestream first sees the file, as in production (ces creates it).
  const ctx = await openFileCtx(dbPath);
  const campaign = createCampaign(ctx, { name: 'Drill' }, OPERATOR);
  const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, OPERATOR).key;
  ctx.db.close();

  let litestream: LitestreamProcess | undefined;
  let server: ServeProcess | undefined;
  const acknowledged: Acknowledgement[] = [];
  let killedAt = 0;
  try {
    litestream = await startLitestream(options.binary, configPath);
    server = await spawnServe({ dbPath, env, bundle: options.bundle });
    const url = server.url;
    // One entry answered before the clock starts: a cold server (tsx compiling, first queries) on a
    // busy machine could otherwise take the whole window to answer its first request.
    const first = await request(url, 'POST', '/v1/entries', {
      key,
      idempotencyKey: `drill-${options.seed}-first`,
      body: entryBody({}, 999_999),
    });
    if (first.status !== 202) throw new Error(`the first entry was answered ${first.status}: ${first.text}`);
    acknowledged.push({ entryId: first.body.entry_id, at: Date.now() });
    const started = performance.now();
    const inFlight = new Set<Promise<void>>();
    for (let n = 0; ; n++) {
      const dueAt = started + (n * 1000) / ratePerS;
      const killAt = started + killAfterMs;
      const wait = Math.min(dueAt, killAt) - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (performance.now() >= killAt) break;
      const sent = request(url, 'POST', '/v1/entries', { key, idempotencyKey: `drill-${options.seed}-${n}`, body: entryBody({}, n) })
        .then((res) => {
          // An answer read just after the kill was still sent before it: it counts, 0 ms before.
          if (res.status === 202) acknowledged.push({ entryId: res.body.entry_id, at: Math.min(Date.now(), killedAt || Date.now()) });
        })
        .catch(() => undefined) // cut off by the kill
        .finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }
    // The machine is lost: both at once, nothing flushed, nothing said.
    killedAt = Date.now();
    server.child.kill('SIGKILL');
    litestream.child.kill('SIGKILL');
    await Promise.all([server.exited, litestream.exited, ...inFlight]);
  } finally {
    await killServe(server);
    await killLitestream(litestream);
  }

  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { mode: 0o700 });
  let restoreMs: number | null = null;
  try {
    restoreMs = (await restoreLitestream(options.binary, configPath, dbPath, dbPath)).ms;
  } catch (error) {
    errors.push((error as Error).message);
  }

  const check = await runCli(['check', '--json'], { dbPath, env });
  const checkPassed = check.code === 0;
  const present = new Set<string>();
  if (restoreMs !== null) {
    try {
      const db = new Database(dbPath, { readonly: true, fileMustExist: true });
      for (const row of db.prepare('SELECT id FROM entries').all() as Array<{ id: string }>) present.add(row.id);
      db.close();
    } catch (error) {
      errors.push(`reading the restored entries: ${(error as Error).message}`);
    }
  }
  const lost = acknowledged.filter((a) => !present.has(a.entryId));
  const oldestLostMs = lost.length === 0 ? null : Math.max(...lost.map((a) => killedAt - a.at));

  let servedAfterRestore = false;
  if (checkPassed) {
    let restarted: ServeProcess | undefined;
    try {
      restarted = await spawnServe({ dbPath, env, bundle: options.bundle });
      const res = await request(restarted.url, 'POST', '/v1/entries', {
        key,
        idempotencyKey: `drill-${options.seed}-after`,
        body: entryBody({}, 1_000_000),
      });
      servedAfterRestore = res.status === 202;
      if (!servedAfterRestore) errors.push(`the entry after the restore was answered ${res.status}: ${res.text}`);
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    } catch (error) {
      errors.push(`ces serve on the restored file: ${(error as Error).message}`);
    } finally {
      await killServe(restarted);
    }
  }

  const result: DrillResult = {
    mode: options.mode,
    seed: options.seed,
    killAfterMs,
    acknowledged: acknowledged.length,
    acknowledgedBeyondPromise: acknowledged.filter((a) => killedAt - a.at > promiseMs).length,
    lost: lost.length,
    oldestLostMs,
    lostBeyondPromise: lost.filter((a) => killedAt - a.at > promiseMs).length,
    checkPassed,
    checkOutput: check.stdout + check.stderr,
    continuity: checkReplicaContinuity(replicaDir),
    restoreMs,
    servedAfterRestore,
    errors,
    dir: options.keep ? dir : null,
  };
  if (!options.keep) rmSync(dir, { recursive: true, force: true });
  return result;
}
