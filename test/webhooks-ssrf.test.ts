// Where deliveries may go (SSRF): only https://, and unless CES_ALLOW_PRIVATE_WEBHOOKS=1 only hosts
// whose every DNS address is public. The resolver is injected so the table needs no network.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isNonPublicAddress, refuseWebhookTarget } from '../src/webhooks/ssrf.ts';

test('non-public addresses: loopback, private, link-local, unique-local, metadata, mapped IPv4', () => {
  for (const a of ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', 'fc12::3', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', '224.0.0.1']) {
    assert.equal(isNonPublicAddress(a), true, a);
  }
  for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    assert.equal(isNonPublicAddress(a), false, a);
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
