// GET /v1/events and award.updated (docs/api.md#listing-events-get-v1events): the events of the
// key's campaign and mode, newest first, exactly as sent, including those recorded while the
// webhook was paused; an operator's revoke pushes award.updated; the API's own revoke pushes
// nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assert as assertStruct } from 'superstruct';
import { AwardUpdatedEventStruct } from '../../src/openapi/schemas.ts';
import { assertProblem } from '../support/assert.ts';
import { configureWebhook, drainAll, makeCampaign, makePrize, runCli, startTestServer, type TestServer } from '../support/harness.ts';
import { settle, submitEntry } from '../support/mechanics.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

describe('GET /v1/events', () => {
  let s: TestServer;
  let receiver: Receiver;
  before(async () => {
    s = await startTestServer();
    receiver = await startReceiver();
  });
  after(async () => {
    await s.close();
    await receiver.close();
  });

  test('events recorded while the webhook was paused are listed, newest first, exactly as a delivery carries them', async () => {
    const w = makeCampaign(s.ctx);
    receiver.setSecret(await configureWebhook(s, w.liveKey, receiver.url));
    const sent = await submitEntry(s, w.liveKey);
    await drainAll(s);
    await receiver.waitFor((reqs) => reqs.filter((r) => r.json?.data?.entry_id === sent).length === 3);
    assert.equal((await s.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { is_active: false } })).status, 200);
    const paused = await submitEntry(s, w.liveKey);
    await drainAll(s);
    const page = await s.request('GET', '/v1/events', { key: w.liveKey });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      page.body.data.map((e: { event_type: string; data: { entry_id: string } }) => [e.event_type, e.data.entry_id]),
      [
        ['entry.evaluated', paused],
        ['entry.completed', paused],
        ['entry.received', paused],
        ['entry.evaluated', sent],
        ['entry.completed', sent],
        ['entry.received', sent],
      ],
    );
    assert.equal(page.body.has_more, false);
    const delivered = receiver.requests.filter((r) => r.json?.data?.entry_id === sent).map((r) => r.json);
    assert.deepEqual(page.body.data.slice(3).reverse(), delivered, 'the listing is the envelope as delivered');
    assert.equal(receiver.requests.filter((r) => r.json?.data?.entry_id === paused).length, 0, 'paused: never sent');
  });

  test('pages with starting_after and has_more; filters by type and entry; the other mode and campaign see nothing', async () => {
    const w = makeCampaign(s.ctx);
    const other = makeCampaign(s.ctx);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await submitEntry(s, w.liveKey));
    await submitEntry(s, w.testKey);
    await drainAll(s);
    const all: string[] = [];
    let after: string | null = null;
    for (;;) {
      const res = await s.request('GET', `/v1/events?limit=2${after ? `&starting_after=${after}` : ''}`, { key: w.liveKey });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.data.length <= 2);
      all.push(...res.body.data.map((e: { id: string }) => e.id));
      if (!res.body.has_more) break;
      after = res.body.data.at(-1).id;
    }
    assert.equal(all.length, 9, 'three entries, three events each');
    assert.equal(new Set(all).size, 9);
    const byType = await s.request('GET', '/v1/events?type=entry.received', { key: w.liveKey });
    assert.deepEqual(
      byType.body.data.map((e: { data: { entry_id: string } }) => e.data.entry_id),
      [...ids].reverse(),
    );
    const byEntry = await s.request('GET', `/v1/events?entry_id=${ids[1]!.toUpperCase()}`, { key: w.liveKey });
    assert.deepEqual(
      byEntry.body.data.map((e: { event_type: string }) => e.event_type),
      ['entry.evaluated', 'entry.completed', 'entry.received'],
    );
    assert.equal((await s.request('GET', '/v1/events', { key: w.testKey })).body.data.length, 3, 'the test mode has its own');
    assert.deepEqual((await s.request('GET', '/v1/events', { key: other.liveKey })).body, { data: [], has_more: false });
    const foreign = await s.request('GET', `/v1/events?starting_after=${all[0]}`, { key: other.liveKey });
    assertProblem(foreign, 422, 'validation_failed', [['starting_after', 'unknown_event']]);
  });

  test('a bad query lists every violation at once', async () => {
    const w = makeCampaign(s.ctx);
    const res = await s.request('GET', '/v1/events?limit=101&type=entry.deleted&entry_id=x&starting_after=evt_nope&sort=asc', {
      key: w.liveKey,
    });
    assertProblem(res, 422, 'validation_failed', [
      ['sort', 'unknown_field'],
      ['limit', 'invalid_value'],
      ['type', 'invalid_value'],
      ['entry_id', 'invalid_value'],
      ['starting_after', 'unknown_event'],
    ]);
    for (const limit of ['0', '-1', '1.5', 'ten', ''])
      assert.equal((await s.request('GET', `/v1/events?limit=${limit}`, { key: w.liveKey })).status, 422, limit);
    assert.equal((await s.request('GET', '/v1/events', { key: null })).status, 401);
  });
});

describe('award.updated', () => {
  let s: TestServer;
  let receiver: Receiver;
  before(async () => {
    s = await startTestServer();
    receiver = await startReceiver();
  });
  after(async () => {
    await s.close();
    await receiver.close();
  });

  test("an operator's revoke sends award.updated with the award as GET /v1/entries shows it; the API's own revoke sends none", async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    receiver.setSecret(await configureWebhook(s, w.liveKey, receiver.url));
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 5);
    const byOperator = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
    const byApi = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
    await settle(s);
    const cli = await runCli(['award', 'revoke', byOperator, '--reason', 'fraud', '--json'], { dbPath: s.dbPath });
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal((await s.request('POST', `/v1/entries/${byApi}/instant-prize/revoke`, { key: w.liveKey, body: {} })).status, 200);
    await drainAll(s);
    await receiver.waitFor((reqs) => reqs.some((r) => r.json?.event_type === 'award.updated'));
    const updates = receiver.requests.filter((r) => r.json?.event_type === 'award.updated');
    assert.equal(updates.length, 1, 'only the operator revoke');
    assert.equal(updates[0]!.signatureMatches, true);
    assertStruct(updates[0]!.json, AwardUpdatedEventStruct);
    const view = await s.request('GET', `/v1/entries/${byOperator}`, { key: w.liveKey });
    assert.deepEqual(updates[0]!.json.data, { entry_id: byOperator, enrollment_id: view.body.enrollment_id, award: view.body.award });
    assert.equal(view.body.award.status, 'revoked');
    const listed = await s.request('GET', '/v1/events?type=award.updated', { key: w.liveKey });
    assert.deepEqual(listed.body.data, [updates[0]!.json]);
    const again = await runCli(['award', 'revoke', byOperator, '--json'], { dbPath: s.dbPath });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(
      (await s.request('GET', '/v1/events?type=award.updated', { key: w.liveKey })).body.data.length,
      1,
      'a revoke that changes nothing sends nothing',
    );
  });
});
