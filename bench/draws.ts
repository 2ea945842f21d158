// The draws phase (`npm run bench -- --only draws`): what a draw (apuração) costs on a campaign of
// 200 series. For each size (1 million and 20 million lucky numbers; 100,000 and 1 million with
// --quick), a database seeded by ./draws-seed.ts, then `ces draw freeze` and `ces draw run` as
// processes of their own on the file: seconds (the process's whole life, as the operator waits
// for it), peak RSS (getrusage at exit, ./peak-rss.mjs) and the frozen set's bytes per number.
// The freeze's count and SHA-256 are checked against the seed's own computation. Then intake p99
// at a steady open-loop rate on the largest file, against idle intake on the same server: while
// `ces draw freeze` runs in another process, and while the server freezes a draw in its own event
// loop (the dashboard's way; sent over IPC to bench/server-child.ts). Each freeze window is
// compared with the idle window right before it, so drift of this shared machine cancels out.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, setPriority } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliActor } from '../src/audit/actor.ts';
import { ManualClock, systemClock, type Clock } from '../src/kernel/clock.ts';
import { loadConfig } from '../src/kernel/config.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { openDatabase } from '../src/db/open.ts';
import { frozenSetBytes } from '../src/draws/draws.repo.ts';
import { createDraw, recordResults } from '../src/draws/lifecycle.ts';
import { getDraw, listDraws } from '../src/draws/views.ts';
import { createSilentLogger } from '../src/kernel/log.ts';
import { cryptoRandom } from '../src/kernel/random.ts';
import { ROOT, type Child } from './children.ts';
import { entryRequest } from './data.ts';
import { seedDrawDatabase, type DrawSeed } from './draws-seed.ts';
import { latencyPercentiles, openLoop, type OpenLoopResult } from './open-loop.ts';
import { round } from './stats.ts';

export interface DrawsBenchDeps {
  work: string;
  /** Where run.ts keeps its bundles; the CLI and ./draw-command.ts are bundled there too. */
  bundles: string;
  /** Lucky numbers of each database, smallest first; intake is measured on the last. */
  sizes: number[];
  /** Open-loop intake rate during the freeze windows, entries/s. */
  ratePerS: number;
  /** Keep seeded databases here and reuse them in later runs (BENCH_DRAWS_DIR); else in `work`. */
  keepDir: string | null;
  /** Niceness of every `ces draw freeze` process (BENCH_DRAWS_NICE), or null to leave it as started. */
  freezeNice: number | null;
  yymm: string;
  progress(line: string): void;
  startCes(dbPath: string): Promise<Child>;
  stop(child: Child, role: string): Promise<void>;
}

/** Winners each draw picks: enough to exercise the holder lookups of winners 2..N. */
const WINNERS = 100;
/** A Loteria Federal result (five 5-digit prizes); the same inputs always give the same winners. */
const PRIZES = ['48213', '07519', '93362', '15870', '62044'];
/** Bumped when the seed changes, so a kept database of an older seed is written again. */
const SEED_VERSION = 1;
const PEAK_RSS = join(ROOT, 'bench/peak-rss.mjs');

const label = (n: number): string => (n % 1_000_000 === 0 ? `${n / 1_000_000}m` : `${n / 1000}k`);

interface DrawCommand {
  /** What runs: `ces draw` (the CLI bundle) or the stand-in when the CLI has no `draw` command. */
  name: string;
  argv(verb: 'freeze' | 'run', drawId: string, dbPath: string): string[];
}

interface TimedCommand {
  seconds: number;
  rssMb: number;
  output: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
}

