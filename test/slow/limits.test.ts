// Limits: body size (413), per-key rate limit (429 + Retry-After, on the injected clock), request
// timeouts for stalled clients, and Node's header/URL size limits answered cleanly (431), each
// leaving the server healthy.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { entryBody, makeCampaign, startTestServer, type TestServer, type World } from '../support/harness.ts';
import { assertProblem } from '../support/assert.ts';

/** Sends raw bytes on a fresh TCP connection; resolves with everything the server sent before it closed (or after `waitMs`). */
function rawExchange(
  url: string,
  chunks: Array<string | Buffer>,
  waitMs = 5_000,
): Promise<{ text: string; closedByServer: boolean; elapsedMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let settled = false;
    const finish = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(received).toString('latin1'), closedByServer, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d) => received.push(d));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
  });
}

describe('body size limit', () => {
  let s: TestServer;
  let w: World;
  before(async () => {
    // Over a socket: the limit is enforced on what Node's HTTP server reads, with and without Content-Length.
    s = await startTestServer({ socket: true, env: { CES_BODY_LIMIT_BYTES: '4096' } });
    w = makeCampaign(s.ctx);
  });
  after(() => s.close());

  const countEntries = (): number => (s.ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;

  test('a body over CES_BODY_LIMIT_BYTES with Content-Length gets 413 payload_too_large and stores nothing', async () => {
    const big = entryBody({ consent: { user_agent: 'x'.repeat(5000) } });
    const res = await s.request('POST', '/v1/entries', { key: w.liveKey, body: big, idempotencyKey: 'big-1' });
    assertProblem(res, 413, 'payload_too_large');
    assert.equal(countEntries(), 0);
  });

  test('a chunked body (no Content-Length) over the limit gets 413 as well', async () => {
    const payload = Buffer.from(JSON.stringify(entryBody({ consent: { user_agent: 'y'.repeat(6000) } })));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= payload.length) return controller.close();
        controller.enqueue(payload.subarray(sent, sent + 1000));
        sent += 1000;
      },
    });
    const res = await fetch(`${s.url}/v1/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.liveKey}`, 'idempotency-key': 'big-2', 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const body = await res.json();
    assertProblem({ status: res.status, headers: res.headers, body }, 413, 'payload_too_large');
    assert.equal(countEntries(), 0);
  });

  test('a chunked body that lies about nothing but is just under the limit is accepted', async () => {
    const body = entryBody({ consent: { user_agent: 'z'.repeat(3000) } }, 1);
    assert.ok(JSON.stringify(body).length < 4096);
    const res = await s.request('POST', '/v1/entries', { key: w.liveKey, body, idempotencyKey: 'ok-1' });
    assert.equal(res.status, 202, res.text);
    assert.equal(countEntries(), 1);
  });

  test('the default limit is 64 KiB', async () => {
    const d = await startTestServer();
    try {
      assert.equal(d.ctx.config.bodyLimitBytes, 65536);
      const dw = makeCampaign(d.ctx);
      const over = await d.request('POST', '/v1/entries', { key: dw.liveKey, raw: `{"pad":"${'a'.repeat(65536)}"}`, idempotencyKey: 'k' });
      assertProblem(over, 413, 'payload_too_large');
      const under = await d.request('POST', '/v1/entries', { key: dw.liveKey, raw: `{"pad":"${'a'.repeat(60000)}"}`, idempotencyKey: 'k' });
      assert.notEqual(under.status, 413);
      assert.ok(under.status < 500);
    } finally {
      await d.close();
    }
  });
});

