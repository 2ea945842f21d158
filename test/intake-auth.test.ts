// POST /v1/entries and GET /v1/entries/{id}: who may call (docs/api.md#api-overview) and when
// registration is open (403). The campaign and mode of every request come from the key alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { updateCampaign } from '../src/campaigns/campaigns.ts';
import { entryBody, makeCampaign, runCli, startTestServer, type TestServer, type World, OPERATOR } from './support/harness.ts';
import { assertProblem } from './support/assert.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

let seq = 0;
const idem = (): string => `auth-${++seq}`;
const post = async (key: string | null, body: unknown = entryBody({}, seq % 8), headers: Record<string, string> = {}) => {
  const idempotencyKey = idem();
  return { ...(await s.request('POST', '/v1/entries', { key, body, idempotencyKey, headers })), idem: idempotencyKey };
};

const countEntries = (): number => (s.ctx.db.prepare('SELECT count(*) AS n FROM entries').get() as { n: number }).n;

describe('401: missing or invalid API key', () => {
  let w: World;
  before(() => {
    w = makeCampaign(s.ctx);
  });

  const cases: Array<[string, (w: World) => Record<string, string>]> = [
    ['no Authorization header', () => ({})],
    ['empty Authorization header', () => ({ authorization: '' })],
    ['Basic scheme instead of Bearer', (w) => ({ authorization: `Basic ${w.liveKey}` })],
    ['Bearer without a key', () => ({ authorization: 'Bearer ' })],
    ['the key without the Bearer word', (w) => ({ authorization: w.liveKey })],
    ['two tokens after Bearer', (w) => ({ authorization: `Bearer ${w.liveKey} extra` })],
    ['an unknown key with the live prefix', () => ({ authorization: `Bearer service_live_${'A'.repeat(43)}` })],
    ['an unknown key with the test prefix', () => ({ authorization: `Bearer service_test_${'A'.repeat(43)}` })],
    ['a key without a known prefix', (w) => ({ authorization: `Bearer ${w.liveKey.replace('service_live_', 'service_prod_')}` })],
    [
      'a live key with its prefix changed to test',
      (w) => ({ authorization: `Bearer ${w.liveKey.replace('service_live_', 'service_test_')}` }),
    ],
    [
      'a valid key with one character changed',
      (w) => ({ authorization: `Bearer ${w.liveKey.slice(0, -1)}${w.liveKey.endsWith('A') ? 'B' : 'A'}` }),
    ],
    ['a valid key truncated', (w) => ({ authorization: `Bearer ${w.liveKey.slice(0, -1)}` })],
    ['a very long key', () => ({ authorization: `Bearer service_live_${'x'.repeat(5000)}` })],
  ];
  // RFC 9110: a 401 carries a challenge. RFC 6750: no error code when no bearer credentials were
  // sent (none, or another scheme), error="invalid_token" for a bearer token we refuse.
  const noBearer = new Set([
    'no Authorization header',
    'empty Authorization header',
    'Basic scheme instead of Bearer',
    'the key without the Bearer word',
  ]);
  for (const [name, headers] of cases) {
    test(`POST with ${name} gives 401 invalid_api_key with a Bearer challenge and writes nothing`, async () => {
      const before = countEntries();
      const res = await s.request('POST', '/v1/entries', { body: entryBody(), idempotencyKey: idem(), headers: headers(w) });
      assertProblem(res, 401, 'invalid_api_key');
      assert.equal(
        res.headers.get('www-authenticate'),
        noBearer.has(name) ? 'Bearer realm="ces"' : 'Bearer realm="ces", error="invalid_token"',
      );
      assert.equal(countEntries(), before);
    });
  }

  test('GET /v1/entries/{id} without a key gives 401, not 404', async () => {
    const ok = await post(w.liveKey);
    assert.equal(ok.status, 202);
    assertProblem(await s.request('GET', `/v1/entries/${ok.body.entry_id}`), 401, 'invalid_api_key');
    assertProblem(await s.request('GET', `/v1/entries/${ok.body.entry_id}`, { key: 'service_live_nope' }), 401, 'invalid_api_key');
  });

  test('authentication comes before every other check: no key and no Idempotency-Key still gives 401', async () => {
    const res = await s.request('POST', '/v1/entries', { raw: 'not json' });
    assertProblem(res, 401, 'invalid_api_key');
  });

  test('the Bearer word is case-insensitive', async () => {
    const res = await s.request('POST', '/v1/entries', {
      body: entryBody(),
      idempotencyKey: idem(),
      headers: { authorization: `bearer ${w.testKey}` },
    });
    assert.equal(res.status, 202, res.text);
  });
});