/** Fills `out` as it goes, so that a failure leaves the figures measured before it. */
export async function measureDraws(deps: DrawsBenchDeps, out: Record<string, unknown>): Promise<void> {
  const command = await prepareCommand(deps);
  deps.progress(`draws: freeze and run through ${command.name}`);
  // The machine is shared: its load says how far the absolute figures can be trusted.
  Object.assign(out, { draws_command: command.name, draws_series: 200, draws_winners: WINNERS, draws_load_average_at_start: loadavg()[0] });
  const seeds: DrawSeed[] = [];
  const freezeSeconds: number[] = [];
  for (const numbers of deps.sizes) {
    const seed = seedOrReuse(deps, numbers);
    seeds.push(seed);
    const at = label(numbers);
    const draw = createBenchDraw(seed, `size ${at}`);
    const freeze = await runCommand(deps, command, 'freeze', draw, seed.dbPath);
    checkFrozen(seed, freeze.output);
    freezeSeconds.push(freeze.seconds);
    const bytes = withCtx(seed.dbPath, (ctx) => frozenSetBytes(ctx.db, draw));
    await recordBenchResults(seed, draw);
    const run = await runCommand(deps, command, 'run', draw, seed.dbPath);
    const winners = (run.output.winners as unknown[] | undefined)?.length ?? 0;
    if (winners !== Math.min(WINNERS, seed.eligible)) throw new Error(`draw run at ${at}: ${winners} winners, expected ${WINNERS}`);
    const size = fileBytes(seed.dbPath);
    Object.assign(out, {
      [`draws_${at}_eligible`]: seed.eligible,
      [`draws_${at}_numbers_seeded`]: seed.numbers,
      [`draws_${at}_entries_seeded`]: seed.entries,
      [`draws_${at}_seed_s`]: round(seed.seedSeconds, 1),
      [`draws_${at}_db_mb`]: round(size / 1_048_576),
      [`draws_${at}_freeze_s`]: round(freeze.seconds, 2),
      [`draws_${at}_freeze_rss_mb`]: round(freeze.rssMb, 1),
      [`draws_${at}_run_s`]: round(run.seconds, 2),
      [`draws_${at}_run_rss_mb`]: round(run.rssMb, 1),
      [`draws_${at}_frozen_bytes`]: bytes,
      [`draws_${at}_bytes_per_number`]: round(bytes / seed.eligible, 3),
    });
    deps.progress(
      `draws ${at}: freeze ${freeze.seconds.toFixed(2)} s, ${freeze.rssMb.toFixed(1)} MB; run ${run.seconds.toFixed(2)} s, ${run.rssMb.toFixed(1)} MB; ${(bytes / seed.eligible).toFixed(3)} B/number`,
    );
  }
  await measureIntakeDuringFreeze(deps, command, seeds.at(-1)!, freezeSeconds.at(-1)!, out);
  out.draws_load_average_at_end = loadavg()[0];
}

/** The CLI bundle when it has `ces draw`; else ./draw-command.ts bundled (the CLI's runCommand around the same service calls). */
async function prepareCommand(deps: DrawsBenchDeps): Promise<DrawCommand> {
  const { buildBundle } = (await import(join(ROOT, 'build.mjs') as string)) as {
    buildBundle(o: { outfile: string; entry: string }): Promise<unknown>;
  };
  const cli = join(deps.bundles, 'ces.mjs');
  await buildBundle({ entry: join(ROOT, 'cli/ces.ts'), outfile: cli });
  const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' }).stdout;
  if (/^ {2}draw\b/m.test(help)) return { name: 'ces draw', argv: (verb, id, db) => [cli, 'draw', verb, id, '--db', db, '--json'] };
  const standIn = join(deps.bundles, 'draw-command.mjs');
  await buildBundle({ entry: join(ROOT, 'bench/draw-command.ts'), outfile: standIn });
  return { name: 'bench/draw-command.ts (no ces draw in this CLI)', argv: (verb, id, db) => [standIn, verb, id, '--db', db, '--json'] };
}

function seedOrReuse(deps: DrawsBenchDeps, numbers: number): DrawSeed {
  const dbPath = join(deps.keepDir ?? deps.work, `draws-${numbers}.db`);
  const manifest = `${dbPath}.json`;
  if (deps.keepDir && existsSync(dbPath) && existsSync(manifest)) {
    const kept = JSON.parse(readFileSync(manifest, 'utf8')) as DrawSeed & { version: number };
    if (kept.version === SEED_VERSION && kept.numbers === numbers) {
      deps.progress(`draws: reusing ${dbPath} (seeded in ${kept.seedSeconds.toFixed(0)} s); reading it into the page cache`);
      // As it was right after its seed: a freshly written file is in the page cache.
      spawnSync('cat', [dbPath], { stdio: ['ignore', 'ignore', 'inherit'] });
      return { ...kept, dbPath };
    }
  }
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, manifest]) rmSync(file, { force: true });
  deps.progress(`draws: seeding ${numbers.toLocaleString('en')} lucky numbers into ${dbPath}`);
  const seed = seedDrawDatabase({
    dbPath,
    numbers,
    nowMs: Date.now(),
    onProgress: (done) => {
      if (done % 2_000_000 === 0) deps.progress(`  ${done.toLocaleString('en')} numbers`);
    },
  });
  if (deps.keepDir) writeFileSync(manifest, JSON.stringify({ ...seed, version: SEED_VERSION }));
  return seed;
}

