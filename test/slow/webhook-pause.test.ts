// PATCH /v1/webhook with is_active false pauses delivery and keeps the endpoint and the secret
// (docs/api.md#webhook-configuration): paused, moved to another URL and resumed, later events go to the
// new URL signed with the secret shown at creation. Through the real HTTP server and a receiver.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { drainAll, entryBody, makeCampaign, startTestServer, type World } from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';

describe('PATCH /v1/webhook: false pauses delivery and keeps the endpoint and the secret', () => {
  test('paused, moved to another URL and resumed: later events go to the new URL, signed with the secret shown at creation', async () => {
    const t = await startTestServer();
    const first = await startReceiver();
    const second = await startReceiver();
    try {
      const w: World = makeCampaign(t.ctx);
      const created = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: first.url } });
      assert.equal(created.status, 201, created.text);
      const secret: string = created.body.hmac_secret;
      first.setSecret(secret);
      second.setSecret(secret);

      const paused = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { is_active: false } });
      assert.deepEqual(
        [paused.status, paused.body.is_active, paused.body.endpoint_url, paused.body.hmac_secret],
        [200, false, first.url, undefined],
      );
      const moved = await t.request('PATCH', '/v1/webhook', { key: w.testKey, body: { endpoint_url: second.url } });
      assert.deepEqual(
        [moved.status, moved.body.is_active, moved.body.endpoint_url, moved.body.hmac_secret],
        [200, false, second.url, undefined],
        'is_active omitted: unchanged',
      );
      const resumed = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { is_active: true } });
      assert.deepEqual(
        [resumed.status, resumed.body.is_active, resumed.body.endpoint_url, resumed.body.hmac_secret],
        [200, true, second.url, undefined],
        'endpoint_url omitted: unchanged',
      );

      const res = await t.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'after-resume', body: entryBody({}, 50) });
      assert.equal(res.status, 202, res.text);
      await drainAll(t);
      assert.equal(first.requests.length, 0, 'nothing goes to the old URL');
      assert.deepEqual(
        second.requests.map((r) => r.json.event_type),
        ['entry.received', 'entry.completed', 'entry.evaluated'],
      );
      assert.ok(
        second.requests.every((r) => r.signatureMatches === true && r.json.data.entry_id === res.body.entry_id),
        'signed with the original secret',
      );
    } finally {
      await first.close();
      await second.close();
      await t.close();
    }
  });
});
