// docs/api.md#errors: every request body of the API, not only the entry's,
// answers a field it does not define with 422 validation_failed and one unknown_field error per
// field, listed beside the body's other violations; nothing is changed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeCampaign, makePrize, startTestServer, type TestServer } from './support/harness.ts';
import { assertProblem } from './support/assert.ts';
import { settle, submitEntry } from './support/mechanics.ts';

describe('unknown fields in every body', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('PATCH /v1/webhook: a misspelt is_active is refused and the configuration stays as it was', async () => {
    const w = makeCampaign(s.ctx);
    const res = await s.request('PATCH', '/v1/webhook', {
      key: w.liveKey,
      body: { endpoint_url: 'https://hooks.example.com/x', is_actve: false },
    });
    assertProblem(res, 422, 'validation_failed', [['is_actve', 'unknown_field']]);
    assert.equal((await s.request('GET', '/v1/webhook', { key: w.liveKey })).status, 404, 'nothing was configured');
  });

  test('POST lucky-numbers: an unknown field in an item is listed beside a bad order_number', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const res = await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
      key: w.liveKey,
      body: {
        numbers: [
          { series: '0', order_number: '1234', serie: '1' },
          { series: '0', order_number: '00002' },
        ],
        note: 'x',
      },
    });
    assertProblem(res, 422, 'validation_failed', [
      ['numbers[0].order_number', 'invalid_order_number'],
      ['numbers[0].serie', 'unknown_field'],
      ['note', 'unknown_field'],
    ]);
    const ok = await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
      key: w.liveKey,
      body: {
        numbers: [
          { series: '0', order_number: '00001' },
          { series: '0', order_number: '00002' },
        ],
      },
    });
    assert.equal(ok.status, 201, 'the refused request took nothing');
  });

  test('instant-prize revoke and reassign: unknown fields are refused before anything changes', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 5);
    const id = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
    await settle(s);
    const revoke = await s.request('POST', `/v1/entries/${id}/instant-prize/revoke`, { key: w.liveKey, body: { reason: 'x', reasn: 'y' } });
    assertProblem(revoke, 422, 'validation_failed', [['reasn', 'unknown_field']]);
    const reassign = await s.request('POST', `/v1/entries/${id}/instant-prize/reassign`, {
      key: w.liveKey,
      body: { prize_definition_id: prize.id, target_entry: id },
    });
    assertProblem(reassign, 422, 'validation_failed', [['target_entry', 'unknown_field']]);
    const award = s.ctx.db.prepare('SELECT status FROM awards WHERE entry_id = ?').get(id) as { status: string };
    assert.equal(award.status, 'awarded');
  });
});