function openCtx(dbPath: string, clock: Clock = systemClock): Ctx {
  return {
    db: openDatabase(dbPath),
    clock,
    random: cryptoRandom,
    config: loadConfig({ db: dbPath, logFormat: 'json' }, {}, false),
    log: createSilentLogger(),
  };
}

function withCtx<T>(dbPath: string, use: (ctx: Ctx) => T): T {
  const ctx = openCtx(dbPath);
  try {
    return use(ctx);
  } finally {
    ctx.db.close();
  }
}

/**
 * The extraction's results, as `ces draw results` records them (not timed): dated the draw's
 * planned extraction and typed that evening, after it (a clock of its own: the draw is planned
 * days ahead, as it must be created and frozen before its extraction). Each draw of the seeded
 * campaign has its own extraction, as one extraction decides one draw.
 */
async function recordBenchResults(seed: DrawSeed, drawId: string): Promise<void> {
  const date = withCtx(seed.dbPath, (ctx) => getDraw(ctx, drawId).extraction_date);
  if (date === null) throw new Error(`draw ${drawId} names no extraction`);
  const ctx = openCtx(seed.dbPath, new ManualClock(`${date}T23:30:00.000Z`));
  try {
    const extraction = 6_000 + listDraws(ctx, seed.campaignId).findIndex((d) => d.id === drawId);
    await recordResults(ctx, drawId, { extraction, date, prizes: PRIZES }, cliActor('bench'));
  } finally {
    ctx.db.close();
  }
}

/**
 * A draw of the seeded campaign, as `ces draw create --mode live --winners 100` makes it. The
 * freeze it is timed on runs on the system's clock, before the planned extraction: a week ahead,
 * a day later for each draw the (kept) seed already has, so that no two share an extraction.
 */
function createBenchDraw(seed: DrawSeed, name: string): string {
  return withCtx(seed.dbPath, (ctx) => {
    const ahead = 7 + listDraws(ctx, seed.campaignId).length;
    const extractionDate = new Date(ctx.clock.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    return createDraw(
      ctx,
      { campaignId: seed.campaignId, mode: 'live', name, cutoff: seed.cutoff, extractionDate, winners: WINNERS },
      cliActor('bench'),
    ).id;
  });
}

function checkFrozen(seed: DrawSeed, draw: Record<string, unknown>): void {
  if (draw.status !== 'frozen' || draw.eligible_count !== seed.eligible || draw.numbers_sha256 !== seed.sha256)
    throw new Error(
      `the freeze found ${String(draw.eligible_count)} numbers (SHA-256 ${String(draw.numbers_sha256)}), the seed made ${seed.eligible} eligible (${seed.sha256})`,
    );
}

function fileBytes(dbPath: string): number {
  return [dbPath, `${dbPath}-wal`].reduce((sum, f) => sum + (statSync(f, { throwIfNoEntry: false })?.size ?? 0), 0);
}

/** Runs the command in a process of its own; its output is the JSON document it prints. */
function runCommand(
  deps: DrawsBenchDeps,
  command: DrawCommand,
  verb: 'freeze' | 'run',
  drawId: string,
  dbPath: string,
): Promise<TimedCommand> {
  const rssFile = join(deps.work, `peak-rss-${verb}-${drawId}.json`);
  const startedAt = Date.now();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', pathToFileURL(PEAK_RSS).href, ...command.argv(verb, drawId, dbPath)], {
    cwd: ROOT,
    env: { ...process.env, BENCH_PEAK_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // BENCH_DRAWS_NICE=N: the freeze at that scheduling priority, for what `ces draw freeze` would gain by lowering its own.
  if (deps.freezeNice !== null && verb === 'freeze') setPriority(child.pid!, deps.freezeNice);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`${command.name} ${verb} exited with ${code}: ${stderr.trim()}`));
      const { max_rss_kb } = JSON.parse(readFileSync(rssFile, 'utf8')) as { max_rss_kb: number };
      resolve({ seconds, rssMb: max_rss_kb / 1024, output: JSON.parse(stdout) as Record<string, unknown>, startedAt, endedAt: Date.now() });
    });
  });
}

