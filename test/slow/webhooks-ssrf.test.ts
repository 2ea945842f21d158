// Where deliveries may go (SSRF): only https://, and unless CES_ALLOW_PRIVATE_WEBHOOKS=1 only hosts
// whose every DNS address is public, checked before the attempt and again by the connection's own
// lookup (DNS rebinding). The resolver is injected so the tables need no network.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { test } from 'node:test';
import { postWebhook } from '../../src/webhooks/webhook-post.ts';
import { isNonPublicAddress, publicOnlyLookup, refuseAddressLiteral, refuseWebhookTarget } from '../../src/webhooks/ssrf.ts';
import { startReceiver } from '../support/receiver.ts';

test('non-public addresses: loopback, private, link-local, unique-local, metadata, mapped IPv4', () => {
  for (const a of [
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc12::3',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '224.0.0.1',
  ]) {
    assert.equal(isNonPublicAddress(a), true, a);
  }
  for (const a of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2001:4860:4860::8888',
    '2a00:1450:4001::200e',
  ]) {
    assert.equal(isNonPublicAddress(a), false, a);
  }
});

test('non-public addresses: IPv6 forms that carry or translate an IPv4 address', () => {
  for (const a of [
    '::7f00:1',
    '::127.0.0.1',
    '::a00:5', // IPv4-compatible (::/96)
    '::ffff:0:7f00:1',
    '::ffff:0:a9fe:a9fe', // IPv4-translated (::ffff:0:0:0/96)
    '64:ff9b::a00:5',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:5', // NAT64, well-known and local-use
    '2002:7f00:1::1',
    '2002:a00:5::',
    '2002:808:808::1', // 6to4 (even of a public IPv4: refused as a whole)
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  ]) {
    assert.equal(isNonPublicAddress(a), true, a);
  }
});

test('refuseWebhookTarget: https only; private answers refused unless allowed', async () => {
  const dns: Record<string, string[]> = {
    'public.example': ['93.184.216.34'],
    'internal.example': ['10.0.0.5'],
    'mixed.example': ['93.184.216.34', '127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'v6local.example': ['fd00::7'],
  };
  const resolve = async (host: string): Promise<string[]> => {
    if (!(host in dns)) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return dns[host];
  };
  assert.equal(await refuseWebhookTarget('https://public.example/h', false, resolve), null);
  assert.match((await refuseWebhookTarget('http://public.example/h', false, resolve))!, /only https:\/\//);
  assert.match((await refuseWebhookTarget('http://public.example/h', true, resolve))!, /only https:\/\//);
  assert.match((await refuseWebhookTarget('https://internal.example/h', false, resolve))!, /resolves to 10\.0\.0\.5/);
  assert.match((await refuseWebhookTarget('https://mixed.example/h', false, resolve))!, /resolves to 127\.0\.0\.1/);
  assert.match((await refuseWebhookTarget('https://metadata.example/h', false, resolve))!, /169\.254\.169\.254/);
  assert.match((await refuseWebhookTarget('https://v6local.example/h', false, resolve))!, /fd00::7/);
  assert.match((await refuseWebhookTarget('https://169.254.169.254/latest', false, resolve))!, /169\.254\.169\.254/);
  assert.match((await refuseWebhookTarget('https://[::1]:8443/h', false, resolve))!, /resolves to ::1/);
  assert.match((await refuseWebhookTarget('https://nowhere.example/h', false, resolve))!, /cannot resolve nowhere\.example \(ENOTFOUND\)/);
  assert.equal(await refuseWebhookTarget('https://internal.example/h', true, resolve), null);
});

test('the system resolver is used by default: localhost is refused', async () => {
  assert.match((await refuseWebhookTarget('https://localhost:9/h', false))!, /^refused: localhost resolves to (127\.0\.0\.1|::1)/);
});

test('the connection lookup refuses a non-public answer, whatever the check before it saw (rebinding)', async () => {
  // A name that answers a public address to the first question and loopback afterwards.
  let asked = 0;
  const rebinding = (_host: string, _o: unknown, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => {
    asked++;
    cb(null, asked === 1 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
  };
  const lookup = publicOnlyLookup(rebinding);
  const ask = (all: boolean) =>
    new Promise<{ error: Error | null; result: unknown[] }>((resolve) => {
      lookup('rebind.example', { all }, (error: Error | null, ...result: unknown[]) => resolve({ error, result }));
    });
  assert.deepEqual(await ask(true), { error: null, result: [[{ address: '93.184.216.34', family: 4 }]] });
  const second = await ask(true);
  assert.match(second.error!.message, /^refused: rebind\.example resolves to 127\.0\.0\.1/);

  const answers: Record<string, LookupAddress[]> = {
    'public.example': [{ address: '93.184.216.34', family: 4 }],
    'mixed.example': [
      { address: '93.184.216.34', family: 4 },
      { address: 'fd00::7', family: 6 },
    ],
  };
  const fixed = publicOnlyLookup((host, _o, cb) =>
    host in answers ? cb(null, answers[host]) : cb(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []),
  );
  const one = await new Promise<unknown[]>((resolve) => fixed('public.example', {}, (...args: unknown[]) => resolve(args)));
  assert.deepEqual(one, [null, '93.184.216.34', 4]);
  const mixed = await new Promise<Error>((resolve) => fixed('mixed.example', { all: true }, (e: Error | null) => resolve(e!)));
  assert.match(mixed.message, /resolves to fd00::7/);
  const missing = await new Promise<NodeJS.ErrnoException>((resolve) =>
    fixed('nowhere.example', {}, (e: NodeJS.ErrnoException | null) => resolve(e!)),
  );
  assert.equal(missing.code, 'ENOTFOUND');

  assert.match(refuseAddressLiteral('[::1]')!, /::1/);
  assert.match(refuseAddressLiteral('169.254.169.254')!, /169\.254\.169\.254/);
  assert.equal(refuseAddressLiteral('93.184.216.34'), null);
  assert.equal(refuseAddressLiteral('public.example'), null);
});

test('a delivery POST that may reach public addresses only never connects to this machine', async () => {
  const receiver = await startReceiver();
  try {
    const port = new URL(receiver.url).port;
    const post = (url: string, publicOnly: boolean) =>
      postWebhook(url, '{}', { 'content-type': 'application/json' }, { timeoutMs: 5000, publicOnly }).then(
        (res) => res.status,
        (error: Error) => error.message,
      );
    // Resolved by the connection itself, not by a check before it.
    assert.match(String(await post(`https://localhost:${port}/hooks`, true)), /^refused: localhost resolves to (127\.0\.0\.1|::1)/);
    assert.match(String(await post(`https://127.0.0.1:${port}/hooks`, true)), /^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
    assert.match(String(await post(`https://[::1]:${port}/hooks`, true)), /^refused: ::1/);
    assert.equal(receiver.requests.length, 0);
    // The same POST where private targets are allowed reaches the receiver.
    assert.equal(await post(`https://localhost:${port}/hooks`, false), 200);
    assert.equal(receiver.requests.length, 1);
  } finally {
    await receiver.close();
  }
});