describe('401: revoked keys and keys of a vanished campaign', () => {
  test('a key revoked with `ces key revoke` gives 401 on POST and GET; the other keys keep working', async () => {
    const w = makeCampaign(s.ctx);
    const first = await post(w.liveKey);
    assert.equal(first.status, 202);
    const revoked = await runCli(['key', 'revoke', w.liveKeyId, '--json'], { dbPath: s.dbPath });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.json.id, w.liveKeyId);
    assert.match(revoked.json.revoked_at, /^\d{4}-\d{2}-\d{2}T/);
    // The CLI stamps the revocation with the wall clock; the server runs on a ManualClock. Make
    // sure the server's "now" is not before that instant, whatever day the suite runs.
    const start = s.clock.now();
    s.clock.set(Math.max(start, Date.parse(revoked.json.revoked_at)));
    try {
      const refused = await post(w.liveKey);
      assertProblem(refused, 401, 'invalid_api_key');
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="ces", error="invalid_token"');
      assertProblem(await s.request('GET', `/v1/entries/${first.body.entry_id}`, { key: w.liveKey }), 401, 'invalid_api_key');
      // Replaying the idempotency key of an accepted entry does not get around a revocation either.
      assertProblem(
        await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody(), idempotencyKey: first.idem }),
        401,
        'invalid_api_key',
      );
      assert.equal((await post(w.testKey)).status, 202);
    } finally {
      s.clock.set(start);
    }
  });

  test('a key whose campaign row no longer exists gives 401, not 5xx', async () => {
    const w = makeCampaign(s.ctx);
    const db = s.ctx.db;
    // Campaigns are never deleted by ces; simulate an operator deleting the row by hand.
    db.pragma('foreign_keys = OFF');
    try {
      db.prepare('DELETE FROM campaigns WHERE id = ?').run(w.campaign.id);
    } finally {
      db.pragma('foreign_keys = ON');
    }
    const res = await post(w.liveKey);
    assertProblem(res, 401, 'invalid_api_key');
    assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="ces", error="invalid_token"');
  });
});

describe('the campaign and mode of a request come from the key', () => {
  test("an entry is stored in the key's campaign and mode, and is invisible (404) to every other key", async () => {
    const a = makeCampaign(s.ctx);
    const b = makeCampaign(s.ctx);
    const res = await post(a.testKey);
    assert.equal(res.status, 202);
    const row = s.ctx.db.prepare('SELECT campaign_id, livemode, api_key_id FROM entries WHERE id = ?').get(res.body.entry_id);
    assert.deepEqual(row, { campaign_id: a.campaign.id, livemode: 0, api_key_id: a.testKeyId });

    const own = await s.request('GET', `/v1/entries/${res.body.entry_id}`, { key: a.testKey });
    assert.equal(own.status, 200);
    assert.equal(own.body.entry_id, res.body.entry_id);
    assert.equal(own.body.livemode, false);
    for (const key of [a.liveKey, b.testKey, b.liveKey]) {
      assertProblem(await s.request('GET', `/v1/entries/${res.body.entry_id}`, { key }), 404, 'not_found');
    }
  });

  test('a body that names another campaign is refused, and changes nothing: the key decides', async () => {
    const a = makeCampaign(s.ctx);
    const b = makeCampaign(s.ctx);
    const res = await post(a.liveKey, { ...entryBody(), campaign_id: b.campaign.id, livemode: false });
    assert.equal(res.status, 422);
    assert.deepEqual(
      res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
      [
        ['campaign_id', 'unknown_field'],
        ['livemode', 'unknown_field'],
      ],
    );
    assert.equal((s.ctx.db.prepare('SELECT count(*) AS n FROM entries WHERE campaign_id = ?').get(b.campaign.id) as { n: number }).n, 0);
  });

  test('an unknown entry id and a non-uuid id are 404', async () => {
    const w = makeCampaign(s.ctx);
    assertProblem(await s.request('GET', '/v1/entries/00000000-0000-4000-8000-000000000000', { key: w.liveKey }), 404, 'not_found');
    assertProblem(await s.request('GET', '/v1/entries/not-a-uuid', { key: w.liveKey }), 404, 'not_found');
  });

  test('GET /v1/entries/{id} returns the documented read shape', async () => {
    const w = makeCampaign(s.ctx);
    const res = await post(w.liveKey);
    const got = await s.request('GET', `/v1/entries/${res.body.entry_id}`, { key: w.liveKey });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'application/json; charset=utf-8');
    const enrollment = s.ctx.db.prepare('SELECT enrollment_id FROM entries WHERE id = ?').get(res.body.entry_id) as {
      enrollment_id: string;
    };
    assert.deepEqual(got.body, {
      entry_id: res.body.entry_id,
      enrollment_id: enrollment.enrollment_id,
      livemode: true,
      status: 'PENDING',
      rejection_reasons: [],
      mechanics: null,
      award: null,
      lucky_numbers: [],
      created_at: '2026-11-22T12:00:00.000Z',
      processed_at: null,
      evaluated_at: null,
    });
  });
});

