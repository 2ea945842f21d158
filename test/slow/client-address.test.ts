// The client a request comes from (README.md#configuration, CES_TRUSTED_PROXIES) and what is
// limited by it: failed authentications per address, with X-Forwarded-For believed only from
// CES_TRUSTED_PROXIES (CES_AUTH_FAILURE_LIMIT sets how many, 0 none); and the start-up warning of a server listening
// beyond loopback over plain HTTP. Through the real server; time moves on the ManualClock.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import { ManualClock } from '../../src/kernel/clock.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { createLogger } from '../../src/kernel/log.ts';
import { seededRandom } from '../../src/kernel/random.ts';
import { startServer } from '../../src/http/server.ts';
import { isLoopbackHost } from '../../src/tools/loopback-host.ts';
import { parseTrustedProxies } from '../../src/kernel/trusted-proxies.ts';
import { entryBody, makeCampaign, startTestServer, type TestServer } from '../support/harness.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const BAD_KEY = `ces_live_${'x'.repeat(40)}`;
const get = (t: TestServer, key: string, forwardedFor?: string) =>
  t.request('GET', '/v1/prizes', { key, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

test('failed authentications from one address: 401 twenty times, then 429 auth_rate_limited for wrong keys only, until the bucket refills', async () => {
  const t = await startTestServer({ socket: true });
  cleanups.push(() => t.close());
  const w = makeCampaign(t.ctx);
  for (let i = 0; i < 20; i++) assert.equal((await get(t, BAD_KEY)).status, 401);
  const limited = await get(t, BAD_KEY);
  assert.equal(limited.status, 429);
  assert.equal(limited.body.code, 'auth_rate_limited');
  assert.match(limited.body.detail, /failed authentications/);
  assert.equal(limited.headers.get('retry-after'), '2');
  assert.equal((await get(t, '')).body.code, 'auth_rate_limited', 'a missing key counts as a failure too');
  // docs/api.md#entry-submission: a valid key is never refused because of its neighbours' failures
  // (one terminal with a revoked key behind a shop's NAT must not lock out the others).
  for (let i = 0; i < 30; i++) assert.equal((await get(t, BAD_KEY)).status, 429);
  assert.equal((await get(t, w.liveKey)).status, 200);
  const entry = await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'beside-failures', body: entryBody() });
  assert.equal(entry.status, 202, `an entry with a valid key from that address is accepted: ${entry.text}`);
  t.clock.advance(2_000);
  assert.equal((await get(t, BAD_KEY)).status, 401, 'a refilled token: the wrong key is told so again');
  // Successes take nothing from the address's bucket.
  for (let i = 0; i < 30; i++) assert.equal((await get(t, w.liveKey)).status, 200);
});

test('X-Forwarded-For is ignored from a peer that is not a trusted proxy: a client cannot pick its address', async () => {
  const t = await startTestServer({ socket: true });
  cleanups.push(() => t.close());
  for (let i = 0; i < 20; i++) assert.equal((await get(t, BAD_KEY, `203.0.113.${i}`)).status, 401);
  assert.equal((await get(t, BAD_KEY, '198.51.100.7')).status, 429, 'every request counted against the real peer');
});

test('without a socket (a request handed to the app, as the in-process tests do) the peer is the request’s ip', async () => {
  // The in-process harness gives 127.0.0.1: trusted here, so each forwarded client has its own
  // bucket. Were the peer unknown, it would not be trusted and all of them would share one.
  const t = await startTestServer({ env: { CES_TRUSTED_PROXIES: '127.0.0.1' } });
  cleanups.push(() => t.close());
  for (let i = 0; i < 20; i++) assert.equal((await get(t, BAD_KEY, '203.0.113.9')).status, 401);
  assert.equal((await get(t, BAD_KEY, '203.0.113.9')).status, 429);
  assert.equal((await get(t, BAD_KEY, '198.51.100.7')).status, 401, 'another client of the proxy');
});

test('behind CES_TRUSTED_PROXIES each forwarded client has its own bucket, and the log names it', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig(
    { db: ':memory:', port: 0, host: '127.0.0.1', logFormat: 'json' },
    { CES_TRUSTED_PROXIES: '127.0.0.1,::1' },
    false,
  );
  const server = await startServer(config, createLogger('json', sink), {
    clock: new ManualClock('2026-11-22T12:00:00.000Z'),
    random: seededRandom(7),
    tick: false,
  });
  cleanups.push(() => server.close());
  const call = async (forwardedFor: string) =>
    (await fetch(`${server.url}/v1/prizes`, { headers: { authorization: `Bearer ${BAD_KEY}`, 'x-forwarded-for': forwardedFor } })).status;
  for (let i = 0; i < 20; i++) assert.equal(await call('203.0.113.9'), 401);
  assert.equal(await call('203.0.113.9'), 429);
  // Another client of the same proxy is not lumped in; nor is a chain whose right-most untrusted hop differs.
  assert.equal(await call('198.51.100.7'), 401);
  assert.equal(await call('203.0.113.9, 198.51.100.8'), 401);
  // A trusted hop on the right is skipped: the client is the first untrusted one from the right.
  assert.equal(await call('203.0.113.9, 127.0.0.1'), 429);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const records = lines.map((l) => JSON.parse(l) as { message?: string; client_address?: string }).filter((r) => r.message === 'request');
  assert.deepEqual([...new Set(records.map((r) => r.client_address))].sort(), ['198.51.100.7', '198.51.100.8', '203.0.113.9']);
});

test('trusted proxies: addresses, IPv4 and IPv6 subnets, and IPv4 peers of a dual-stack socket', () => {
  const trusted = parseTrustedProxies(['10.1.2.3', '192.168.0.0/16', 'fd00::/8']);
  assert.equal(trusted.has('10.1.2.3'), true);
  assert.equal(trusted.has('10.1.2.4'), false);
  assert.equal(trusted.has('192.168.44.1'), true);
  assert.equal(trusted.has('::ffff:192.168.44.1'), true);
  assert.equal(trusted.has('fd12::1'), true);
  assert.equal(trusted.has('fe80::1'), false);
  assert.equal(trusted.has('not-an-ip'), false);
});

test('listening beyond loopback logs a warning that the API is plain HTTP; loopback does not', async () => {
  const start = async (host: string): Promise<string[]> => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadConfig({ db: ':memory:', port: 0, host, logFormat: 'json' }, {}, false);
    const server = await startServer(config, createLogger('json', sink), {
      clock: new ManualClock('2026-11-22T12:00:00.000Z'),
      random: seededRandom(8),
      tick: false,
    });
    await server.close();
    return lines;
  };
  const wide = await start('0.0.0.0');
  assert.ok(
    wide.some((l) => /"level":"warn"/.test(l) && /serving plain HTTP on http:\/\/0\.0\.0\.0:\d+.*TLS-terminating proxy/.test(l)),
    wide.join('\n'),
  );
  const local = await start('127.0.0.1');
  assert.ok(!local.some((l) => /plain HTTP/.test(l)), local.join('\n'));
  assert.deepEqual(['127.0.0.1', '127.3.2.1', 'localhost', '::1', '0.0.0.0', '::', '192.168.1.10'].map(isLoopbackHost), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
