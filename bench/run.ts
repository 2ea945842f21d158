// npm run bench [-- --quick] [-- --json]: runs every phase of the benchmark in one go and prints a
// table (or, with --json, one JSON object). Ratios are against figures measured in the same run,
// because the machine is shared and absolute numbers drift. Every loop is bounded in count and
// time; all traffic goes to 127.0.0.1.
import { mkdtempSync, rmSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { spawnChild, type Child } from './children.ts';
import { createBenchCampaign, currentYymm, entryRequest, type BenchCampaign } from './data.ts';
import { runLoad, type LoadResult } from './load.ts';
import { recordFileChecked } from '../src/db/integrity.ts';
import { seedEntries } from './seed.ts';
import { measureStartUps, measureWorkAtSize, openKeptDatabase } from './size.ts';
import { pruneSettledDeliveries } from '../src/webhooks/outbox.repo.ts';
import type { ReceiverStats } from './receiver-child.ts';
import { measureBacklogDrain, measureIdleIntakeAtRate, measureSteady, type WebhookBenchDeps } from './webhook-latency.ts';
import { round } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    json: { type: 'boolean' },
    quick: { type: 'boolean' },
    only: { type: 'string' },
    backlog: { type: 'string' },
    seed: { type: 'string' },
    duration: { type: 'string' },
    'webhook-window': { type: 'string' },
    'webhook-delay': { type: 'string' },
    'webhook-backlog': { type: 'string' },
    'draws-sizes': { type: 'string' },
    'draws-rate': { type: 'string' },
  },
});
const quick = flags.quick === true;
/** Sizes of the run; --backlog, --seed and --duration (seconds) override the defaults. */
const P = {
  warmupS: quick ? 1 : 3,
  durationS: Number(flags.duration ?? (quick ? 2 : 10)),
  backlog: Number(flags.backlog ?? (quick ? 2_000 : 20_000)),
  // Run alone, the size phase seeds 10 million entries (issue 43's figures); beside the other
  // phases, a million (the dashboard's pages, intake at size).
  seed: Number(flags.seed ?? (quick ? 50_000 : flags.only === 'size' ? 10_000_000 : 1_000_000)),
  /** Seconds of steady intake measured in each webhook phase (after a 5 s warm-up). */
  webhookWindowS: Number(flags['webhook-window'] ?? (quick ? 10 : 60)),
  /** How long the webhook receiver takes to answer, in ms (a partner's endpoint on the internet). */
  webhookDelayMs: Number(flags['webhook-delay'] ?? 200),
  webhookBacklog: Number(flags['webhook-backlog'] ?? (quick ? 2_000 : 20_000)),
  /** Open-loop intake rate (entries/s) beside a freeze in the draws phase. */
  drawsRate: Number(flags['draws-rate'] ?? 100),
};
/** Lucky numbers of each draws-phase database (up to 20 million: 200 series of 100,000). */
const DRAWS_SIZES = (flags['draws-sizes'] ?? (quick ? '100000,1000000' : '1000000,20000000')).split(',').map(Number);
if (DRAWS_SIZES.some((n) => !Number.isInteger(n) || n < 20 || n > 20_000_000 || n % 20 !== 0))
  throw new Error('--draws-sizes must be multiples of 20 up to 20000000');
for (const [name, value] of Object.entries(P)) {
  if (!Number.isInteger(value) || value < 1 || value > 10_000_000) throw new Error(`--${name} must be a positive integer`);
}
const WEBHOOK_WARMUP_S = quick ? 3 : 5;
const NO_TICK_MS = '3600000';
const progress = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};

const work = mkdtempSync(join(tmpdir(), 'ces-bench-'));
// The server and the echo run as esbuild bundles, as operators run ces (dist/ces.mjs), not through
// tsx: tsx alone adds some 65 MB of resident memory to a process. The bundles live under
// node_modules so that the bundled require() finds better-sqlite3. BENCH_BUNDLE_DIR puts them
// elsewhere (a folder whose parent has node_modules): worktrees that share one node_modules would
// otherwise overwrite each other's bundles while both run a bench.
const BUNDLES = process.env.BENCH_BUNDLE_DIR ?? join(process.cwd(), 'node_modules/.cache/ces-bench');
const bundled = { server: join(BUNDLES, 'server-child.mjs'), echo: join(BUNDLES, 'echo-server.mjs') };

async function buildBundles(): Promise<void> {
  const { buildBundle } = (await import(join(process.cwd(), 'build.mjs') as string)) as {
    buildBundle(o: { outfile: string; entry: string }): Promise<unknown>;
  };
  await buildBundle({ entry: join(process.cwd(), 'bench/server-child.ts'), outfile: bundled.server });
  await buildBundle({ entry: join(process.cwd(), 'bench/echo-server.ts'), outfile: bundled.echo });
}
const children = new Set<Child>();
let rssPeak = 0;
/** Peak RSS of each server process by what it ran (the largest when a role ran more than once). */
const rssByServer: Record<string, number> = {};
const yymm = currentYymm(Date.now());