let loadPhase = 0;

function intakeAtRate(deps: DrawsBenchDeps, ces: Child, seed: DrawSeed, durationS: number, signal?: AbortSignal): Promise<OpenLoopResult> {
  const n = ++loadPhase;
  const options = { tag: `draws-${n}-${Date.now().toString(36)}`, offset: 700_000_000 + n * 10_000_000, yymm: deps.yymm };
  return openLoop({
    url: ces.url,
    path: '/v1/entries',
    ratePerS: deps.ratePerS,
    durationS,
    signal,
    headers: { authorization: `Bearer ${seed.liveKey}` },
    next: (i) => {
      const { body, idempotencyKey } = entryRequest(i, options);
      return { body, headers: { 'idempotency-key': idempotencyKey } };
    },
  });
}

/** Requests of a load due in [from, to), or in the whole load. */
function slice(load: OpenLoopResult, from = 0, to = Number.POSITIVE_INFINITY): OpenLoopResult {
  return { requests: load.requests.filter((r) => r.dueAt >= from && r.dueAt < to), errors: load.errors };
}

interface Window {
  p50: number;
  p99: number;
  count: number;
  /** Answers other than 202, by status. */
  failed: Record<string, number>;
  /** Requests of the load that got no answer (a socket error or the client's 30 s timeout). */
  unanswered: number;
}

function windowOf(...loads: OpenLoopResult[]): Window {
  const requests = loads.flatMap((l) => l.requests);
  const { p50, p99, count } = latencyPercentiles(requests);
  const failed: Record<string, number> = {};
  for (const r of requests) if (r.status !== 202) failed[r.status] = (failed[r.status] ?? 0) + 1;
  return { p50, p99, count, failed, unanswered: loads.reduce((sum, l) => sum + l.errors, 0) };
}

/**
 * Intake at deps.ratePerS on the largest database: a warm-up, then idle / `ces draw freeze` in
 * another process / idle / a freeze in the server's own event loop / idle. A freeze window is the
 * requests due while the freeze ran; each is compared with the two idle windows around it, taken
 * together (this machine's load from other work drifts within minutes), each as long as the
 * freeze took on its own.
 */
