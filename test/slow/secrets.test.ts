// Keys and secrets: API keys are stored only as SHA-256 hashes, and no full key or HMAC secret ever
// reaches a log line, the CLI's listings or the database file (the webhook secret is the one
// secret stored, because signing needs it: see docs/architecture.md, "Keys and secrets"). `ces key rotate` issues a
// new key and revokes the old one now or after a grace period.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashKey, rotateKey } from '../../src/keys/keys.ts';
import { entryBody, makeCampaign, request, runCli, startTestServer, type World, OPERATOR } from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { openTestCtx } from '../support/seed-entries.ts';
import { killServe, openFileCtx, spawnServe, type ServeProcess } from '../support/serve-process.ts';

describe('no full key or HMAC secret in logs, listings or the database file', () => {
  let dir: string;
  let dbPath: string;
  let world: World;
  let serve: ServeProcess | undefined;
  let receiver: Receiver;
  const secrets: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ces-secrets-'));
    dbPath = join(dir, 'ces.db');
    const ctx = await openFileCtx(dbPath);
    world = makeCampaign(ctx);
    ctx.db.close();
    receiver = await startReceiver();
    serve = await spawnServe({ dbPath, env: { CES_WEBHOOK_RETRY_SCHEDULE: '0.05' } });
  });
  after(async () => {
    await killServe(serve);
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('keys work, rotate (grace 0 and grace 3600 s) and nothing secret is logged or stored', async () => {
    const url = serve!.url;
    secrets.push(world.liveKey, world.testKey);
    const hook = await request(url, 'PATCH', '/v1/webhook', { key: world.liveKey, body: { endpoint_url: receiver.url } });
    assert.equal(hook.status, 201, hook.text);
    const hmacSecret: string = hook.body.hmac_secret;
    assert.match(hmacSecret, /^whsec_/);
    receiver.setSecret(hmacSecret);
    const entry = await request(url, 'POST', '/v1/entries', { key: world.liveKey, body: entryBody(), idempotencyKey: 'secret-1' });
    assert.equal(entry.status, 202, entry.text);
    // A signed delivery happened, so the secret was used by the running server.
    await receiver.waitFor((reqs) => reqs.some((r) => r.json?.data?.entry_id === entry.body.entry_id), 60_000);
    assert.ok(receiver.requests.every((r) => r.signatureMatches === true));
    // Failed authentications with key-shaped tokens must not be logged either.
    const forged = `service_live_${'Q'.repeat(43)}`;
    secrets.push(forged);
    assert.equal((await request(url, 'GET', '/v1/prizes', { key: forged })).status, 401);
    assert.equal((await request(url, 'GET', '/v1/prizes', { headers: { authorization: `Basic ${world.liveKey}` } })).status, 401);
    assert.equal((await request(url, 'GET', '/v1/webhook', { key: world.testKey })).body.hmac_secret, undefined);

    // ces key rotate --grace 0: the old key is refused at once, the new one works.
    const rotated = await runCli(['key', 'rotate', world.liveKeyId, '--grace', '0', '--json'], { dbPath });
    assert.equal(rotated.code, 0, rotated.stderr);
    const newLive: string = rotated.json.key.key;
    secrets.push(newLive);
    assert.match(newLive, /^service_live_/);
    assert.equal(rotated.json.revoked.id, world.liveKeyId);
    // The new key is printed as `ces key issue` prints one, and keeps the old key's label.
    assert.deepEqual(Object.keys(rotated.json.key), ['id', 'campaign_id', 'mode', 'key', 'prefix', 'label', 'created_at']);
    assert.ok('label' in rotated.json.revoked);
    assert.equal(rotated.json.key.label, rotated.json.revoked.label);
    assert.equal((await request(url, 'GET', '/v1/prizes', { key: world.liveKey })).status, 401);
    assert.equal((await request(url, 'GET', '/v1/prizes', { key: newLive })).status, 200);

    // ces key rotate --grace 3600: the old key keeps working until revoked_at, an hour from now.
    const t0 = Date.now();
    const graced = await runCli(['key', 'rotate', world.testKeyId, '--grace', '3600', '--json'], { dbPath });
    assert.equal(graced.code, 0, graced.stderr);
    secrets.push(graced.json.key.key);
    const revokedAt = Date.parse(graced.json.revoked.revoked_at);
    assert.ok(revokedAt >= t0 + 3_590_000 && revokedAt <= Date.now() + 3_600_000, `revoked_at ${graced.json.revoked.revoked_at}`);
    assert.equal((await request(url, 'GET', '/v1/prizes', { key: world.testKey })).status, 200);
    assert.equal((await request(url, 'GET', '/v1/prizes', { key: graced.json.key.key })).status, 200);
    // Rotating an already-revoked key is refused.
    const again = await runCli(['key', 'rotate', world.liveKeyId, '--json'], { dbPath });
    assert.notEqual(again.code, 0);

    // Listings never show a secret.
    const list = await runCli(['key', 'list', '--campaign', world.campaign.id, '--json'], { dbPath });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.json.length, 4);
    for (const k of list.json) assert.equal(k.key, undefined);
    for (const s of [...secrets, hmacSecret]) assert.ok(!list.stdout.includes(s), 'key list shows a secret');

    // Stop the server so the WAL is checkpointed, then scan everything it wrote.
    serve!.child.kill('SIGTERM');
    assert.deepEqual(await serve!.exited, { code: 0, signal: null });
    const logs = serve!.output();
    assert.ok(!/bearer/i.test(logs), 'a log line shows an Authorization value');
    for (const s of [...secrets, hmacSecret]) {
      assert.ok(!logs.includes(s), `the server log contains a secret (${s.slice(0, 16)}…)`);
      assert.ok(!logs.includes(s.slice(-24)), 'the server log contains part of a secret');
    }
    const files = [dbPath, `${dbPath}-wal`].filter(existsSync).map((f) => readFileSync(f));
    for (const s of secrets) {
      for (const bytes of files) {
        assert.equal(bytes.indexOf(Buffer.from(s.slice(13))), -1, 'the database file holds a full key');
      }
    }
    // What is stored is the SHA-256 of each key.
    assert.ok(files[0].indexOf(hashKey(newLive)) >= 0, 'the key hash is stored');
  });
});