async function startCes(
  dbPath: string,
  o: {
    tickMs?: string;
    groupCommit?: boolean;
    storage?: boolean;
    ipc?: boolean;
    startTimeoutMs?: number;
    env?: Record<string, string>;
  } = {},
): Promise<Child> {
  const child = await spawnChild({
    script: bundled.server,
    ipc: o.ipc,
    startTimeoutMs: o.startTimeoutMs,
    args: ['--db', dbPath, '--tick-ms', o.tickMs ?? NO_TICK_MS],
    // BENCH_CPU_PROF=DIR profiles every server child (node --cpu-prof), for finding hot spots.
    nodeFlags: [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    ],
    env: {
      // Intake capacity is what is measured, not the per-key limiter: one key sends all the load.
      CES_RATE_LIMIT_RPS: '0',
      CES_ALLOW_PRIVATE_WEBHOOKS: '1',
      NODE_EXTRA_CA_CERTS: join(process.cwd(), 'test/fixtures/tls/ca.pem'),
      BENCH_GROUP_COMMIT: o.groupCommit === false ? '0' : '1',
      BENCH_WRITE: o.storage === false ? 'none' : '',
      ...o.env,
    },
  });
  children.add(child);
  return child;
}

async function stop(child: Child, role: string, o: { countRss?: boolean } = {}): Promise<void> {
  const peak = child.peakRssMb();
  rssByServer[role] = Math.max(rssByServer[role] ?? 0, Math.round(peak * 10) / 10);
  if (o.countRss ?? true) rssPeak = Math.max(rssPeak, peak);
  await child.stop();
  children.delete(child);
}

let phaseCounter = 0;
/** Distinct entries against a ces server: each call gets its own key prefix and number range. */
function intakeLoad(
  child: Child,
  campaign: BenchCampaign,
  o: { durationS?: number; amount?: number },
): Promise<LoadResult & { tag: string }> {
  const phase = ++phaseCounter;
  const tag = `bench-${phase}-${Date.now().toString(36)}`;
  const bodyOptions = { tag, offset: phase * 10_000_000, yymm };
  return runLoad({
    url: child.url,
    path: '/v1/entries',
    headers: { authorization: `Bearer ${campaign.liveKey}` },
    ...o,
    next: (n) => {
      const { body, idempotencyKey } = entryRequest(n, bodyOptions);
      return { body, headers: { 'idempotency-key': idempotencyKey } };
    },
  }).then((r) => ({ ...r, tag }));
}

type WithCpu<T> = T & { cpuUsPerRequest: number; mainThreadCpuUsPerRequest: number; loadCpuUsPerRequest: number };

/**
 * Runs `load` and adds the CPU time per answered request of the server child (robust to a noisy
 * machine), of its main thread alone (the event loop, which bounds what one server can answer;
 * the rest is the checkpoint thread and V8's helpers) and of this
 * process (the load generator, which shares the two cores with the server).
 */
async function withCpu<T extends LoadResult>(child: Child, load: () => Promise<T>): Promise<WithCpu<T>> {
  const before = child.cpuMs();
  const mainBefore = child.mainThreadCpuMs();
  const ownBefore = process.cpuUsage();
  const r = await load();
  const own = process.cpuUsage(ownBefore);
  const per = (us: number): number => (r.total === 0 ? 0 : us / r.total);
  return {
    ...r,
    cpuUsPerRequest: per((child.cpuMs() - before) * 1000),
    mainThreadCpuUsPerRequest: per((child.mainThreadCpuMs() - mainBefore) * 1000),
    loadCpuUsPerRequest: per(own.user + own.system),
  };
}

function requireAll2xx(name: string, r: LoadResult): void {
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
    throw new Error(
      `${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts (status codes ${JSON.stringify(r.statusCodes)})`,
    );
  }
}

/** Warm-up, then the measured intake phase with CPU figures; any non-2xx fails the run. */
async function measuredIntake(child: Child, campaign: BenchCampaign, name: string): Promise<WithCpu<LoadResult>> {
  await intakeLoad(child, campaign, { durationS: P.warmupS });
  const r = await withCpu(child, () => intakeLoad(child, campaign, { durationS: P.durationS }));
  requireAll2xx(name, r);
  return r;
}

async function measureEcho(): Promise<WithCpu<LoadResult>> {
  const echo = await spawnChild({ script: bundled.echo });
  children.add(echo);
  try {
    const bodyOptions = { tag: 'echo', offset: 0, yymm };
    const load = (durationS: number) =>
      runLoad({ url: echo.url, path: '/echo', durationS, next: (n) => ({ body: entryRequest(n, bodyOptions).body }) });
    await load(P.warmupS);
    const r = await withCpu(echo, () => load(P.durationS));
    requireAll2xx('echo', r);
    return r;
  } finally {
    await echo.stop();
    children.delete(echo);
  }
}

interface IntakeFigures {
  intake: WithCpu<LoadResult>;
  replay: LoadResult;
  intakeDbBytesPerEntry: number;
}

interface VariantFigures {
  unbatched: LoadResult;
  noStorage: WithCpu<LoadResult>;
}

async function measureIntake(): Promise<IntakeFigures> {
  const dbPath = join(work, 'intake.db');
  const campaign = createBenchCampaign(dbPath);
  const ces = await startCes(dbPath);
  let intake: WithCpu<LoadResult>;
  let replay: LoadResult;
  try {
    const warm = await intakeLoad(ces, campaign, { durationS: P.warmupS });
    requireAll2xx('intake warm-up', warm);
    intake = await withCpu(ces, () => intakeLoad(ces, campaign, { durationS: P.durationS }));
    requireAll2xx('intake', intake);
    // Replays: keys the warm-up committed (every one of them answered 202).
    const warmBody = { tag: warm.tag, offset: 0, yymm };
    const replayLoad = (durationS: number) =>
      runLoad({
        url: ces.url,
        path: '/v1/entries',
        headers: { authorization: `Bearer ${campaign.liveKey}` },
        durationS,
        next: (n) => {
          const { body, idempotencyKey } = entryRequest(n % warm.total, { ...warmBody, offset: 0 });
          return { body, headers: { 'idempotency-key': idempotencyKey } };
        },
      });
    await replayLoad(P.warmupS);
    replay = await replayLoad(P.durationS);
    requireAll2xx('replay', replay);
  } finally {
    await stop(ces, 'intake');
  }
  return { intake, replay, intakeDbBytesPerEntry: bytesPerEntry(dbPath) };
}

