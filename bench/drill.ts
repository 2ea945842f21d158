// npm run drill -- [--runs N] [--mode external|internal] [--seed S] [--rate R] [--kill-min MS]
// [--kill-max MS] [--bundle dist/ces.mjs] [--json] | npm run drill -- --latency [--window S] [--json]
//
// The disaster-recovery drill of issue 33 repeated for measurement (test/support/litestream-drill.ts:
// ces serve under Litestream, both SIGKILLed at a seeded random moment, the data folder deleted,
// `litestream restore`). Reports corrupt restores (ces check fails), replicas with a WAL
// continuity gap, the oldest lost acknowledgement relative to the kill, and restore times.
// --latency instead measures intake p99 at 100 entries/s for ces alone against ces
// (CES_CHECKPOINTS=external) under Litestream, in one run, and `ces participant anonymize` under
// Litestream: p99 of the requests due while it runs against the idle p99 before it.
// --bundle runs `ces serve` from a built bundle (npm run build) instead of the sources through tsx:
// each run starts ces twice, and that is most of a run's time on a busy machine.
// Needs the optional dependency @flydotio/litestream-linux-x64 (linux-x64). Traffic to 127.0.0.1 only.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchCampaign, cpf, currentYymm, entryRequest, type BenchCampaign } from './data.ts';
import { latencyPercentiles, openLoop, percentile, type OpenLoopResult } from './open-loop.ts';
import { runCli } from '../test/support/harness.ts';
import { runDrill, type CheckpointMode, type DrillResult } from '../test/support/litestream-drill.ts';
import { findLitestream, killLitestream, startLitestream, writeLitestreamConfig } from '../test/support/litestream.ts';
import { killServe, spawnServe, type ServeProcess } from '../test/support/serve-process.ts';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string' },
    mode: { type: 'string' },
    seed: { type: 'string' },
    rate: { type: 'string' },
    'kill-min': { type: 'string' },
    'kill-max': { type: 'string' },
    latency: { type: 'boolean' },
    bundle: { type: 'string' },
    window: { type: 'string' },
    json: { type: 'boolean' },
  },
});

const progress = (line: string): void => {
  process.stderr.write(`[drill] ${line}\n`);
};
const round = (x: number): number => Math.round(x);

function positive(name: string, value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}

const found = findLitestream();
if ('skip' in found) {
  process.stderr.write(`drill: ${found.skip}\n`);
  process.exit(1);
}
const binary = found.path;
const bundle = flags.bundle === undefined ? undefined : resolve(flags.bundle);
if (bundle !== undefined && !existsSync(bundle)) throw new Error(`--bundle ${bundle} does not exist: npm run build writes dist/ces.mjs`);

if (flags.latency) await measureLatency(positive('window', flags.window, 30));
else await repeatDrill();

async function repeatDrill(): Promise<void> {
  const mode = (flags.mode ?? 'external') as CheckpointMode;
  if (mode !== 'external' && mode !== 'internal') throw new Error('--mode must be external or internal');
  const runs = positive('runs', flags.runs, 10);
  const firstSeed = positive('seed', flags.seed, 1);
  const ratePerS = positive('rate', flags.rate, 100);
  const killWindowMs: [number, number] = [positive('kill-min', flags['kill-min'], 4_000), positive('kill-max', flags['kill-max'], 15_000)];
  const results: DrillResult[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await runDrill({ binary, mode, seed: firstSeed + i, ratePerS, killWindowMs, keep: true, bundle });
    results.push(r);
    const bad = !r.checkPassed || !r.continuity.ok || r.lostBeyondPromise > 0 || !r.servedAfterRestore || r.errors.length > 0;
    progress(
      `run ${i + 1}/${runs} seed ${r.seed}: kill at ${r.killAfterMs} ms, ${r.acknowledged} acked, ${r.lost} lost ` +
        `(oldest ${r.oldestLostMs ?? '-'} ms), check ${r.checkPassed ? 'ok' : 'FAILED'}, continuity ${r.continuity.ok ? 'ok' : 'GAP'} ` +
        `(${r.continuity.indexes.length} indexes), restore ${round(r.restoreMs ?? -1)} ms, served ${r.servedAfterRestore}` +
        (r.errors.length > 0 ? `, errors: ${r.errors.join('; ')}` : '') +
        (bad ? ` (kept: ${r.dir})` : ''),
    );
    if (!bad && r.dir) rmSync(r.dir, { recursive: true, force: true });
  }
  const restoreTimes = results.flatMap((r) => (r.restoreMs === null ? [] : [r.restoreMs])).sort((a, b) => a - b);
  const lostMs = results.flatMap((r) => (r.oldestLostMs === null ? [] : [r.oldestLostMs]));
  const summary = {
    mode,
    runs,
    rate_per_s: ratePerS,
    kill_window_ms: killWindowMs,
    seeds: `${firstSeed}..${firstSeed + runs - 1}`,
    ces: bundle ?? 'sources (tsx)',
    corrupt_restores: results.filter((r) => !r.checkPassed).length,
    continuity_gaps: results.filter((r) => !r.continuity.ok).length,
    salt1_steps: results.flatMap((r) => r.continuity.gaps.map((g) => g.salt1Step)),
    broken_promises: results.filter((r) => r.lostBeyondPromise > 0).length,
    oldest_lost_ms: lostMs.length === 0 ? null : Math.max(...lostMs),
    acknowledged_total: results.reduce((n, r) => n + r.acknowledged, 0),
    lost_total: results.reduce((n, r) => n + r.lost, 0),
    restore_ms: {
      min: round(restoreTimes[0] ?? 0),
      p50: round(percentile(restoreTimes, 0.5)),
      max: round(restoreTimes.at(-1) ?? 0),
    },
    not_served_after_restore: results.filter((r) => !r.servedAfterRestore).length,
    failed_restores: results.filter((r) => r.restoreMs === null).length,
  };
  process.stdout.write(flags.json ? `${JSON.stringify(summary)}\n` : `${formatTable(summary)}\n`);
}

