// Third parties that are slow or hostile (docs/api.md#fiscal-verifier-protocol,
// docs/operations.md#graceful-shutdown): a fiscal verifier that drips its answer, one that floods
// it, one that hangs while another campaign's answers; and `ces serve` stopped by SIGTERM while a
// verifier and a webhook endpoint both hang. Every partner is a real HTTPS server on 127.0.0.1 with
// the test certificate.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createCampaign } from '../../src/campaigns/campaigns.ts';
import { systemClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Ctx } from '../../src/kernel/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { issueKey } from '../../src/keys/keys.ts';
import { createSilentLogger } from '../../src/kernel/log.ts';
import { cryptoRandom } from '../../src/kernel/random.ts';
import { entryBody, makeCampaign, request, startTestServer, submitEntry } from '../support/harness.ts';
import { OPERATOR } from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';
import { spawnServe } from '../support/serve-process.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

/** An HTTPS partner whose answer the test chooses; counts the calls. */
async function partner(behave: Behaviour): Promise<{ url: string; calls: () => number; set: (b: Behaviour) => void }> {
  const tls = new URL('../fixtures/tls/', import.meta.url);
  let behaviour = behave;
  let calls = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer(
    { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
    (req, res) => {
      calls++;
      res.on('error', () => {});
      req.resume();
      req.on('end', () => behaviour(req, res));
    },
  );
  (server as Server & { timers?: Set<NodeJS.Timeout> }).timers = timers;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/verify`, calls: () => calls, set: (b) => (behaviour = b) };
}

/** Writes `chunk` every `everyMs` until the connection closes. */
const drip =
  (chunk: string, everyMs: number): Behaviour =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"valid":');
    const timer = setInterval(() => res.write(chunk), everyMs);
    res.on('close', () => clearInterval(timer));
  };
const hang: Behaviour = () => {};
const valid: Behaviour = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"valid":true}');

let idem = 0;
const jobOf = (ctx: Ctx, entryId: string) =>
  ctx.db.prepare(`SELECT attempts, last_error FROM jobs WHERE entry_id = ?`).get(entryId) as
    { attempts: number; last_error: string | null } | undefined;
const statusOf = (ctx: Ctx, entryId: string) =>
  (ctx.db.prepare(`SELECT status FROM entries WHERE id = ?`).get(entryId) as { status: string }).status;

test('a verifier that drips its answer is cut at CES_VERIFIER_TIMEOUT_MS, body included; the job is retried', async () => {
  const verifier = await partner(drip(' ', 50));
  const t = await startTestServer({ env: { CES_VERIFIER_TIMEOUT_MS: '600' } });
  cleanups.push(() => t.close());
  const w = makeCampaign(t.ctx, { fiscalVerifierUrl: verifier.url });
  const { entry_id } = await submitEntry(t, w.liveKey, entryBody({}, 1), `h-${++idem}`);
  const started = Date.now();
  const report = await t.tick();
  const took = Date.now() - started;
  assert.ok(took < 3_000, `the tick took ${took} ms`);
  assert.equal(report.verifierCalls, 1);
  assert.equal(report.jobsRetried, 1);
  assert.equal(statusOf(t.ctx, entry_id), 'PENDING');
  assert.match(jobOf(t.ctx, entry_id)?.last_error ?? '', /verifier unreachable: timed out/);
});

test('a verifier answer over 64 KiB is a failure, read no further than that', async () => {
  // 1 MiB a write, without end: read whole, it would grow until the timeout.
  const verifier = await partner(drip('0'.repeat(1024 * 1024), 1));
  const t = await startTestServer({ env: { CES_VERIFIER_TIMEOUT_MS: '20000' } });
  cleanups.push(() => t.close());
  const w = makeCampaign(t.ctx, { fiscalVerifierUrl: verifier.url });
  const { entry_id } = await submitEntry(t, w.liveKey, entryBody({}, 2), `h-${++idem}`);
  const rss = process.memoryUsage.rss();
  const started = Date.now();
  const report = await t.tick();
  assert.ok(Date.now() - started < 5_000, `the tick took ${Date.now() - started} ms`);
  assert.equal(report.jobsRetried, 1);
  assert.match(jobOf(t.ctx, entry_id)?.last_error ?? '', /verifier answered more than 64 KiB/);
  assert.ok(process.memoryUsage.rss() - rss < 64 * 1024 * 1024, 'memory did not grow with the answer');
});

test('one campaign’s hanging verifier does not hold back another campaign’s verdict in the same chunk', async () => {
  const slow = await partner(hang);
  const fast = await partner(valid);
  const t = await startTestServer({ tick: true, env: { CES_TICK_MS: '50', CES_VERIFIER_TIMEOUT_MS: '60000' } });
  cleanups.push(() => t.close());
  const a = makeCampaign(t.ctx, { fiscalVerifierUrl: slow.url });
  const b = makeCampaign(t.ctx, { fiscalVerifierUrl: fast.url });
  // Both accepted before the tick looks (it runs every 50 ms): one chunk holds both jobs.
  const [ea, eb] = await Promise.all([
    submitEntry(t, a.liveKey, entryBody({}, 3), `h-${++idem}`),
    submitEntry(t, b.liveKey, entryBody({}, 4), `h-${++idem}`),
  ]);
  const deadline = Date.now() + 5_000;
  while (statusOf(t.ctx, eb.entry_id) === 'PENDING' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.equal(statusOf(t.ctx, eb.entry_id), 'APPROVED', 'B decided while A’s call hangs');
  assert.equal(slow.calls(), 1);
  assert.equal(statusOf(t.ctx, ea.entry_id), 'PENDING');
});

test('a campaign has at most 64 verifier calls in flight: past that its jobs wait, and another campaign still gets its verdict', async () => {
  const slow = await partner(hang);
  const fast = await partner(valid);
  const t = await startTestServer({ tick: true, env: { CES_TICK_MS: '50', CES_VERIFIER_TIMEOUT_MS: '60000', CES_RATE_LIMIT_RPS: '0' } });
  cleanups.push(() => t.close());
  const a = makeCampaign(t.ctx, { fiscalVerifierUrl: slow.url });
  const b = makeCampaign(t.ctx, { fiscalVerifierUrl: fast.url });
  for (let i = 0; i < 80; i++) await submitEntry(t, a.liveKey, entryBody({}, 100 + i), `h-${++idem}`);
  const deadline = Date.now() + 10_000;
  while (slow.calls() < 64 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  const eb = await submitEntry(t, b.liveKey, entryBody({}, 200), `h-${++idem}`);
  while (statusOf(t.ctx, eb.entry_id) === 'PENDING' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.equal(statusOf(t.ctx, eb.entry_id), 'APPROVED', 'B decided while A holds its 64 calls');
  // A few more ticks: A's other 16 jobs are deferred, not called.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(slow.calls(), 64);
});

test('SIGTERM with a hanging verifier and a hanging webhook endpoint: ces serve exits 0 within CES_SHUTDOWN_TIMEOUT_MS; the next start calls both again', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'ces-hostile-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const verifier = await partner(hang);
  const receiver = await startReceiver({ respond: () => ({ status: 200, delayMs: 120_000 }) });
  cleanups.push(() => receiver.close());
  const dbPath = join(dir, 'ces.db');
  const db = openDatabase(dbPath);
  const ctx: Ctx = { db, clock: systemClock, random: cryptoRandom, config: loadConfig({ db: dbPath }, {}), log: createSilentLogger() };
  const campaign = createCampaign(ctx, { name: 'Hostile', fiscalVerifierUrl: verifier.url }, OPERATOR);
  const key = issueKey(ctx, { campaignId: campaign.id, mode: 'live' }, OPERATOR).key;
  db.close();

  const env = { CES_SHUTDOWN_TIMEOUT_MS: '1000', CES_VERIFIER_TIMEOUT_MS: '120000', CES_WEBHOOK_TIMEOUT_MS: '120000' };
  const first = await spawnServe({ dbPath, env });
  assert.equal((await request(first.url, 'PATCH', '/v1/webhook', { key, body: { endpoint_url: receiver.url } })).status, 201);
  const res = await request(first.url, 'POST', '/v1/entries', { key, idempotencyKey: 'hostile-1', body: entryBody({}, 5) });
  assert.equal(res.status, 202, res.text);
  const waitFor = async (what: string, done: () => boolean): Promise<void> => {
    const until = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await waitFor('the verifier call and the entry.received attempt', () => verifier.calls() === 1 && receiver.requests.length === 1);
  const stoppedAt = Date.now();
  first.child.kill('SIGTERM');
  const exit = await first.exited;
  const took = Date.now() - stoppedAt;
  assert.deepEqual(exit, { code: 0, signal: null });
  assert.ok(took < 4_000, `exited ${took} ms after SIGTERM`);
  assert.match(first.output(), /outgoing calls still in flight after 1000 ms are abandoned/);

  // Nothing was lost: the next start asks the verifier again and sends the event again, same id.
  const second = await spawnServe({ dbPath, env });
  cleanups.push(async () => {
    second.child.kill('SIGKILL');
    await second.exited;
  });
  await waitFor('the second verifier call and the second attempt', () => verifier.calls() === 2 && receiver.requests.length === 2);
  assert.equal(receiver.requests[1].headers['webhook-id'], receiver.requests[0].headers['webhook-id']);
});
