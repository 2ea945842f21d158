// Isolation matrix: a key sees only its own campaign and mode. For every kind of object (entry,
// award, lucky numbers, prizes, webhook configuration) owned by one key, every endpoint called with
// a key of the other mode and with keys of another campaign gives 404, an empty (or own-only)
// list, or a 422 that names nothing of the owner: never the owner's data, never a change to it.
// The webhook configuration is per campaign and shared by both modes (docs/api.md#webhook-configuration), so the other-mode key
// of the same campaign legitimately sees it; another campaign's key must not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entryBody, makeCampaign, makePrize, startTestServer, type TestServer, OPERATOR } from './support/harness.ts';

interface Actor {
  name: string;
  campaignId: string;
  mode: 'live' | 'test';
  key: string;
  prizeId: string;
  entryId: string;
  idempotencyKey: string;
}

let s: TestServer;
const actors: Actor[] = [];

async function settle(): Promise<void> {
  // Bounded: the pipeline needs a few ticks for processing, evaluation and deliveries.
  for (let i = 0; i < 20; i++) {
    const pending = (
      s.ctx.db.prepare("SELECT count(*) AS n FROM entries WHERE status NOT IN ('APPROVED','REJECTED')").get() as { n: number }
    ).n;
    if (pending === 0) return;
    await s.server.tick();
    s.clock.advance(1_000);
  }
  throw new Error('entries did not reach a final state');
}

function ownerSnapshot(a: Actor): string {
  const db = s.ctx.db;
  return JSON.stringify({
    entry: db.prepare('SELECT * FROM entries WHERE id = ?').get(a.entryId),
    awards: db.prepare('SELECT * FROM awards WHERE entry_id = ? ORDER BY rowid').all(a.entryId),
    lucky: db.prepare('SELECT * FROM lucky_numbers WHERE entry_id = ? ORDER BY rowid').all(a.entryId),
    prize: db.prepare('SELECT * FROM prizes WHERE id = ?').get(a.prizeId),
    webhook: db.prepare('SELECT * FROM webhook_configs WHERE campaign_id = ?').get(a.campaignId),
  });
}

before(async () => {
  s = await startTestServer({ env: { CES_RATE_LIMIT_RPS: '0' } });
  const options = { instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'auto', luckyQuantity: 2 };
  const a = makeCampaign(s.ctx, { ...options, name: 'Campaign A' });
  const b = makeCampaign(s.ctx, { ...options, name: 'Campaign B' });
  const keys: Array<[string, string, 'live' | 'test', string]> = [
    ['A live', a.campaign.id, 'live', a.liveKey],
    ['A test', a.campaign.id, 'test', a.testKey],
    ['B live', b.campaign.id, 'live', b.liveKey],
    ['B test', b.campaign.id, 'test', b.testKey],
  ];
  let i = 0;
  for (const [name, campaignId, mode, key] of keys) {
    const prizeId = makePrize(s.ctx, campaignId, mode, 10, `${name} prize`).id;
    // Every actor uses the same Idempotency-Key and the same participant: scopes must not collide.
    const idempotencyKey = 'shared-idempotency-key';
    const res = await s.request('POST', '/v1/entries', {
      key,
      body: entryBody({ instant_win: { won: true, prize_definition_id: prizeId } }, 0),
      idempotencyKey,
    });
    assert.equal(res.status, 202, res.text);
    actors.push({ name, campaignId, mode, key, prizeId, entryId: res.body.entry_id, idempotencyKey });
    i++;
  }
  assert.equal(new Set(actors.map((x) => x.entryId)).size, i, 'one entry per scope');
  // A has a webhook configuration (B has none).
  const hook = await s.request('PATCH', '/v1/webhook', { key: a.liveKey, body: { endpoint_url: 'https://a.example/hooks' } });
  assert.equal(hook.status, 201, hook.text);
  await settle();
});
after(() => s.close());