async function measureLatency(windowS: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'ces-drill-latency-'));
  const ratePerS = 100;
  const warmupS = 5;
  const yymm = currentYymm(Date.now());
  const load = (server: ServeProcess, campaign: BenchCampaign, tag: string, durationS: number): Promise<OpenLoopResult> =>
    openLoop({
      url: server.url,
      path: '/v1/entries',
      ratePerS,
      durationS,
      headers: { authorization: `Bearer ${campaign.liveKey}` },
      next: (n) => {
        const { body, idempotencyKey } = entryRequest(n, { tag, offset: tag === 'anonymize' ? 10_000_000 : 0, yymm });
        return { body, headers: { 'idempotency-key': idempotencyKey } };
      },
    });
  const steady = (result: OpenLoopResult): { p50: number; p99: number; count: number; not_202: Record<string, number> } => {
    const from = Math.min(...result.requests.map((r) => r.dueAt)) + warmupS * 1000;
    return { ...latencyPercentiles(result.requests, from), not_202: not202(result) };
  };
  const out: Record<string, unknown> = { rate_per_s: ratePerS, window_s: windowS };
  try {
    // ces alone, its default checkpointing.
    {
      const dbPath = join(work, 'alone', 'ces.db');
      mkdirSync(join(work, 'alone'), { mode: 0o700 });
      const campaign = createBenchCampaign(dbPath);
      const server = await spawnServe({ dbPath, tickMs: 200, bundle });
      try {
        progress(`ces alone: ${warmupS + windowS} s at ${ratePerS}/s`);
        out.alone = steady(await load(server, campaign, 'alone', warmupS + windowS));
      } finally {
        await stop(server);
      }
    }
    // ces in external mode under Litestream (file replica), then anonymize under the same load.
    {
      const dataDir = join(work, 'litestream');
      mkdirSync(dataDir, { mode: 0o700 });
      const dbPath = join(dataDir, 'ces.db');
      const configPath = join(work, 'litestream.yml');
      writeLitestreamConfig(configPath, dbPath, join(work, 'replica'));
      const campaign = createBenchCampaign(dbPath);
      const env = { CES_CHECKPOINTS: 'external' };
      const litestream = await startLitestream(binary, configPath);
      const server = await spawnServe({ dbPath, tickMs: 200, env, bundle });
      try {
        progress(`ces (external) under Litestream: ${warmupS + windowS} s at ${ratePerS}/s`);
        out.litestream_external = steady(await load(server, campaign, 'litestream', warmupS + windowS));
        // Anonymize a participant of the run above 10 s into a further run of the same load.
        const anonymizeLoad = load(server, campaign, 'anonymize', 20);
        await new Promise((resolve) => setTimeout(resolve, 10_000));
        const startedAt = Date.now();
        const args = ['participant', 'anonymize', '--campaign', campaign.campaignId, '--document', cpf(0), '--reason', 'drill', '--json'];
        const cli = bundle ? await runBundle(bundle, [...args, '--db', dbPath], env) : await runCli(args, { dbPath, env, process: true });
        const endedAt = Date.now();
        const result = await anonymizeLoad;
        const first = Math.min(...result.requests.map((r) => r.dueAt));
        out.anonymize = {
          exit_code: cli.code,
          ms: endedAt - startedAt,
          // Idle: the seconds before it (after a 2 s start); during: from its start to 1 s after it ended.
          idle: latencyPercentiles(result.requests, first + 2_000, startedAt),
          during: latencyPercentiles(result.requests, startedAt, endedAt + 1_000),
          not_202: not202(result),
        };
        if (cli.code !== 0) progress(`anonymize failed: ${cli.stderr}`);
      } finally {
        await stop(server);
        await killLitestream(litestream);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(flags.json ? `${JSON.stringify(out)}\n` : `${JSON.stringify(out, null, 2)}\n`);
}

/** Answers other than 202 by status, and requests that got no answer ("error"). */
function not202(result: OpenLoopResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of result.requests) if (r.status !== 202) counts[r.status] = (counts[r.status] ?? 0) + 1;
  if (result.errors > 0) counts.error = result.errors;
  return counts;
}

/** `node BUNDLE ARGS…` as the operator's CLI would run: its exit status and output. */
function runBundle(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function stop(server: ServeProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  await killServe(server);
}

function formatTable(summary: Record<string, unknown>): string {
  return Object.entries(summary)
    .map(([k, v]) => `${k.padEnd(26)}${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}