/** A fresh database and a server started with `options`, measured as the intake phase is. */
async function measureFresh(
  file: string,
  role: string,
  label: string,
  options: Parameters<typeof startCes>[1],
  countRss = true,
): Promise<{ figures: WithCpu<LoadResult>; dbPath: string }> {
  const dbPath = join(work, file);
  const campaign = createBenchCampaign(dbPath);
  const ces = await startCes(dbPath, options);
  try {
    return { figures: await measuredIntake(ces, campaign, label), dbPath };
  } finally {
    await stop(ces, role, { countRss });
  }
}

/** The same load on other set-ups: one transaction per request, no storage. */
async function measureVariants(): Promise<VariantFigures> {
  const unbatched = await measureFresh('unbatched.db', 'unbatched', 'unbatched intake', { groupCommit: false });
  // The write left out (BENCH_WRITE=none, see bench/server-child.ts): what everything but storage
  // costs, so the gap between intake and the echo can be split in two.
  const noStorage = await measureFresh('no-storage.db', 'no_storage', 'intake without storage', { storage: false }, false);
  if (storedEntries(noStorage.dbPath) !== 0) throw new Error('intake without storage stored entries: BENCH_WRITE=none was not applied');
  return {
    unbatched: unbatched.figures,
    noStorage: noStorage.figures,
  };
}

function storedEntries(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Size of the database (after the server closed it, so the WAL is checkpointed) per stored entry. */
function bytesPerEntry(dbPath: string): number {
  const n = storedEntries(dbPath);
  const size = statSync(dbPath).size + (existsSync(`${dbPath}-wal`) ? statSync(`${dbPath}-wal`).size : 0);
  return n === 0 ? 0 : size / n;
}

interface Receiver {
  child: Child;
  stats(): Promise<ReceiverStats & { now: number }>;
  setSecret(secret: string, path?: string): Promise<void>;
  arrivals(): Promise<{ arrivals: number[]; received: Array<[string, number]> }>;
}

async function startReceiver(env: Record<string, string> = {}): Promise<Receiver> {
  const child = await spawnChild({ script: 'bench/receiver-child.ts', ipc: true, env });
  children.add(child);
  const ask = <T>(message: object, reply: string): Promise<T> =>
    new Promise((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== reply) return;
        child.process.off('message', on);
        resolve(m as T);
      };
      child.process.on('message', on);
      child.process.send(message);
    });
  return {
    child,
    stats: () => ask<{ stats: ReceiverStats & { now: number } }>({ type: 'stats' }, 'stats').then((m) => m.stats),
    setSecret: (secret, path) => ask<void>({ type: 'secret', secret, path }, 'ok'),
    arrivals: () => ask<{ arrivals: number[]; received: Array<[string, number]> }>({ type: 'arrivals' }, 'arrivals'),
  };
}

/** Polls `done` every 250 ms until it holds or `timeoutMs` passes; returns whether it held. */
async function pollUntil(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return done();
}

/** Points the campaign's webhook at `path` of the receiver (default /hooks) through the API, as an integrator would. */
async function configureWebhook(
  ces: Child,
  campaign: BenchCampaign,
  receiver: Pick<Receiver, 'child' | 'setSecret'>,
  path = '/hooks',
): Promise<void> {
  const res = await fetch(`${ces.url}/v1/webhook`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${campaign.liveKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint_url: new URL(path, receiver.child.url).href, is_active: true }),
  });
  const body = (await res.json().catch(() => ({}))) as { hmac_secret?: string };
  if (res.status !== 201 || !body.hmac_secret) throw new Error(`PATCH /v1/webhook answered ${res.status}: ${JSON.stringify(body)}`);
  await receiver.setSecret(body.hmac_secret, path);
}

function webhookDeps(): WebhookBenchDeps {
  return {
    work,
    yymm,
    progress,
    startCes: (dbPath, o) => startCes(dbPath, o),
    stop: (child, role) => stop(child, role),
    startReceiver: (env) => startReceiver(env),
    configureWebhook,
    intakeLoad: (child, campaign, o) => intakeLoad(child, campaign, o),
  };
}

interface PipelineFigures {
  entriesPerS: number;
  /** Server CPU time (all threads) over the idle drain, per entry drained: robust to a busy machine. */
  cpuMsPerEntry: number;
  firstDrainComplete: boolean;
  backlog: number;
  drainSeconds: number;
  allDelivered: boolean;
  receiver: ReceiverStats;
  p99DuringDrain: LoadResult;
  drainedDuringLoad: number;
  deliveredDuringLoad: number;
  drainActiveWholeWindow: boolean;
  underLoadAllDelivered: boolean;
  dbBytesPerEntry: number;
  dbBytesPerEntryAfterRetention: number;
}