describe('403 registration_closed', () => {
  test('before starts_at, from starts_at to ends_at open, at and after ends_at closed (ManualClock)', async () => {
    const w = makeCampaign(s.ctx, { startsAt: '2026-11-22T13:00:00Z', endsAt: '2026-11-22T14:00:00Z' });
    s.clock.set('2026-11-22T12:59:59.999Z');
    try {
      const before = countEntries();
      const early = await post(w.liveKey);
      assertProblem(early, 403, 'registration_closed');
      assert.match(early.body.detail, /opens at 2026-11-22T13:00:00.000Z/);
      assert.equal(countEntries(), before);

      s.clock.set('2026-11-22T13:00:00.000Z');
      assert.equal((await post(w.liveKey)).status, 202);
      s.clock.set('2026-11-22T13:59:59.999Z');
      assert.equal((await post(w.testKey)).status, 202);

      s.clock.set('2026-11-22T14:00:00.000Z');
      const late = await post(w.liveKey);
      assertProblem(late, 403, 'registration_closed');
      assert.match(late.body.detail, /closed at 2026-11-22T14:00:00.000Z/);
      s.clock.advance(86_400_000);
      assertProblem(await post(w.testKey), 403, 'registration_closed');
    } finally {
      s.clock.set('2026-11-22T12:00:00.000Z');
    }
  });

  test('a campaign with --no-api-enabled gives 403 registration_closed until it is enabled again', async () => {
    const w = makeCampaign(s.ctx, { apiEnabled: false });
    const res = await post(w.liveKey);
    assertProblem(res, 403, 'registration_closed');
    assert.match(res.body.detail, /API channel/);
    updateCampaign(s.ctx, w.campaign.id, { apiEnabled: true }, OPERATOR);
    const open = await post(w.liveKey);
    assert.equal(open.status, 202, open.text);
  });

  test('403 comes before body validation: an invalid body on a closed campaign is still 403', async () => {
    const w = makeCampaign(s.ctx, { apiEnabled: false });
    assertProblem(await post(w.liveKey, { nothing: true }), 403, 'registration_closed');
  });

  test('a replay after the window closed still answers 202 with the original entry', async () => {
    const w = makeCampaign(s.ctx, { endsAt: '2026-11-22T15:00:00Z' });
    const first = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody(), idempotencyKey: 'retry-after-close' });
    assert.equal(first.status, 202);
    s.clock.set('2026-11-22T16:00:00Z');
    try {
      const retry = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody(), idempotencyKey: 'retry-after-close' });
      assert.equal(retry.status, 202);
      assert.equal(retry.body.entry_id, first.body.entry_id);
      assertProblem(
        await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody(), idempotencyKey: 'new-after-close' }),
        403,
        'registration_closed',
      );
    } finally {
      s.clock.set('2026-11-22T12:00:00.000Z');
    }
  });
});
