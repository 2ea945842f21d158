// npm run bench:anonymize [-- --mode internal|external] [-- --duration 30] [-- --rate 100]: does an
// anonymization stall intake beside Litestream? `ces serve` runs in a child process; this process
// sends entries at a steady open-loop rate and holds a read transaction open on the database for
// the whole run, as Litestream does to keep others from checkpointing past what it has copied.
// Halfway through, an anonymization runs in a process of its own, as `ces participant anonymize`
// does (bench/anonymize-child.ts). With CES_CHECKPOINTS=internal its wal_checkpoint(TRUNCATE)
// once waited for that reader, holding the write lock, until the busy timeout (10 s: intake
// stopped, issues 33 and 43); now it tries without waiting and says the erasure waits for readers
// (`erasure`); with external it does not checkpoint.
// Prints the intake latency before and during the anonymization, as JSON.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, spawnChild } from './children.ts';
import { cpf, createBenchCampaign, currentYymm, entryRequest } from './data.ts';
import { latencyPercentiles, openLoop } from './open-loop.ts';

const { values: flags } = parseArgs({ options: { mode: { type: 'string' }, duration: { type: 'string' }, rate: { type: 'string' } } });
const modes = flags.mode ? [flags.mode] : ['internal', 'external'];
const durationS = Number(flags.duration ?? 30);
const rate = Number(flags.rate ?? 100);

async function measure(mode: string): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-bench-anonymize-'));
  const dbPath = join(dir, 'ces.db');
  const env = { CES_CHECKPOINTS: mode };
  try {
    const campaign = createBenchCampaign(dbPath);
    const server = await spawnChild({
      script: join(ROOT, 'cli/ces.ts'),
      args: ['serve', '--db', dbPath, '--port', '0', '--log-format', 'json'],
      env: { ...env, CES_RATE_LIMIT_RPS: '0' },
    });
    // Litestream's read lock: a read transaction left open.
    const reader = new Database(dbPath, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM campaigns').get();
    const yymm = currentYymm(Date.now());
    // The anonymization's process, started now and told to go halfway (bench/anonymize-child.ts).
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench/anonymize-child.ts'), dbPath, campaign.campaignId, cpf(0)],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    await new Promise((resolve) => child.once('message', resolve));
    let anonymize: { startedAt: number; endedAt: number; error: string | null; erasure: string | null } | null = null;
    const anonymizeLater = new Promise<void>((resolve) => {
      child.once('message', (answer) => {
        anonymize = answer as typeof anonymize;
        resolve();
      });
      setTimeout(() => child.send('go'), (durationS * 1000) / 2);
    });
    const started = Date.now();
    const load = await openLoop({
      url: server.url,
      path: '/v1/entries',
      ratePerS: rate,
      durationS,
      headers: { authorization: `Bearer ${campaign.liveKey}` },
      next: (n) => {
        const r = entryRequest(n, { tag: `anon-${mode}`, offset: 0, yymm });
        return { body: r.body, headers: { 'idempotency-key': r.idempotencyKey } };
      },
    });
    await anonymizeLater;
    reader.exec('COMMIT');
    reader.close();
    const walBytes = statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    await server.stop();
    const a = anonymize as unknown as { startedAt: number; endedAt: number; error: string | null; erasure: string | null };
    // After a sixth of the run: the server's first seconds (JIT, caches) are not intake as it runs.
    const before = latencyPercentiles(load.requests, started + (durationS * 1000) / 6, a.startedAt);
    const during = latencyPercentiles(load.requests, a.startedAt, a.endedAt + 1000);
    const slowest = Math.max(...load.requests.map((r) => r.answeredAt - r.dueAt));
    return {
      mode,
      rate_per_s: rate,
      duration_s: durationS,
      anonymize_ms: a.endedAt - a.startedAt,
      anonymize_error: a.error ?? undefined,
      erasure: a.erasure ?? undefined,
      p50_ms_before: Math.round(before.p50),
      p99_ms_before: Math.round(before.p99),
      p50_ms_during: Math.round(during.p50),
      p99_ms_during: Math.round(during.p99),
      requests_during: during.count,
      slowest_ms: Math.round(slowest),
      not_202: load.requests.filter((r) => r.status !== 202).length + load.errors,
      // Each answer that was not a 202: its status and when it was due, in seconds from the start (anonymize at durationS / 2).
      not_202_at: load.requests.filter((r) => r.status !== 202).map((r) => `${r.status}@${((r.dueAt - started) / 1000).toFixed(1)}s`),
      wal_mib_at_end: Math.round((walBytes / 1024 / 1024) * 10) / 10,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const mode of modes) process.stdout.write(`${JSON.stringify(await measure(mode))}\n`);