/**
 * A backlog of accepted entries (written through the API with the tick stopped), then a server
 * with the normal tick: the time until the receiver holds a verified entry.evaluated for every one
 * of them. Then a second backlog drained while intake runs at full load, for the latency figure.
 */
async function measurePipeline(): Promise<PipelineFigures> {
  const dbPath = join(work, 'pipeline.db');
  const campaign = createBenchCampaign(dbPath);
  const receiver = await startReceiver();
  const drainTimeoutMs = Math.max(120_000, P.backlog * 20);

  const fill = async (): Promise<void> => {
    const ces = await startCes(dbPath);
    try {
      const r = await intakeLoad(ces, campaign, { amount: P.backlog });
      requireAll2xx('backlog', r);
    } finally {
      await stop(ces, 'backlog_fill');
    }
  };

  // Configure the webhook (creation answers 201 with the secret), then the first backlog.
  const first = await startCes(dbPath);
  try {
    await configureWebhook(first, campaign, receiver);
  } finally {
    await stop(first, 'webhook_setup');
  }
  await fill();

  progress(`draining ${P.backlog} entries`);
  const ces = await startCes(dbPath, { tickMs: '200' });
  const t0 = Date.now();
  const cpu0 = ces.cpuMs();
  let drained: boolean;
  let drainCpuMs: number;
  try {
    drained = await pollUntil(async () => (await receiver.stats()).evaluatedEntries >= P.backlog, drainTimeoutMs);
    drainCpuMs = ces.cpuMs() - cpu0;
  } finally {
    await stop(ces, 'drain');
  }
  const afterFirst = await receiver.stats();
  // Completed: until the last entry.evaluated arrived; timed out: the rate over the whole wait.
  const drainSeconds = ((drained ? afterFirst.lastEvaluatedAt : afterFirst.now) - t0) / 1000;
  const drainedFirst = afterFirst.evaluatedEntries;

  // The second backlog, drained while intake runs at 50 connections.
  await fill();
  progress(`draining ${P.backlog} more entries under intake load`);
  const loaded = await startCes(dbPath, { tickMs: '200' });
  let p99DuringDrain: LoadResult;
  let drainedDuringLoad: number;
  let deliveredDuringLoad = 0;
  let drainActiveWholeWindow: boolean;
  let underLoadAllDelivered: boolean;
  let expected: number;
  try {
    // The same warm-up as the idle intake figure (a just-started server compiles its code under the
    // first requests), here already with the drain running.
    await intakeLoad(loaded, campaign, { durationS: P.warmupS });
    const beforeStats = await receiver.stats();
    const before = beforeStats.evaluatedEntries;
    p99DuringDrain = await intakeLoad(loaded, campaign, { durationS: P.durationS });
    requireAll2xx('intake during drain', p99DuringDrain);
    const afterStats = await receiver.stats();
    const after = afterStats.evaluatedEntries;
    drainedDuringLoad = after - before;
    // Deliveries of any type: the backlog's entry.received events are sent first, so a short window
    // can end before its first entry.evaluated.
    deliveredDuringLoad = afterStats.verified - beforeStats.verified;
    drainActiveWholeWindow = after < 2 * P.backlog;
    // autocannon's total leaves out the requests still in flight when its window closed, which the
    // server may have accepted all the same: wait for every entry the database holds.
    expected = 2 * P.backlog + p99DuringDrain.total;
    underLoadAllDelivered = await pollUntil(async () => {
      const accepted = countEntries(dbPath);
      expected = Math.max(expected, accepted);
      return (await receiver.stats()).evaluatedEntries >= expected;
    }, drainTimeoutMs);
  } finally {
    await stop(loaded, 'drain_under_load');
  }
  const final = await receiver.stats();
  await receiver.child.stop();
  children.delete(receiver.child);
  const db = new Database(dbPath, { readonly: true });
  let deliveriesOk = false;
  try {
    const rows = db.prepare(`SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status`).all() as Array<{
      status: string;
      n: number;
    }>;
    const entries = db.prepare(`SELECT status, count(*) AS n FROM entries GROUP BY status`).all() as Array<{ status: string; n: number }>;
    progress(`deliveries ${JSON.stringify(rows)} entries ${JSON.stringify(entries)}`);
    deliveriesOk = rows.every((r) => r.status === 'delivered');
  } finally {
    db.close();
  }
  return {
    entriesPerS: drainedFirst / drainSeconds,
    cpuMsPerEntry: drainCpuMs / drainedFirst,
    firstDrainComplete: drained,
    backlog: P.backlog,
    drainSeconds,
    allDelivered: drained && underLoadAllDelivered && deliveriesOk && final.unverified === 0 && final.evaluatedEntries === expected,
    receiver: final,
    p99DuringDrain,
    drainedDuringLoad,
    deliveredDuringLoad,
    drainActiveWholeWindow,
    underLoadAllDelivered,
    dbBytesPerEntry: bytesPerEntry(dbPath),
    dbBytesPerEntryAfterRetention: bytesPerEntryAfterRetention(dbPath),
  };
}

/**
 * What an entry costs once its delivered events are past CES_RETENTION_DAYS: the pipeline's
 * database with every delivered event pruned as the tick prunes them (pruneSettledDeliveries),
 * then VACUUMed so the file holds only what is left.
 */