async function measureIntakeDuringFreeze(
  deps: DrawsBenchDeps,
  command: DrawCommand,
  seed: DrawSeed,
  freezeSeconds: number,
  figures: Record<string, unknown>,
): Promise<void> {
  const at = label(seed.numbers);
  const cliDraw = createBenchDraw(seed, 'frozen by the CLI under intake');
  const serverDraw = createBenchDraw(seed, 'frozen by the server under intake');
  const lead = 2;
  const idleS = Math.max(10, Math.ceil(freezeSeconds));
  const starting = performance.now();
  const ces = await deps.startCes(seed.dbPath);
  // The first start on a file checks it (integrity_check, foreign_key_check); later starts do not.
  const startS = round((performance.now() - starting) / 1000, 1);
  Object.assign(figures, { draws_intake_rate_per_s: deps.ratePerS, draws_intake_db: at, [`draws_${at}_serve_start_s`]: startS });
  try {
    deps.progress(`draws: intake at ${deps.ratePerS}/s on the ${at} database; idle windows of ${idleS} s`);
    await intakeAtRate(deps, ces, seed, 5);
    const idle = async (): Promise<OpenLoopResult> => {
      const load = await intakeAtRate(deps, ces, seed, lead + idleS);
      return slice(load, Math.min(...load.requests.map((r) => r.dueAt)) + lead * 1000);
    };
    // The load runs until the freeze has ended (at most an hour), then stops.
    const during = async (freeze: () => Promise<{ seconds: number; startedAt: number; endedAt: number }>) => {
      const stop = new AbortController();
      const loading = intakeAtRate(deps, ces, seed, 3600, stop.signal);
      try {
        await new Promise((r) => setTimeout(r, lead * 1000));
        const f = await freeze();
        stop.abort();
        const all = await loading;
        if (process.env.BENCH_DRAWS_TRACE === '1') {
          const slow = all.requests
            .filter((r) => r.dueAt >= f.startedAt - 2000 && r.dueAt < f.endedAt + 2000)
            .sort((a, b) => b.answeredAt - b.dueAt - (a.answeredAt - a.dueAt))
            .slice(0, 40)
            .map((r) => `${((r.dueAt - f.startedAt) / 1000).toFixed(2)}s:${r.answeredAt - r.dueAt}ms`);
          deps.progress(`trace: freeze ${((f.endedAt - f.startedAt) / 1000).toFixed(2)} s; slowest: ${slow.join(' ')}`);
        }
        return { load: slice(all, f.startedAt, f.endedAt), freeze: f };
      } finally {
        stop.abort();
        await loading;
      }
    };

    const idle1 = await idle();
    const cli = await during(async () => {
      const r = await runCommand(deps, command, 'freeze', cliDraw, seed.dbPath);
      checkFrozen(seed, r.output);
      return r;
    });
    const idle2 = await idle();
    const server = await during(() => freezeInServer(ces, serverDraw, seed));
    const idle3 = await idle();
    const windows = {
      idle_before_cli_freeze: windowOf(idle1),
      cli_freeze: windowOf(cli.load),
      idle_between: windowOf(idle2),
      server_freeze: windowOf(server.load),
      idle_after_server_freeze: windowOf(idle3),
    };
    const idleAroundCli = windowOf(idle1, idle2);
    const idleAroundServer = windowOf(idle2, idle3);
    Object.assign(figures, {
      draws_intake_idle_p99_ms_around_cli_freeze: idleAroundCli.p99,
      draws_intake_p99_during_cli_freeze_ms: windows.cli_freeze.p99,
      draws_intake_p99_cli_freeze_ratio: round(windows.cli_freeze.p99 / Math.max(1, idleAroundCli.p99), 2),
      draws_cli_freeze_under_intake_s: round(cli.freeze.seconds, 2),
      draws_intake_idle_p99_ms_around_server_freeze: idleAroundServer.p99,
      draws_intake_p99_during_server_freeze_ms: windows.server_freeze.p99,
      draws_intake_p99_server_freeze_ratio: round(windows.server_freeze.p99 / Math.max(1, idleAroundServer.p99), 2),
      draws_server_freeze_under_intake_s: round(server.freeze.seconds, 2),
      draws_intake_windows: Object.fromEntries(
        Object.entries(windows).map(([k, w]) => [k, { p50: w.p50, p99: w.p99, requests: w.count, unanswered: w.unanswered }]),
      ),
    });
    const failed = Object.fromEntries(
      Object.entries(windows)
        .filter(([, w]) => Object.keys(w.failed).length > 0)
        .map(([k, w]) => [k, w.failed]),
    );
    // As in the webhook phases, a status other than 202 fails the run; a request left unanswered is
    // counted (it happens in idle windows too when this shared machine stalls).
    if (Object.keys(failed).length > 0) {
      figures.draws_intake_not_202 = failed;
      throw new Error(`intake requests not answered 202: ${JSON.stringify(failed)}`);
    }
  } finally {
    figures.draws_server_rss_mb_peak = round(ces.peakRssMb(), 1);
    await deps.stop(ces, 'draws_intake');
  }
}

/** Asks the server (bench/server-child.ts, over IPC) to freeze the draw in its own event loop. */
function freezeInServer(ces: Child, drawId: string, seed: DrawSeed): Promise<{ seconds: number; startedAt: number; endedAt: number }> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const on = (m: { type?: string; seconds?: number; draw?: Record<string, unknown>; error?: string }): void => {
      if (m.type !== 'draw-frozen') return;
      ces.process.off('message', on);
      if (m.error) return reject(new Error(`the server's freeze failed: ${m.error}`));
      try {
        checkFrozen(seed, m.draw!);
      } catch (error) {
        return reject(error as Error);
      }
      resolve({ seconds: m.seconds!, startedAt, endedAt: Date.now() });
    };
    ces.process.on('message', on);
    ces.process.send({ type: 'freeze-draw', drawId });
  });
}