describe('ces key rotate --grace: whole seconds from 0 to 30 days', () => {
  test('a grace out of range or not written in digits is invalid_option (one line, nothing rotated); 30 days is accepted', async () => {
    const { ctx, dir, dbPath } = openTestCtx();
    const w = makeCampaign(ctx);
    ctx.db.close();
    try {
      // 99999999999999 s made revoked_at an invalid date: internal_error "Invalid time value".
      const bad = ['99999999999999', '2592001', '-1', '1.5', '', '0x10', '1e3'];
      const results = await Promise.all(bad.map((grace) => runCli(['key', 'rotate', w.liveKeyId, '--grace', grace, '--json'], { dbPath })));
      results.forEach((res, i) => {
        const message = `--grace must be a whole number of seconds from 0 to 2592000 (30 days), got "${bad[i]}"`;
        assert.equal(res.code, 1, bad[i]);
        assert.deepEqual(res.json, { error: { code: 'invalid_option', message } }, bad[i]);
        assert.equal(res.stderr, `ces: ${message}\n`);
      });
      const list = await runCli(['key', 'list', '--campaign', w.campaign.id, '--json'], { dbPath });
      assert.deepEqual(
        list.json.map((k: { revoked_at: string | null }) => k.revoked_at),
        [null, null],
        'no key issued or revoked',
      );
      const t0 = Date.now();
      const month = await runCli(['key', 'rotate', w.liveKeyId, '--grace', '2592000', '--json'], { dbPath });
      assert.equal(month.code, 0, month.stderr);
      const revokedAt = Date.parse(month.json.revoked.revoked_at);
      assert.ok(revokedAt >= t0 + 2_592_000_000 && revokedAt <= Date.now() + 2_592_000_000, month.json.revoked.revoked_at);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('key rotation grace period on the server clock', () => {
  test('the old key works until the grace period has passed, then gets 401; the new key works throughout', async () => {
    const s = await startTestServer();
    try {
      const w = makeCampaign(s.ctx);
      const { issued } = rotateKey(s.ctx, w.liveKeyId, 60, OPERATOR);
      const status = async (key: string) => (await s.request('GET', '/v1/prizes', { key })).status;
      assert.equal(await status(w.liveKey), 200);
      assert.equal(await status(issued.key), 200);
      s.clock.advance(59_999);
      assert.equal(await status(w.liveKey), 200);
      s.clock.advance(1);
      assert.equal(await status(w.liveKey), 401);
      assert.equal(await status(issued.key), 200);
      // The other mode's key was never touched.
      assert.equal(await status(w.testKey), 200);
    } finally {
      await s.close();
    }
  });
});