function bytesPerEntryAfterRetention(dbPath: string): number {
  const db = new Database(dbPath);
  try {
    const later = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
    while (db.transaction(() => pruneSettledDeliveries(db, later, 5_000)).immediate() > 0);
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return bytesPerEntry(dbPath);
}

/** Entries in the database (read-only, beside the running server: WAL readers do not block it). */
function countEntries(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM entries`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The seeded database of P.seed entries, written before the echo (see main). */
interface Seeded {
  dbPath: string;
  campaign: BenchCampaign;
  seedSeconds: number;
  dbBytes: number;
  /** Days of the newest entries seeded with their webhook events. */
  daysWithEvents: number;
}

/** The retention rule's default (CES_RETENTION_DAYS) and a day: older entries' events are gone. */
const SEED_DAYS_WITH_EVENTS = 31;

/**
 * BENCH_SIZE_DB=FILE: the seeded database is kept there, and a later run whose FILE exists uses it
 * instead of seeding again (10 million entries take some 40 minutes here). Each run adds to it:
 * the entries of intake at size, a campaign of the work at size.
 */
function keptLarge(dbPath: string): Seeded {
  progress(`using the seeded database ${dbPath}`);
  const kept = openKeptDatabase(dbPath);
  const withEvents = Math.min(kept.entries, SEED_DAYS_WITH_EVENTS * 86_400);
  return { dbPath, campaign: kept.campaign, seedSeconds: 0, dbBytes: statSync(dbPath).size, daysWithEvents: withEvents / 86_400 };
}

/** The million-entry database, written straight into the file before any server is measured. */
function seedLarge(): Seeded {
  const kept = process.env.BENCH_SIZE_DB;
  if (kept && existsSync(kept)) return keptLarge(kept);
  const dbPath = kept ?? join(work, 'large.db');
  const campaign = createBenchCampaign(dbPath);
  progress(`seeding ${P.seed} entries`);
  // One entry a second, ending two days ago (the dashboard phase adds recent ones after); the
  // events of the last 31 days are there, older ones pruned as the retention rule leaves them.
  const withEvents = Math.min(P.seed, SEED_DAYS_WITH_EVENTS * 86_400);
  const { seconds } = seedEntries({
    dbPath,
    campaignId: campaign.campaignId,
    apiKeyId: campaign.liveKeyId,
    entries: P.seed,
    yymm,
    offset: 900_000_000,
    baseMs: Date.now() - 2 * 86_400_000 - P.seed * 1000,
    deliveriesFrom: P.seed - withEvents,
    onProgress: (done) => {
      if (done % 200_000 === 0) progress(`  ${done} seeded`);
    },
  });
  // A file the server has served before, as a campaign's own file is: the checks of a file new to
  // it (minutes at 10 million entries, one core) are the start-up figures' subject, not intake's.
  const db = new Database(dbPath);
  try {
    recordFileChecked(db, dbPath, new Date().toISOString());
  } finally {
    db.close();
  }
  return { dbPath, campaign, seedSeconds: seconds, dbBytes: statSync(dbPath).size, daysWithEvents: withEvents / 86_400 };
}

interface AtSizeRound {
  /** Intake on a file holding only what this run wrote to it. */
  empty: WithCpu<LoadResult>;
  /** Intake on the seeded file, indexes warm, right before or after `empty`. */
  atSize: WithCpu<LoadResult>;
  ratio: number;
}

interface AtSize {
  /** Intake from the server's start, while it warms the indexes intake writes to (if it does). */
  cold: WithCpu<LoadResult>;
  /** Once the indexes are warm: the seeded file and an empty one in turn, each round in the other order. */
  rounds: AtSizeRound[];
  /** The round whose ratio is the median: its figures are the ones reported. */
  median: AtSizeRound;
  /** Seconds from the start to the warm indexes (null: the file is too small for the server to warm them). */
  warmupS: number | null;
}

/**
 * Rounds of intake at size against an empty file. One window of each, minutes apart, carried this
 * machine's drift into the ratio: the empty file's own HTTP-thread CPU per request moved from 164
 * to 276 µs between runs of the same code. Both servers stay up through the rounds and take the
 * load in turn, so each ratio compares windows seconds apart, and the median of them is reported.
 */
const SIZE_ROUNDS = 3;

/** Intake on the seeded database, measured right after the intake phase so that both see the same machine. */
async function measureAtSize(seeded: Seeded): Promise<AtSize> {
  // BENCH_DROP_CACHES=1 (root only) empties the kernel's page cache first: the server starts on a
  // file none of which is in memory, as after a reboot or on a file much larger than memory.
  if (process.env.BENCH_DROP_CACHES === '1') {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '1');
  }
  const started = performance.now();
  const ces = await startCes(seeded.dbPath);
  try {
    const cold = await measuredIntake(ces, seeded.campaign, `intake at ${P.seed}, from the start`);
    // A server that reads ahead (a file larger than half the memory) warms its indexes once, and says when.
    const warms = (await ces.waitForLog(/intake reads ahead on other threads/, 0)) !== null;
    let warmupS: number | null = null;
    if (warms) {
      progress('waiting for the server to warm its indexes');
      const line = await ces.waitForLog(/the indexes of intake are warm|warming the indexes of intake stopped early/, 30 * 60_000);
      if (line === null || /stopped early/.test(line)) throw new Error(`the server did not warm its indexes: ${line}`);
      warmupS = (performance.now() - started) / 1000;
    }
    const emptyPath = join(work, 'intake-beside-size.db');
    const emptyCampaign = createBenchCampaign(emptyPath);
    const empty = await startCes(emptyPath);
    const rounds: AtSizeRound[] = [];
    try {
      for (let i = 0; i < SIZE_ROUNDS; i++) {
        const emptyFirst = i % 2 === 0;
        progress(`round ${i + 1} of ${SIZE_ROUNDS}: intake on an empty file and at ${P.seed}, ${emptyFirst ? 'empty' : 'at size'} first`);
        const onEmpty = () => measuredIntake(empty, emptyCampaign, `intake on an empty file, round ${i + 1}`);
        const onSize = () => measuredIntake(ces, seeded.campaign, `intake at ${P.seed}, round ${i + 1}`);
        let e: WithCpu<LoadResult>;
        let s: WithCpu<LoadResult>;
        if (emptyFirst) {
          e = await onEmpty();
          s = await onSize();
        } else {
          s = await onSize();
          e = await onEmpty();
        }
        rounds.push({ empty: e, atSize: s, ratio: s.rps / e.rps });
      }
    } finally {
      await stop(empty, 'intake_beside_size');
    }
    const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
    return { cold, rounds, median: byRatio[Math.floor(byRatio.length / 2)]!, warmupS };
  } finally {
    await stop(ces, 'intake_at_size');
  }
}

async function measureLucky(): Promise<Record<string, unknown> | null> {
  if (!existsSync(join(process.cwd(), 'bench/lucky-allocation.ts'))) return null;
  const module = (await import('./lucky-allocation.ts' as string)) as { measureLuckyAllocation?: (o?: { samples?: number }) => unknown };
  if (typeof module.measureLuckyAllocation !== 'function') return null;
  return (await module.measureLuckyAllocation(quick ? { samples: 20 } : {})) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const started = Date.now();
  const out: Record<string, unknown> = { quick, node: process.version, duration_s: P.durationS };
  progress(`work folder ${work}; ${quick ? 'quick' : 'full'} run`);

  const errors: string[] = [];
  const attempt = async (name: string, phase: () => Promise<void>): Promise<void> => {
    if (flags.only && !flags.only.split(',').includes(name)) return;
    progress(name);
    try {
      await phase();
    } catch (error) {
      errors.push(`${name}: ${(error as Error).message}`);
      progress(`${name} failed: ${(error as Error).stack}`);
    }
  };

  await buildBundles();
  // A campaign beside one whose endpoint hangs, on a fresh server with both loads starting together
  // (issue 32): figures of the whole run, no warm-up left out. Its baseline (no webhook at the same
  // rate) comes from the webhooks phase when that runs too.
  const hangingPhase = async (): Promise<void> => {
    await attempt('webhooks-hanging', async () => {
      const durationS = WEBHOOK_WARMUP_S + P.webhookWindowS;
      progress(
        `webhooks_40_per_s_beside_hanging: 40 entries/s for ${durationS} s to a ${P.webhookDelayMs} ms endpoint, beside a campaign at 40 entries/s whose endpoint hangs, from a cold start`,
      );
      const r = await measureSteady(webhookDeps(), {
        ratePerS: 40,
        hangingNeighbour: true,
        delayMs: P.webhookDelayMs,
        warmupS: 0,
        windowS: durationS,
      });
      const idle = out.intake_p99_ms_at_40_per_s_no_webhook;
      out.webhooks_40_per_s_beside_hanging = {
        ...r,
        ...(typeof idle === 'number' ? { intake_p99_vs_no_webhook: round(r.intake_p99_ms / Math.max(1, idle), 2) } : {}),
      };
    });
  };
  if (flags.only !== undefined && flags.only.split(',').every((name) => name === 'webhooks-hanging')) {
    await hangingPhase();
    return finish(out, errors, started);
  }
  // Only when named in --only: its 20-million-number database takes minutes to seed and gigabytes of disk.
  const drawsPhase = async (): Promise<void> => {
    if (flags.only === undefined) return;
    await attempt('draws', async () => {
      const { measureDraws } = await import('./draws.ts');
      await measureDraws(
        {
          work,
          bundles: BUNDLES,
          sizes: DRAWS_SIZES,
          ratePerS: P.drawsRate,
          keepDir: process.env.BENCH_DRAWS_DIR ?? null,
          freezeNice: process.env.BENCH_DRAWS_NICE ? Number(process.env.BENCH_DRAWS_NICE) : null,
          yymm,
          progress,
          // A file the server has not opened before is checked first (integrity_check): minutes at 20 million numbers.
          startCes: (dbPath) => startCes(dbPath, { ipc: true, startTimeoutMs: 60 * 60_000 }),
          stop: (child, role) => stop(child, role, { countRss: false }),
        },
        out,
      );
    });
  };
  // The executable against the bundle: only when named, alone (it builds the executable first).
  if (flags.only !== undefined && flags.only.split(',').every((name) => name === 'binary')) {
    await attempt('binary', async () => {
      const { measureBinary } = await import('./binary.ts');
      await measureBinary({ work, progress, runs: quick ? 5 : 15 }, out);
    });
    return finish(out, errors, started);
  }
  // The draws phase has its baseline of its own: run alone, it skips the echo and intake figures.
  if (flags.only !== undefined && flags.only.split(',').every((name) => name === 'draws')) {
    await drawsPhase();
    return finish(out, errors, started);
  }

  // The large database is written first, so that the echo, intake and intake at size are measured
  // back to back: ratios between phases minutes apart carried this machine's drift (one run
  // measured intake_at_1m_ratio 0.754 where the paired figure was above 0.9).
  let seeded: Seeded | null = null;
  await attempt('size', async () => {
    seeded = seedLarge();
  });

  progress('echo ceiling');
  const echo = await measureEcho();
  out.echo_rps = round(echo.rps);
  out.echo_p99_ms = echo.p99;
  out.echo_server_cpu_us_per_request = round(echo.cpuUsPerRequest);
  out.echo_load_cpu_us_per_request = round(echo.loadCpuUsPerRequest);

  progress('intake and replay');
  const intake = await measureIntake();
  out.intake_rps = round(intake.intake.rps);
  out.intake_p50_ms = intake.intake.p50;
  out.intake_p99_ms = intake.intake.p99;
  out.intake_ratio = round(intake.intake.rps / echo.rps, 3);
  out.intake_requests = intake.intake.total;
  out.intake_server_cpu_us_per_request = round(intake.intake.cpuUsPerRequest);
  out.intake_main_thread_cpu_us_per_request = round(intake.intake.mainThreadCpuUsPerRequest);
  out.intake_load_cpu_us_per_request = round(intake.intake.loadCpuUsPerRequest);
  out.intake_cpu_ratio = round(echo.cpuUsPerRequest / intake.intake.cpuUsPerRequest, 3);
  out.replay_rps = round(intake.replay.rps);
  out.replay_p99_ms = intake.replay.p99;

  const sizeFigures: Record<string, unknown> = {};
  const large = seeded as Seeded | null;
  if (large) {
    await attempt('size', async () => {
      const { cold, rounds, median, warmupS } = await measureAtSize(large);
      const { empty, atSize } = median;
      sizeFigures.seeded_entries = P.seed;
      sizeFigures.seed_s = round(large.seedSeconds, 1);
      // The median round's figures (see SIZE_ROUNDS), the empty file's beside them.
      sizeFigures.intake_at_size_ratio = round(median.ratio, 3);
      sizeFigures.intake_at_size_round_ratios = rounds.map((r) => round(r.ratio, 3));
      sizeFigures.intake_rps_at_size = round(atSize.rps);
      sizeFigures.intake_rps_empty_beside_size = round(empty.rps);
      sizeFigures.intake_p99_ms_at_size = atSize.p99;
      sizeFigures.intake_p99_ms_empty_beside_size = empty.p99;
      sizeFigures.intake_server_cpu_us_per_request_at_size = round(atSize.cpuUsPerRequest);
      sizeFigures.intake_main_thread_cpu_us_per_request_at_size = round(atSize.mainThreadCpuUsPerRequest);
      sizeFigures.intake_main_thread_cpu_us_per_request_empty_beside_size = round(empty.mainThreadCpuUsPerRequest);
      // The intake phase's window, minutes before: the figure one window of each gave.
      sizeFigures.intake_at_size_vs_intake_phase_ratio = round(atSize.rps / intake.intake.rps, 3);
      sizeFigures.index_warmup_s_at_size = warmupS === null ? null : round(warmupS, 1);
      sizeFigures.intake_rps_at_size_from_start = round(cold.rps);
      sizeFigures.intake_p99_ms_at_size_from_start = cold.p99;
      // Against the median round's empty file: the rounds come within a minute of the start's window.
      sizeFigures.intake_at_size_from_start_ratio = round(cold.rps / empty.rps, 3);
      sizeFigures.db_bytes_per_entry_at_size = round(large.dbBytes / P.seed);
      sizeFigures.rss_mb_intake_at_size = rssByServer.intake_at_size;
    });
    // Only when the size phase is named: start-ups read and copy the whole file, more than once.
    if (flags.only?.split(',').includes('size'))
      await attempt('size', async () => {
        const deps = {
          work,
          dbPath: large.dbPath,
          campaign: large.campaign,
          entries: P.seed,
          daysWithEvents: large.daysWithEvents,
          yymm,
          progress,
          startCes: (dbPath: string, o: Parameters<typeof startCes>[1]) => startCes(dbPath, o),
          stop: (child: Child, role: string) => stop(child, role, { countRss: false }),
        };
        Object.assign(sizeFigures, await measureStartUps(deps));
        // BENCH_SIZE_WORK=0 leaves the work at size out (a run for intake at size alone).
        if (process.env.BENCH_SIZE_WORK !== '0')
          Object.assign(sizeFigures, await measureWorkAtSize(deps, { windowS: quick ? 10 : 30, ratePerS: 100 }));
        sizeFigures.rss_mb_size_servers = {
          start_copied: rssByServer.size_start_copied,
          start_restored: rssByServer.size_start_restored,
          work: rssByServer.size_work,
        };
      });
  }

  progress('unbatched intake, intake without storage');
  const variants = await measureVariants();
  out.unbatched_intake_rps = round(variants.unbatched.rps);
  out.unbatched_intake_p99_ms = variants.unbatched.p99;
  out.group_commit_gain = round(intake.intake.rps / variants.unbatched.rps, 2);
  out.no_storage_intake_rps = round(variants.noStorage.rps);
  out.no_storage_intake_ratio = round(variants.noStorage.rps / echo.rps, 3);
  out.no_storage_server_cpu_us_per_request = round(variants.noStorage.cpuUsPerRequest);
  out.storage_server_cpu_us_per_request = round(intake.intake.cpuUsPerRequest - variants.noStorage.cpuUsPerRequest);

  await attempt('pipeline', async () => {
    const pipeline = await measurePipeline();
    out.pipeline_entries_per_s = round(pipeline.entriesPerS);
    out.pipeline_cpu_ms_per_entry = round(pipeline.cpuMsPerEntry, 3);
    out.pipeline_backlog = pipeline.backlog;
    out.pipeline_drain_s = round(pipeline.drainSeconds, 2);
    out.pipeline_backlog_drained_within_timeout = pipeline.firstDrainComplete;
    out.pipeline_all_delivered_verified = pipeline.allDelivered;
    out.pipeline_events = pipeline.receiver.events;
    out.pipeline_duplicate_deliveries = pipeline.receiver.duplicates;
    out.p99_during_drain_ms = pipeline.p99DuringDrain.p99;
    out.p99_during_drain_vs_idle = round(pipeline.p99DuringDrain.p99 / intake.intake.p99, 2);
    out.intake_rps_during_drain = round(pipeline.p99DuringDrain.rps);
    out.pipeline_entries_per_s_under_load = round(pipeline.drainedDuringLoad / pipeline.p99DuringDrain.durationS);
    out.pipeline_deliveries_per_s_under_load = round(pipeline.deliveredDuringLoad / pipeline.p99DuringDrain.durationS);
    out.drain_active_whole_window = pipeline.drainActiveWholeWindow;
    out.db_bytes_per_entry = round(pipeline.dbBytesPerEntry);
    out.db_bytes_per_entry_after_retention = round(pipeline.dbBytesPerEntryAfterRetention);
  });

  Object.assign(out, sizeFigures);

  out.rss_mb_peak = round(rssPeak, 1);
  out.rss_mb_by_server = rssByServer;
  out.db_bytes_per_entry ??= round(intake.intakeDbBytesPerEntry);
  out.db_bytes_per_entry_intake_only = round(intake.intakeDbBytesPerEntry);

  await attempt('webhooks', async () => {
    const deps = webhookDeps();
    const timing = { warmupS: WEBHOOK_WARMUP_S, windowS: P.webhookWindowS };
    const idle = await measureIdleIntakeAtRate(deps, 40, timing);
    out.webhook_receiver_delay_ms = P.webhookDelayMs;
    out.intake_p99_ms_at_40_per_s_no_webhook = idle.p99;
    const steady = async (name: string, o: { ratePerS: number; hangingNeighbour?: boolean }): Promise<void> => {
      progress(
        `${name}: ${o.ratePerS} entries/s for ${WEBHOOK_WARMUP_S} + ${P.webhookWindowS} s to a ${P.webhookDelayMs} ms endpoint${o.hangingNeighbour ? ', beside a campaign whose endpoint hangs' : ''}`,
      );
      const r = await measureSteady(deps, { ...o, delayMs: P.webhookDelayMs, ...timing });
      out[name] = {
        ...r,
        intake_p99_vs_no_webhook: round(r.intake_p99_ms / Math.max(1, idle.p99), 2),
        intake_p99_vs_full_load_idle: round(r.intake_p99_ms / intake.intake.p99, 2),
      };
    };
    await steady('webhooks_40_per_s', { ratePerS: 40 });
    await steady('webhooks_100_per_s', { ratePerS: 100 });
    out.webhooks_backlog_drain = await measureBacklogDrain(deps, {
      entries: P.webhookBacklog,
      delayMs: P.webhookDelayMs,
      timeoutMs: Math.max(120_000, P.webhookBacklog * 20),
    });
  });

  await hangingPhase();

  await attempt('write', async () => {
    const { measureWriteStage } = await import('./write-stage.ts');
    const stage = await measureWriteStage(quick ? { entries: 4_000 } : {});
    out.write_stage_us_per_entry = stage.us_per_entry;
    out.write_stage_statements_us_per_entry = stage.statements_us_per_entry;
    out.write_stage_commit_us_per_entry = stage.commit_us_per_entry;
    out.write_stage_commit_p99_ms = stage.commit_p99_ms;
  });

  await attempt('dashboard', async () => {
    if (!large) throw new Error('the dashboard phase reads the seeded database: run it with the size phase (--only size,dashboard)');
    const { measureDashboard } = await import('./dashboard.ts');
    out.dashboard = await measureDashboard({
      dbPath: large.dbPath,
      campaign: large.campaign,
      yymm,
      quick,
      durationS: P.durationS,
      warmupS: P.warmupS,
      progress,
      startCes: (dbPath) => startCes(dbPath),
      stop: (child, role) => stop(child, role, { countRss: false }),
      intakeLoad: (child, campaign, o) => intakeLoad(child, campaign, o),
    });
  });

  await drawsPhase();

  await attempt('lucky', async () => {
    const lucky = await measureLucky();
    if (lucky) out.lucky_allocation = lucky;
  });
  finish(out, errors, started);
}

function finish(out: Record<string, unknown>, errors: string[], started: number): void {
  if (errors.length > 0) {
    out.errors = errors;
    process.exitCode = 1;
  }
  out.elapsed_s = round((Date.now() - started) / 1000);
  if (flags.json) process.stdout.write(`${JSON.stringify(out)}\n`);
  else printTable(out);
}

function printTable(out: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(out).map((k) => k.length));
  for (const [k, v] of Object.entries(out)) process.stdout.write(`${k.padEnd(width)}  ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`[bench] failed: ${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  for (const child of children) await child.stop();
  rmSync(work, { recursive: true, force: true });
}