describe('per-key rate limit (token bucket on ctx.clock)', () => {
  let s: TestServer;
  let a: World;
  let b: World;
  before(async () => {
    s = await startTestServer({ env: { CES_RATE_LIMIT_RPS: '2', CES_RATE_LIMIT_BURST: '3' } });
    a = makeCampaign(s.ctx);
    b = makeCampaign(s.ctx);
  });
  after(() => s.close());

  const hit = (key: string) => s.request('GET', '/v1/entries/00000000-0000-0000-0000-000000000000', { key });

  test('a key may burst, then gets 429 rate_limited with Retry-After; other keys are unaffected; tokens refill with time', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await hit(a.liveKey)).status, 404, `burst request ${i}`);
    const limited = await hit(a.liveKey);
    assertProblem(limited, 429, 'rate_limited');
    assert.equal(limited.headers.get('retry-after'), '1');
    // Another key of the same campaign (the test key) and another campaign have their own buckets.
    assert.equal((await hit(a.testKey)).status, 404);
    assert.equal((await hit(b.liveKey)).status, 404);
    // Half a second at 2 rps gives back exactly one token.
    s.clock.advance(500);
    assert.equal((await hit(a.liveKey)).status, 404);
    assert.equal((await hit(a.liveKey)).status, 429);
    // Long idle refills to the burst size, not beyond it.
    s.clock.advance(3_600_000);
    for (let i = 0; i < 3; i++) assert.equal((await hit(a.liveKey)).status, 404);
    assert.equal((await hit(a.liveKey)).status, 429);
  });

  test('a rate-limited POST /v1/entries stores nothing', async () => {
    const before = (s.ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;
    for (let i = 0; i < 3; i++) await hit(b.testKey);
    const res = await s.request('POST', '/v1/entries', { key: b.testKey, body: entryBody({}, 2), idempotencyKey: 'rl-1' });
    assertProblem(res, 429, 'rate_limited');
    assert.equal((s.ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n, before);
  });

  test('unauthenticated requests get 401, not 429, and do not use any bucket', async () => {
    for (let i = 0; i < 10; i++)
      assertProblem(await s.request('GET', '/v1/entries/x', { key: 'service_live_nope' }), 401, 'invalid_api_key');
  });

  test('CES_RATE_LIMIT_RPS=0 disables the limit', async () => {
    const d = await startTestServer({ env: { CES_RATE_LIMIT_RPS: '0', CES_RATE_LIMIT_BURST: '1' } });
    try {
      const dw = makeCampaign(d.ctx);
      for (let i = 0; i < 50; i++) assert.equal((await d.request('GET', '/v1/entries/x', { key: dw.liveKey })).status, 404);
    } finally {
      await d.close();
    }
  });

  test('the defaults protect one box: 200 requests per second, burst 1000', async () => {
    assert.equal((await startTestServerConfig()).rateLimitPerSecond, 200);
    assert.equal((await startTestServerConfig()).rateLimitBurst, 1000);
  });
});

async function startTestServerConfig() {
  const { loadConfig } = await import('../../src/kernel/config.ts');
  return loadConfig({}, {}, false);
}

describe('Node header, URL and timeout limits', () => {
  let s: TestServer;
  let w: World;
  before(async () => {
    s = await startTestServer({ socket: true, env: { CES_REQUEST_TIMEOUT_MS: '300' } });
    w = makeCampaign(s.ctx);
  });
  after(() => s.close());

  const healthy = async (): Promise<void> => {
    const res = await s.request('GET', '/v1/entries/none', { key: w.liveKey });
    assertProblem(res, 404, 'not_found');
  };

  test('headers over 16 KiB get a clean 431 from Node and the server stays up', async () => {
    const res = await rawExchange(s.url, [`GET /v1/entries/x HTTP/1.1\r\nHost: a\r\nX-Big: ${'h'.repeat(20_000)}\r\n\r\n`]);
    assert.match(res.text, /^HTTP\/1\.1 431 /);
    await healthy();
  });

  test('a URL over 16 KiB gets 431 too (the request line counts toward the header limit)', async () => {
    const res = await rawExchange(s.url, [`GET /v1/entries/${'u'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`]);
    assert.match(res.text, /^HTTP\/1\.1 431 /);
    await healthy();
  });

  test('a long URL under the limit is an ordinary problem+json 404', async () => {
    const res = await s.request('GET', `/v1/entries/${'u'.repeat(8_000)}`, { key: w.liveKey });
    assertProblem(res, 404, 'not_found');
  });

  test('a garbage request line gets 400 from Node, not a crash', async () => {
    const res = await rawExchange(s.url, ['\x00\x01 NOT HTTP\r\n\r\n']);
    assert.match(res.text, /^HTTP\/1\.1 400 /);
    await healthy();
  });

  test('a client that stalls mid-headers is disconnected after CES_REQUEST_TIMEOUT_MS', async () => {
    const res = await rawExchange(s.url, ['POST /v1/entries HTTP/1.1\r\nHost: a\r\n'], 10_000);
    assert.equal(res.closedByServer, true);
    assert.ok(res.elapsedMs < 9_000, `closed after ${res.elapsedMs} ms`);
    await healthy();
  });

  test('a client that stalls mid-body is disconnected and nothing is stored', async () => {
    const head = `POST /v1/entries HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${w.liveKey}\r\nIdempotency-Key: stall-1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`;
    const res = await rawExchange(s.url, [head, '{"enrollment":'], 10_000);
    assert.equal(res.closedByServer, true);
    assert.ok(res.elapsedMs < 9_000, `closed after ${res.elapsedMs} ms`);
    assert.equal((s.ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n, 0);
    // The Idempotency-Key is free again: a complete retry is accepted.
    const retry = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody(), idempotencyKey: 'stall-1' });
    assert.equal(retry.status, 202, retry.text);
  });
});