describe('isolation: every endpoint x (other mode, other campaign) x every kind of object', () => {
  test('each owner really has an entry with an award and lucky numbers, and its prize', async () => {
    for (const a of actors) {
      const res = await s.request('GET', `/v1/entries/${a.entryId}`, { key: a.key });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'APPROVED', `${a.name}: ${res.text}`);
      assert.equal(res.body.award?.prize_definition_id, a.prizeId);
      assert.equal(res.body.lucky_numbers.length, 2);
      const prizes = await s.request('GET', '/v1/prizes', { key: a.key });
      assert.deepEqual(
        prizes.body.map((p: { id: string }) => p.id),
        [a.prizeId],
      );
    }
  });

  type Probe = (owner: Actor, intruder: Actor) => Promise<{ status: number; text: string; body: unknown }>;
  const probes: Array<[string, Probe, number[]]> = [
    ['GET /v1/entries/{id} (entry, award, lucky numbers)', (o, x) => s.request('GET', `/v1/entries/${o.entryId}`, { key: x.key }), [404]],
    [
      'POST /v1/entries/{id}/lucky-numbers',
      (o, x) =>
        s.request('POST', `/v1/entries/${o.entryId}/lucky-numbers`, {
          key: x.key,
          body: {
            numbers: [
              { series: '0', order_number: '00001' },
              { series: '0', order_number: '00002' },
            ],
          },
        }),
      [404],
    ],
    [
      'POST /v1/entries/{id}/instant-prize/revoke',
      (o, x) => s.request('POST', `/v1/entries/${o.entryId}/instant-prize/revoke`, { key: x.key, body: { reason: 'intrusion' } }),
      [404],
    ],
    [
      'POST /v1/entries/{id}/instant-prize/reassign (source of another scope)',
      (o, x) =>
        s.request('POST', `/v1/entries/${o.entryId}/instant-prize/reassign`, { key: x.key, body: { prize_definition_id: x.prizeId } }),
      [404],
    ],
    [
      'POST reassign with target_entry_id of another scope',
      (o, x) =>
        s.request('POST', `/v1/entries/${x.entryId}/instant-prize/reassign`, {
          key: x.key,
          body: { prize_definition_id: x.prizeId, target_entry_id: o.entryId },
        }),
      [404, 422],
    ],
    [
      'POST reassign to a prize of another scope',
      (o, x) =>
        s.request('POST', `/v1/entries/${x.entryId}/instant-prize/reassign`, { key: x.key, body: { prize_definition_id: o.prizeId } }),
      [404, 422],
    ],
    [
      'POST /v1/entries declaring a prize of another scope',
      (o, x) =>
        s.request('POST', '/v1/entries', {
          key: x.key,
          body: entryBody({ instant_win: { won: true, prize_definition_id: o.prizeId } }, 3),
          idempotencyKey: `foreign-prize-${o.name}`,
        }),
      [422],
    ],
  ];

  for (const ownerIndex of [0, 1]) {
    for (const intruderIndex of [0, 1, 2, 3]) {
      if (intruderIndex === ownerIndex) continue;
      test(`owner ${['A live', 'A test'][ownerIndex]} vs intruder ${['A live', 'A test', 'B live', 'B test'][intruderIndex]}`, async () => {
        const owner = actors[ownerIndex];
        const intruder = actors[intruderIndex];
        const before = ownerSnapshot(owner);
        for (const [name, probe, allowed] of probes) {
          const res = await probe(owner, intruder);
          assert.ok(allowed.includes(res.status), `${name}: expected ${allowed.join('/')} got ${res.status} ${res.text}`);
          assert.ok(!res.text.includes(owner.entryId), `${name}: the response names the owner's entry`);
          assert.ok(
            !res.text.includes(owner.prizeId) || name.includes('prize of another scope'),
            `${name}: the response names the owner's prize`,
          );
          assert.equal(ownerSnapshot(owner), before, `${name}: the owner's rows changed`);
        }
        const prizes = await s.request('GET', '/v1/prizes', { key: intruder.key });
        assert.equal(prizes.status, 200);
        assert.deepEqual(
          prizes.body.map((p: { id: string }) => p.id),
          [intruder.prizeId],
          'GET /v1/prizes lists only the caller scope',
        );
        // The same Idempotency-Key in another scope is a different entry, never a replay of the owner's.
        const replay = await s.request('POST', '/v1/entries', {
          key: intruder.key,
          body: entryBody({}, 0),
          idempotencyKey: owner.idempotencyKey,
        });
        assert.equal(replay.status, 202);
        assert.equal(replay.body.entry_id, intruder.entryId);
        // Webhook configuration: shared by the two modes of a campaign, invisible to another campaign.
        const hook = await s.request('GET', '/v1/webhook', { key: intruder.key });
        if (intruder.campaignId === owner.campaignId) {
          assert.equal(hook.status, 200, hook.text);
          assert.equal(hook.body.endpoint_url, 'https://a.example/hooks');
          assert.equal(hook.body.hmac_secret, undefined, 'GET never shows the secret');
        } else {
          assert.equal(hook.status, 404, hook.text);
          assert.ok(!hook.text.includes('a.example'));
        }
        assert.equal(ownerSnapshot(owner), before);
      });
    }
  }

  test("PATCH /v1/webhook by another campaign's key creates that campaign's own configuration and leaves A's alone", async () => {
    const owner = actors[0];
    const before = ownerSnapshot(owner);
    const res = await s.request('PATCH', '/v1/webhook', {
      key: actors[2].key,
      body: { endpoint_url: 'https://b.example/hooks', is_active: false },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.endpoint_url, 'https://b.example/hooks');
    assert.equal(ownerSnapshot(owner), before);
    const a = await s.request('GET', '/v1/webhook', { key: owner.key });
    assert.equal(a.body.endpoint_url, 'https://a.example/hooks');
    assert.equal(a.body.is_active, true);
    // And B's test key sees B's configuration, not A's.
    const bTest = await s.request('GET', '/v1/webhook', { key: actors[3].key });
    assert.equal(bTest.body.endpoint_url, 'https://b.example/hooks');
  });

  test('revoked keys and keys of a deleted scope see nothing: a revoked A key gets 401 everywhere', async () => {
    const { revokeKey } = await import('../src/keys/keys.ts');
    const { issueKey } = await import('../src/keys/keys.ts');
    const extra = issueKey(s.ctx, { campaignId: actors[0].campaignId, mode: 'live' }, OPERATOR);
    revokeKey(s.ctx, extra.id, OPERATOR);
    for (const [method, path] of [
      ['GET', `/v1/entries/${actors[0].entryId}`],
      ['GET', '/v1/prizes'],
      ['GET', '/v1/webhook'],
      ['POST', `/v1/entries/${actors[0].entryId}/instant-prize/revoke`],
    ]) {
      const res = await s.request(method, path, { key: extra.key, body: method === 'POST' ? {} : undefined });
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.ok(!res.text.includes(actors[0].entryId));
    }
  });
});
