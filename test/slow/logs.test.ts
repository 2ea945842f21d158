// Request logs and X-Request-Id through the real server with a logger that writes into memory:
// one line per request with method, route pattern, status, latency, campaign and request id;
// the client's id echoed only when sane, otherwise generated, and always returned; no API key,
// Authorization header, webhook secret or metrics token ever reaches the log.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { ManualClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { createLogger } from '../../src/kernel/log.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { startServer, type RunningServer } from '../../src/http/server.ts';
import { entryBody, makeCampaign, rawRequest, request, type TestResponse } from '../support/harness.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Logged {
  server: RunningServer;
  lines: string[];
  /** Parsed JSON records of request lines. */
  requests(): Array<Record<string, unknown>>;
  call(method: string, path: string, options?: Parameters<typeof request>[3]): Promise<TestResponse>;
}

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function loggedServer(format: 'json' | 'pretty', env: Record<string, string> = {}): Promise<Logged> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-logs-'));
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  const config = loadConfig(
    { db: join(dir, 'ces.db'), port: 0, host: '127.0.0.1', logFormat: format },
    { CES_ALLOW_PRIVATE_WEBHOOKS: '1', ...env },
    false,
  );
  const server = await startServer(config, createLogger(format, sink), { clock: new ManualClock(), random: seededRandom(7), tick: false });
  cleanups.push(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    server,
    lines,
    requests: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.message === 'request'),
    call: (method, path, options) => request(server.url, method, path, options),
  };
}

