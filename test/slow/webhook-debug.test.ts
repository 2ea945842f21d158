// Webhook debugging from the CLI: `ces webhook test` sends one signed ping now and prints the
// attempt; `ces webhook deliveries` shows body excerpts and response codes. Real HTTPS receiver
// (standardwebhooks verification), real CLI process on the server's database file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { assert as assertStruct } from 'superstruct';
import { PingEventStruct } from '../../src/openapi/schemas.ts';
import { releaseStaleLeases } from '../../src/pipeline/tick.ts';
import { configureWebhook, drainAll, makeCampaign, runCli, startTestServer, type TestServer } from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});
const ENV = { CES_ALLOW_PRIVATE_WEBHOOKS: '1' };

async function setup(status: number): Promise<{ t: TestServer; receiver: Receiver; campaignId: string; liveKey: string }> {
  const t = await startTestServer();
  const receiver = await startReceiver({ respond: () => status });
  cleanups.push(
    () => t.close(),
    () => receiver.close(),
  );
  const w = makeCampaign(t.ctx);
  receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
  return { t, receiver, campaignId: w.campaign.id, liveKey: w.liveKey };
}

describe('ces webhook test', () => {
  test('NODE_TLS_REJECT_UNAUTHORIZED=0 does not turn certificate checks off: an untrusted receiver is refused, and the operator is told', async () => {
    const s = await setup(200);
    // The receiver's certificate is signed by the test CA; this CLI process is not given that CA.
    // A real process: Node reads both variables when it starts.
    const env = { ...ENV, NODE_EXTRA_CA_CERTS: '', NODE_TLS_REJECT_UNAUTHORIZED: '0' };
    const res = await runCli(['webhook', 'test', '--campaign', s.campaignId, '--json'], { dbPath: s.t.dbPath, env, process: true });
    assert.equal(res.code, 1, res.stdout);
    assert.equal(res.json.attempt.result, 'failed');
    assert.match(res.json.attempt.error, /certificate|UNABLE_TO_VERIFY/i);
    assert.equal(s.receiver.requests.length, 0, 'nothing reached the receiver');
    assert.match(res.stderr, /NODE_TLS_REJECT_UNAUTHORIZED is ignored: certificates are always checked/);
  });

  test('sends one signed ping with the event envelope and prints the attempt; deliveries shows it with excerpts', async () => {
    const s = await setup(200);
    const res = await runCli(['webhook', 'test', '--campaign', s.campaignId, '--json'], { dbPath: s.t.dbPath, env: ENV });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(s.receiver.requests.length, 1);
    const ping = s.receiver.requests[0];
    assert.equal(ping.verified, true, ping.verifyError ?? '');
    assertStruct(ping.json, PingEventStruct);
    assert.deepEqual([ping.json.event_type, ping.json.livemode, ping.json.campaign_id], ['ping', false, s.campaignId]);
    assert.equal(ping.headers['webhook-id'], ping.json.id);
    assert.deepEqual(
      { ...res.json, latency_ms: typeof res.json.latency_ms, attempted_at: typeof res.json.attempted_at },
      {
        delivery_id: ping.json.id,
        url: s.receiver.url,
        result: 'delivered',
        status_code: 200,
        latency_ms: 'number',
        error: null,
        response_excerpt: '200',
        attempted_at: 'string',
      },
    );

    const list = await runCli(['webhook', 'deliveries', '--campaign', s.campaignId, '--json'], { dbPath: s.t.dbPath });
    assert.equal(list.code, 0, list.stderr);
    const row = list.json.find((d: { id: string }) => d.id === ping.json.id);
    assert.deepEqual(
      [row.event_type, row.status, row.attempts, row.last_status_code, row.last_response_excerpt],
      ['ping', 'delivered', 1, 200, '200'],
    );
    assert.ok(ping.body.length > 200);
    assert.equal(row.body_excerpt, `${ping.body.slice(0, 200)}…`, 'the first 200 characters of the body sent');

    const text = await runCli(['webhook', 'deliveries', '--campaign', s.campaignId], { dbPath: s.t.dbPath });
    assert.match(text.stdout, /BODY\s+RESPONSE/);
    assert.match(text.stdout, new RegExp(`${ping.json.id}\\s+ping\\s+-\\s+delivered\\s+1\\s+200\\s.*\\{"id":"evt_`));

    // The ping was sent synchronously and is settled: no tick sends it again.
    assert.equal((await s.t.server.tick()).deliveriesAttempted, 0);
  });

  test('a failing endpoint: exit 1, the status and error printed, one attempt, never retried', async () => {
    const s = await setup(503);
    const res = await runCli(['webhook', 'test', '--campaign', s.campaignId, '--mode', 'live'], { dbPath: s.t.dbPath, env: ENV });
    assert.equal(res.code, 1);
    assert.match(res.stdout, /result\s+failed/);
    assert.match(res.stdout, /status_code\s+503/);
    assert.match(res.stdout, /error\s+HTTP 503/);
    assert.match(res.stdout, /latency_ms\s+\d+/);
    assert.equal(res.stderr, 'ces: ping failed: HTTP 503\n');
    assert.equal(s.receiver.requests.length, 1);
    assert.equal(s.receiver.requests[0].json.livemode, true);
    s.t.clock.advance(86_400_000);
    assert.equal((await s.t.server.tick()).deliveriesAttempted, 0);
    assert.equal(s.receiver.requests.length, 1);
  });

  test('a connection error names its cause (ECONNREFUSED), not just "fetch failed"', async () => {
    const s = await setup(200);
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    assert.equal(
      (await s.t.request('PATCH', '/v1/webhook', { key: s.liveKey, body: { endpoint_url: `https://127.0.0.1:${port}/hooks` } })).status,
      200,
    );
    const res = await runCli(['webhook', 'test', '--campaign', s.campaignId, '--json'], { dbPath: s.t.dbPath, env: ENV });
    assert.equal(res.code, 1);
    // A failure with --json prints {"error": {code, message}}; the attempt is beside it.
    assert.deepEqual(Object.keys(res.json), ['error', 'attempt']);
    assert.deepEqual(res.json.error, { code: 'ping_failed', message: `ping failed: ${res.json.attempt.error}` });
    assert.deepEqual([res.json.attempt.result, res.json.attempt.status_code], ['failed', null]);
    assert.match(res.json.attempt.error, new RegExp(`^ECONNREFUSED \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`));
    assert.equal(res.stderr, `ces: ${res.json.error.message}\n`);
  });

  test('a paused configuration records the ping as skipped and sends nothing; no configuration is not_found', async () => {
    const s = await setup(200);
    assert.equal((await s.t.request('PATCH', '/v1/webhook', { key: s.liveKey, body: { is_active: false } })).status, 200);
    const paused = await runCli(['webhook', 'test', '--campaign', s.campaignId, '--json'], { dbPath: s.t.dbPath, env: ENV });
    assert.equal(paused.code, 1);
    assert.deepEqual(paused.json.error, { code: 'ping_skipped', message: 'ping skipped: delivery paused (is_active false)' });
    assert.equal(paused.json.attempt.result, 'skipped');
    assert.match(paused.json.attempt.error, /paused/);
    assert.equal(s.receiver.requests.length, 0);

    const bare = makeCampaign(s.t.ctx);
    const none = await runCli(['webhook', 'test', '--campaign', bare.campaign.id, '--json'], { dbPath: s.t.dbPath, env: ENV });
    assert.deepEqual([none.code, none.json.error.code], [1, 'not_found']);
  });

  // Found by the outbox property test: the server's tick took a killed ping over and retried it.
  test('a ping whose ces webhook test is killed waiting for the answer is never sent again: not on restart, not when its lease expires', async () => {
    const t = await startTestServer();
    const receiver = await startReceiver({ respond: () => ({ status: 200, delayMs: 120_000 }) });
    cleanups.push(
      () => t.close(),
      () => receiver.close(),
    );
    const w = makeCampaign(t.ctx);
    receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
    const cli = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('../../cli/ces.ts', import.meta.url)),
        'webhook',
        'test',
        '--campaign',
        w.campaign.id,
        '--db',
        t.dbPath,
      ],
      { env: { ...process.env, ...ENV }, stdio: 'ignore' },
    );
    const exited = once(cli, 'exit');
    await receiver.waitFor((r) => r.length === 1, 30_000);
    cli.kill('SIGKILL');
    await exited;
    const pingId: string = receiver.requests[0].json.id;
    const row = () =>
      t.ctx.db.prepare('SELECT status, attempts, locked_until, last_error FROM webhook_deliveries WHERE id = ?').get(pingId) as {
        status: string;
        attempts: number;
        locked_until: string | null;
        last_error: string | null;
      };

    // A server starting now keeps the ping's lease: a ces webhook test may still be waiting on it.
    releaseStaleLeases(t.ctx);
    assert.deepEqual([row().status, row().attempts, row().locked_until !== null], ['pending', 1, true]);
    assert.equal((await t.tick()).deliveriesAttempted, 0);

    // Its lease expired: settled as failed, not sent again.
    t.clock.set(Date.parse(row().locked_until!) + 1);
    await drainAll(t);
    assert.equal(receiver.requests.length, 1, 'the ping was sent once');
    assert.deepEqual([row().status, row().attempts, row().locked_until], ['failed', 1, null]);
    assert.match(row().last_error!, /interrupted before its outcome was recorded/);
  });

  test('a failed ping redelivered by the operator is sent once by the tick and, failing again, not retried', async () => {
    const s = await setup(503);
    const ping = await runCli(['webhook', 'test', '--campaign', s.campaignId, '--json'], { dbPath: s.t.dbPath, env: ENV });
    assert.equal(ping.json.attempt.result, 'failed');
    const again = await runCli(['webhook', 'redeliver', ping.json.attempt.delivery_id, '--json'], { dbPath: s.t.dbPath });
    assert.equal(again.code, 0, again.stderr);
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, 2);
    const row = s.t.ctx.db
      .prepare('SELECT status, attempts, next_attempt_at FROM webhook_deliveries WHERE id = ?')
      .get(ping.json.attempt.delivery_id);
    assert.deepEqual(row, { status: 'failed', attempts: 1, next_attempt_at: null });
  });
});