describe('request logs', () => {
  test('one JSON line per request: method, route pattern, path, status, latency, campaign, mode and request id', async () => {
    const s = await loggedServer('json');
    const w = makeCampaign(s.server.service.ctx);
    const created = await s.call('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'l-1', body: entryBody({}, 1) });
    assert.equal(created.status, 202);
    const read = await s.call('GET', `/v1/entries/${created.body.entry_id}`, { key: w.liveKey });
    const anonymous = await s.call('GET', '/v1/prizes');
    const unknown = await s.call('GET', '/nowhere');
    const records = s.requests();
    assert.equal(records.length, 4, s.lines.join('\n'));
    const [post, get, unauth, missing] = records;
    assert.deepEqual(
      { ...post, time: undefined, latency_ms: undefined },
      {
        time: undefined,
        level: 'info',
        message: 'request',
        method: 'POST',
        route: '/v1/entries',
        path: '/v1/entries',
        status: 202,
        latency_ms: undefined,
        campaign_id: w.campaign.id,
        mode: 'live',
        request_id: created.headers.get('x-request-id'),
        client_address: '127.0.0.1',
      },
    );
    assert.equal(typeof post.latency_ms, 'number');
    assert.ok((post.latency_ms as number) >= 0);
    assert.equal(get.route, '/v1/entries/:entry_id');
    assert.equal(get.path, `/v1/entries/${created.body.entry_id}`);
    assert.equal(get.request_id, read.headers.get('x-request-id'));
    assert.deepEqual([unauth.status, unauth.campaign_id, unauth.route], [401, null, '/v1/prizes']);
    assert.equal(unauth.request_id, anonymous.headers.get('x-request-id'));
    assert.deepEqual([missing.status, missing.route, missing.client_address], [404, 'unmatched', '127.0.0.1']);
    assert.equal(missing.request_id, unknown.headers.get('x-request-id'));
  });

  test('X-Request-Id: a sane client id is echoed; absent, too long or odd ones are replaced by a generated id', async () => {
    const s = await loggedServer('json');
    const cases: Array<[string | undefined, boolean]> = [
      ['abc-123_X.y', true],
      ['r'.repeat(128), true],
      ['r'.repeat(129), false],
      ['has space', false],
      ['semi;colon', false],
      ['a/b', false],
      ['', false],
      [undefined, false],
    ];
    const seen = new Set<string>();
    for (const [sent, echoed] of cases) {
      const res = await s.call('GET', '/healthz', { headers: sent === undefined ? {} : { 'x-request-id': sent } });
      const id = res.headers.get('x-request-id');
      assert.ok(id, 'always returned');
      if (echoed) assert.equal(id, sent);
      else assert.match(id, UUID, `replaced ${JSON.stringify(sent)}`);
      assert.ok(!seen.has(id), 'generated ids are unique');
      seen.add(id);
      assert.equal(s.requests().at(-1)!.request_id, id);
    }
    // Errors carry it too, including problem+json from the authenticating wrapper.
    const denied = await s.call('GET', '/v1/webhook', { key: 'service_live_nope', headers: { 'x-request-id': 'trace-42' } });
    assert.equal(denied.status, 401);
    assert.equal(denied.headers.get('x-request-id'), 'trace-42');
  });

  test('a malformed URL (bad percent-encoding) is answered with its X-Request-Id, logged and counted', async () => {
    const s = await loggedServer('json');
    const res = await rawRequest(s.server.url, ['GET /v1/entries/%zz HTTP/1.1', 'Host: ces', 'X-Request-Id: probe-400']);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.headers['x-request-id'], 'probe-400');
    const line = s.requests().find((r) => r.request_id === 'probe-400');
    assert.equal(line?.status, 400);
    const metrics = await s.call('GET', '/metrics');
    assert.match(metrics.text, /ces_http_requests_total\{route="unmatched",method="GET",status="400"\} 1/);
  });

  test('a client that hangs up mid-body is logged as 499 (client closed request), not as a server error', async () => {
    const s = await loggedServer('json');
    const w = makeCampaign(s.server.service.ctx);
    const head = [
      'POST /v1/entries HTTP/1.1',
      'Host: ces',
      `Authorization: Bearer ${w.liveKey}`,
      'Content-Type: application/json',
      'Idempotency-Key: gone-1',
      'X-Request-Id: probe-499',
    ];
    // Content-Length says 200 bytes; 10 are sent, then the connection is closed.
    const socket = connect(Number(new URL(s.server.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write([...head, 'Content-Length: 200', '', '{"enrollm'].join('\r\n'));
    // Hang up once the server is reading the body (the key is held while it is read).
    while (s.server.service.inflight.size === 0) await new Promise((resolve) => setImmediate(resolve));
    socket.destroy();
    const logged = () => s.requests().find((r) => r.request_id === 'probe-499');
    for (let i = 0; i < 200 && !logged(); i++) await new Promise((r) => setImmediate(r));
    assert.equal(logged()?.status, 499);
    assert.equal(s.lines.filter((l) => /"level":"error"|internal_error|aborted/.test(l)).length, 0, s.lines.join('\n'));
    const metrics = await s.call('GET', '/metrics');
    assert.match(metrics.text, /ces_http_requests_total\{route="\/v1\/entries",method="POST",status="499"\} 1/);
    assert.doesNotMatch(metrics.text, /status="500"/);
    assert.equal(s.server.service.ctx.db.prepare('SELECT count(*) AS n FROM entries').pluck().get(), 0);
  });

  test('a client that stalls mid-body until the server closes it is logged as 408 (the server timed it out), not 499', async () => {
    const s = await loggedServer('json', { CES_REQUEST_TIMEOUT_MS: '300' });
    const w = makeCampaign(s.server.service.ctx);
    const head = [
      'POST /v1/entries HTTP/1.1',
      'Host: ces',
      `Authorization: Bearer ${w.liveKey}`,
      'Content-Type: application/json',
      'Idempotency-Key: stalled-1',
      'X-Request-Id: probe-408',
    ];
    const socket = connect(Number(new URL(s.server.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    // Content-Length says 200 bytes; 10 are sent, then nothing: the client neither sends nor hangs up.
    socket.write([...head, 'Content-Length: 200', '', '{"enrollm'].join('\r\n'));
    await closed;
    assert.equal(answer, '', 'the connection is closed without an answer');
    const logged = () => s.requests().find((r) => r.request_id === 'probe-408');
    for (let i = 0; i < 200 && !logged(); i++) await new Promise((r) => setImmediate(r));
    assert.equal(logged()?.status, 408);
    assert.equal(s.lines.filter((l) => /"level":"error"|internal_error/.test(l)).length, 0, s.lines.join('\n'));
    const metrics = await s.call('GET', '/metrics');
    assert.match(metrics.text, /ces_http_requests_total\{route="\/v1\/entries",method="POST",status="408"\} 1/);
    assert.doesNotMatch(metrics.text, /status="499"/);
    assert.equal(s.server.service.ctx.db.prepare('SELECT count(*) AS n FROM entries').pluck().get(), 0);
  });

  test('API keys, Authorization, webhook secrets and the metrics token never reach the log', async () => {
    const s = await loggedServer('json', { CES_METRICS_TOKEN: 'metrics-token-xyz' });
    const w = makeCampaign(s.server.service.ctx);
    const forged = `service_live_${'A'.repeat(43)}`;
    const created = await s.call('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://example.com/hooks' } });
    assert.equal(created.status, 201);
    const secret = created.body.hmac_secret as string;
    assert.match(secret, /^whsec_/);
    await s.call('GET', '/v1/webhook', { key: w.testKey });
    await s.call('POST', '/v1/entries', { key: w.testKey, idempotencyKey: 'sec-1', body: entryBody({}, 2) });
    await s.call('POST', '/v1/entries', { key: forged, idempotencyKey: 'sec-2', body: entryBody({}, 3) });
    await s.call('GET', `/v1/entries/${w.liveKey}`, { key: w.liveKey }); // a key pasted into the path is redacted
    await s.call('GET', `/v1/x/${encodeURIComponent(secret)}/y`);
    await s.call('GET', '/metrics', { headers: { authorization: 'Bearer metrics-token-xyz' } });
    await s.call('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token' } });
    await s.call('GET', '/healthz?token=query-secret');
    const text = s.lines.join('\n');
    assert.ok(s.requests().length >= 8);
    for (const needle of [
      w.liveKey,
      w.testKey,
      forged,
      secret,
      secret.slice(6),
      'metrics-token-xyz',
      'wrong-token',
      'Bearer',
      'authorization',
      'query-secret',
    ]) {
      assert.ok(!text.includes(needle), `log contains ${needle}`);
    }
    assert.ok(s.requests().some((r) => r.path === '/v1/entries/service_live_[redacted]'));
  });

  test('pretty format: one short readable line per request', async () => {
    const s = await loggedServer('pretty');
    const w = makeCampaign(s.server.service.ctx);
    const res = await s.call('POST', '/v1/entries', {
      key: w.testKey,
      idempotencyKey: 'p-1',
      body: entryBody({}, 4),
      headers: { 'x-request-id': 'pretty-1' },
    });
    assert.equal(res.status, 202);
    const line = s.lines.find((l) => l.includes('req=pretty-1'));
    assert.ok(line, s.lines.join('\n'));
    assert.match(line, new RegExp(`POST /v1/entries 202 [0-9.]+ms campaign=${w.campaign.id} test req=pretty-1`));
    assert.ok(!line.trimStart().startsWith('{'), 'not JSON');
  });
});
