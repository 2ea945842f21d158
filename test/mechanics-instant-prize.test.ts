// Instant prizes through the real server and pipeline: INTEGRATOR_DECLARED (intake validation,
// pending -> awarded with stock, declared loss, voided on rejection, wins beyond the pool) and
// WINDOW (time-gated windows claimed atomically, earliest first, one winner per window).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { updateCampaign } from '../src/campaigns/campaigns.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { listAwardHistory, findLatestAwardForEntry } from '../src/mechanics/awards.repo.ts';
import { addWindows, listPrizeWindows } from '../src/mechanics/windows.ts';
import { entryBody, makeCampaign, makePrize, startTestServer, type TestServer, OPERATOR } from './support/harness.ts';
import { mechanicOf, nextIndex, settle, stockOf, submitEntry, viewEntry } from './support/mechanics.ts';

describe('INTEGRATOR_DECLARED instant prize', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('a declared win is pending at intake, becomes awarded on evaluation (stock -1) and entry.evaluated confirms it', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 10, 'Gift card');
    const id = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
    assert.deepEqual((await viewEntry(s, w.liveKey, id)).award, {
      entry_id: id,
      won: true,
      prize_definition_id: prize.id,
      status: 'pending',
    });
    assert.equal(stockOf(s, prize.id).current_stock, 10, 'a pending win takes no unit');
    await settle(s);
    const m = await mechanicOf(s, w.liveKey, id, 'instant_prize');
    assert.deepEqual(m, {
      mechanic_type: 'instant_prize',
      status: 'APPROVED',
      outcome: { won: true, prize_definition_id: prize.id, prize_name: 'Gift card', award_status: 'AWARDED' },
    });
    assert.equal((await viewEntry(s, w.liveKey, id)).award.status, 'awarded');
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 9, awarded_beyond_pool: 0 });
    const award = findLatestAwardForEntry(s.ctx.db, id)!;
    assert.deepEqual(
      listAwardHistory(s.ctx.db, award.id).map((h) => [h.from_status, h.to_status, h.actor]),
      [
        [null, 'pending', `api_key:${w.liveKeyId}`],
        ['pending', 'awarded', 'system'],
      ],
    );
    // The event itself carries the same mechanics.
    const event = s.ctx.db
      .prepare(`SELECT payload FROM webhook_deliveries WHERE entry_id = ? AND event_type = 'entry.evaluated'`)
      .get(id) as { payload: string };
    assert.deepEqual(JSON.parse(event.payload).data.mechanics, [m]);
  });

  test('a declared loss gives REJECTED {won: false}, no award and no stock change', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 3);
    const id = await submitEntry(s, w.liveKey, { instantWin: { won: false } });
    await settle(s);
    assert.deepEqual(await mechanicOf(s, w.liveKey, id, 'instant_prize'), {
      mechanic_type: 'instant_prize',
      status: 'REJECTED',
      outcome: { won: false },
    });
    assert.equal((await viewEntry(s, w.liveKey, id)).award, null);
    assert.equal(stockOf(s, prize.id).current_stock, 3);
  });

  test('no instant_win block: entry.evaluated has no instant-prize mechanic', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const view = await viewEntry(s, w.liveKey, id);
    assert.equal(view.status, 'APPROVED');
    assert.deepEqual(view.mechanics, []);
  });

  test('an entry rejected in processing voids its pending win: no stock moves, no entry.evaluated', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'test', 2);
    const id = await submitEntry(s, w.testKey, { instantWin: { won: true, prize_definition_id: prize.id }, rejectInTest: true });
    await settle(s);
    const view = await viewEntry(s, w.testKey, id);
    assert.equal(view.status, 'REJECTED');
    assert.equal(view.mechanics, null);
    assert.equal(view.award.status, 'voided');
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 2, awarded_beyond_pool: 0 });
    const award = findLatestAwardForEntry(s.ctx.db, id)!;
    assert.deepEqual(
      listAwardHistory(s.ctx.db, award.id).map((h) => [h.from_status, h.to_status, h.actor, h.reason]),
      [
        [null, 'pending', `api_key:${w.testKeyId}`, 'declared at intake'],
        ['pending', 'voided', 'system', 'entry rejected'],
      ],
    );
    const evaluated = s.ctx.db
      .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE entry_id = ? AND event_type = 'entry.evaluated'`)
      .get(id) as { n: number };
    assert.equal(evaluated.n, 0);
  });

  // `ces campaign update` may change the mechanic while a declared win waits for evaluation. The
  // win was never confirmed: it is voided, and the entry is evaluated under the campaign's
  // mechanic as it is then. Before, the award stayed pending for good (none), or every evaluation
  // failed on the one-live-award index and was retried without end (WINDOW).
  for (const [after, mechanic] of [
    ['none', undefined],
    [
      'WINDOW',
      {
        mechanic_type: 'instant_prize',
        status: 'APPROVED',
        outcome: { won: true, prize_definition_id: '', prize_name: 'Window prize', award_status: 'AWARDED' },
      },
    ],
  ] as const) {
    test(`a declared win whose campaign turned ${after} before evaluation is voided; the entry is evaluated once, under ${after}`, async () => {
      const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
      const prize = makePrize(s.ctx, w.campaign.id, 'live', 2, 'Declared prize');
      const id = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
      updateCampaign(s.ctx, w.campaign.id, { instantPrize: after }, OPERATOR);
      const windowPrize = makePrize(s.ctx, w.campaign.id, 'live', 3, 'Window prize');
      if (after === 'WINDOW')
        addWindows(
          s.ctx,
          { campaignId: w.campaign.id, mode: 'live', prizeId: windowPrize.id, opensAt: new Date(s.clock.now() - 60_000).toISOString() },
          OPERATOR,
        );
      await settle(s);
      const view = await viewEntry(s, w.liveKey, id);
      assert.equal(view.status, 'APPROVED');
      assert.deepEqual(
        view.mechanics,
        mechanic ? [{ ...mechanic, outcome: { ...mechanic.outcome, prize_definition_id: windowPrize.id } }] : [],
      );
      const awards = s.ctx.db.prepare('SELECT source, status, prize_id FROM awards WHERE entry_id = ? ORDER BY created_at, rowid').all(id);
      assert.deepEqual(awards, [
        { source: 'declared', status: 'voided', prize_id: prize.id },
        ...(after === 'WINDOW' ? [{ source: 'window', status: 'awarded', prize_id: windowPrize.id }] : []),
      ]);
      const declared = s.ctx.db.prepare(`SELECT id FROM awards WHERE entry_id = ? AND source = 'declared'`).get(id) as { id: string };
      assert.deepEqual(
        listAwardHistory(s.ctx.db, declared.id)
          .slice(-1)
          .map((h) => [h.from_status, h.to_status, h.actor, h.reason]),
        [['pending', 'voided', 'system', 'the campaign no longer takes declared wins']],
      );
      assert.deepEqual(stockOf(s, prize.id), { current_stock: 2, awarded_beyond_pool: 0 });
      assert.equal(stockOf(s, windowPrize.id).current_stock, after === 'WINDOW' ? 2 : 3);
      const evaluated = s.ctx.db
        .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE entry_id = ? AND event_type = 'entry.evaluated'`)
        .get(id) as { n: number };
      assert.equal(evaluated.n, 1);
      assert.equal(s.ctx.db.prepare('SELECT count(*) AS n FROM jobs WHERE entry_id = ?').pluck().get(id), 0, 'no evaluation left to retry');
    });
  }

  test('a win reassigned onto an entry before evaluation stands when the campaign turns WINDOW: echoed, no window claimed beside it, evaluated once', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 2, 'Declared prize');
    const id = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } });
    const res = await s.request('POST', `/v1/entries/${id}/instant-prize/reassign`, {
      key: w.liveKey,
      body: { prize_definition_id: prize.id },
    });
    assert.equal(res.body.status, 'awarded', res.text);
    updateCampaign(s.ctx, w.campaign.id, { instantPrize: 'WINDOW' }, OPERATOR);
    const windowPrize = makePrize(s.ctx, w.campaign.id, 'live', 3, 'Window prize');
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: windowPrize.id, opensAt: new Date(s.clock.now() - 60_000).toISOString() },
      OPERATOR,
    );
    await settle(s);
    assert.deepEqual(await mechanicOf(s, w.liveKey, id, 'instant_prize'), {
      mechanic_type: 'instant_prize',
      status: 'APPROVED',
      outcome: { won: true, prize_definition_id: prize.id, prize_name: 'Declared prize', award_status: 'AWARDED' },
    });
    assert.equal(listPrizeWindows(s.ctx, w.campaign.id)[0].claimed_by_entry_id, null);
    assert.deepEqual([stockOf(s, prize.id).current_stock, stockOf(s, windowPrize.id).current_stock], [1, 3]);
    assert.equal(s.ctx.db.prepare('SELECT count(*) AS n FROM jobs WHERE entry_id = ?').pluck().get(id), 0, 'no evaluation left to retry');
  });

  test('an entry rejected at intake (fail-fast access key) voids its declared win at once: no stock moves', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 4);
    const i = nextIndex();
    const body = entryBody(
      {
        evidence: { access_key: makeAccessKey({ yymm: '2611', model: '99', number: String(100000000 + i).slice(-9) }) },
        instant_win: { won: true, prize_definition_id: prize.id },
      },
      i,
    );
    const atIntake = new Date(s.clock.now()).toISOString();
    const res = await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: `ff-win-${i}`, body });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.status, 'REJECTED');
    const id = res.body.entry_id as string;

    assert.deepEqual((await viewEntry(s, w.liveKey, id)).award, {
      entry_id: id,
      won: true,
      prize_definition_id: prize.id,
      status: 'voided',
    });
    assert.equal(s.ctx.db.prepare('SELECT count(*) FROM awards WHERE entry_id = ?').pluck().get(id), 1);
    const award = findLatestAwardForEntry(s.ctx.db, id)!;
    assert.deepEqual(listAwardHistory(s.ctx.db, award.id), [
      { from_status: null, to_status: 'pending', at: atIntake, actor: `api_key:${w.liveKeyId}`, reason: 'declared at intake' },
      { from_status: 'pending', to_status: 'voided', at: atIntake, actor: 'system', reason: 'entry rejected' },
    ]);
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 4, awarded_beyond_pool: 0 });

    // Nothing is queued for it: the pipeline leaves the award and the stock as they are.
    await settle(s);
    const view = await viewEntry(s, w.liveKey, id);
    assert.equal(view.status, 'REJECTED');
    assert.equal(view.mechanics, null);
    assert.equal(view.award.status, 'voided');
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 4, awarded_beyond_pool: 0 });
    const prizes = await s.request('GET', '/v1/prizes', { key: w.liveKey });
    assert.equal(prizes.body.find((p: { id: string }) => p.id === prize.id).current_stock, 4);
  });

  test('a win is never blocked by an empty pool: stock stays 0 and the extra wins are counted beyond the pool', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 1);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: prize.id } }));
    await settle(s);
    for (const id of ids) assert.equal((await mechanicOf(s, w.liveKey, id, 'instant_prize')).outcome.award_status, 'AWARDED');
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 0, awarded_beyond_pool: 2 });
    const prizes = await s.request('GET', '/v1/prizes', { key: w.liveKey });
    assert.equal(prizes.body[0].current_stock, 0);
  });

  test('intake: 422 unknown_prize for a prize of another campaign, of the other mode, or no prize at all', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const other = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const testPrize = makePrize(s.ctx, w.campaign.id, 'test');
    const otherPrize = makePrize(s.ctx, other.campaign.id, 'live');
    for (const prizeId of [testPrize.id, otherPrize.id, '0b0e5e4c-2f7a-4d7e-9a51-8f2c1d3e4b5a', 'not-a-uuid']) {
      const res = await s.request('POST', '/v1/entries', {
        key: w.liveKey,
        idempotencyKey: `u-${nextIndex()}`,
        body: entryBody({ instant_win: { won: true, prize_definition_id: prizeId } }, nextIndex()),
      });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.code, 'unknown_prize');
      assert.ok(
        res.body.errors.some((e: { code: string }) => e.code === 'unknown_prize'),
        res.text,
      );
    }
    const none = await s.request('GET', `/v1/prizes`, { key: w.liveKey });
    assert.deepEqual(none.body, [], 'nothing was stored by the refused entries');
  });

  test('intake: won true needs a prize, won false forbids one (422)', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live');
    for (const [win, code] of [
      [{ won: true }, 'required'],
      [{ won: false, prize_definition_id: prize.id }, 'not_allowed'],
    ] as const) {
      const res = await s.request('POST', '/v1/entries', {
        key: w.liveKey,
        idempotencyKey: `v-${nextIndex()}`,
        body: entryBody({ instant_win: win }, nextIndex()),
      });
      assert.equal(res.status, 422, res.text);
      assert.ok(
        res.body.errors.some((e: { field: string; code: string }) => e.field === 'instant_win.prize_definition_id' && e.code === code),
        res.text,
      );
    }
  });

  test('intake: 422 instant_win_not_allowed when the campaign has no declared mechanic (none and WINDOW)', async () => {
    for (const mode of ['none', 'WINDOW']) {
      const w = makeCampaign(s.ctx, { instantPrize: mode });
      const prize = makePrize(s.ctx, w.campaign.id, 'live');
      for (const win of [{ won: true, prize_definition_id: prize.id }, { won: false }]) {
        const res = await s.request('POST', '/v1/entries', {
          key: w.liveKey,
          idempotencyKey: `n-${nextIndex()}`,
          body: entryBody({ instant_win: win }, nextIndex()),
        });
        assert.equal(res.status, 422, res.text);
        assert.equal(res.body.code, 'instant_win_not_allowed');
      }
    }
  });
});

describe('WINDOW instant prize', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const windowCampaign = () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'WINDOW' });
    const prize = makePrize(s.ctx, w.campaign.id, 'live', 5, 'Headphones');
    return { w, prize };
  };

  test('before a window opens an entry loses; the first entry evaluated after it opens wins it (awarded, stock -1)', async () => {
    const { w, prize } = windowCampaign();
    const opensAt = new Date(s.clock.now() + 3_600_000).toISOString();
    addWindows(s.ctx, { campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt }, OPERATOR);
    const early = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.deepEqual(await mechanicOf(s, w.liveKey, early, 'instant_prize'), {
      mechanic_type: 'instant_prize',
      status: 'REJECTED',
      outcome: { won: false },
    });
    s.clock.advance(3_600_000);
    const winner = await submitEntry(s, w.liveKey);
    const late = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.deepEqual(await mechanicOf(s, w.liveKey, winner, 'instant_prize'), {
      mechanic_type: 'instant_prize',
      status: 'APPROVED',
      outcome: { won: true, prize_definition_id: prize.id, prize_name: 'Headphones', award_status: 'AWARDED' },
    });
    assert.deepEqual((await mechanicOf(s, w.liveKey, late, 'instant_prize')).outcome, { won: false });
    const award = findLatestAwardForEntry(s.ctx.db, winner)!;
    assert.equal(award.source, 'window');
    assert.equal(award.status, 'awarded');
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 4, awarded_beyond_pool: 0 });
    const [win] = listPrizeWindows(s.ctx, w.campaign.id, 'live');
    assert.equal(win.claimed_by_entry_id, winner);
    assert.equal(award.window_id, win.id);
  });

  test('one window, many entries evaluated in one tick: exactly one winner', async () => {
    const { w, prize } = windowCampaign();
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: new Date(s.clock.now()).toISOString() },
      OPERATOR,
    );
    const ids = [];
    for (let i = 0; i < 15; i++) ids.push(await submitEntry(s, w.liveKey));
    await settle(s);
    const outcomes = await Promise.all(ids.map((id) => mechanicOf(s, w.liveKey, id, 'instant_prize')));
    assert.equal(outcomes.filter((m) => m.outcome.won === true).length, 1);
    assert.equal(outcomes.filter((m) => m.status === 'REJECTED').length, 14);
    assert.deepEqual(stockOf(s, prize.id), { current_stock: 4, awarded_beyond_pool: 0 });
  });

  test('N windows at one time and N+3 entries in one tick: N distinct winners, each window claimed once', async () => {
    const { w, prize } = windowCampaign();
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: new Date(s.clock.now()).toISOString(), count: 4 },
      OPERATOR,
    );
    const ids = [];
    for (let i = 0; i < 7; i++) ids.push(await submitEntry(s, w.liveKey));
    await settle(s);
    const winners = ids.filter((id) => findLatestAwardForEntry(s.ctx.db, id)?.status === 'awarded');
    assert.equal(winners.length, 4);
    const windows = listPrizeWindows(s.ctx, w.campaign.id, 'live');
    assert.deepEqual(new Set(windows.map((x) => x.claimed_by_entry_id)), new Set(winners));
    assert.equal(new Set(winners.map((id) => findLatestAwardForEntry(s.ctx.db, id)!.window_id)).size, 4);
  });

  test('the earliest open window is claimed first, whatever its prize', async () => {
    const { w, prize } = windowCampaign();
    const other = makePrize(s.ctx, w.campaign.id, 'live', 5, 'Speaker');
    const now = s.clock.now();
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: new Date(now - 60_000).toISOString() },
      OPERATOR,
    );
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: other.id, opensAt: new Date(now - 120_000).toISOString() },
      OPERATOR,
    );
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.equal((await mechanicOf(s, w.liveKey, id, 'instant_prize')).outcome.prize_name, 'Speaker');
  });

  test('windows are per mode: a test-mode window is never claimed by a live entry', async () => {
    const { w } = windowCampaign();
    const testPrize = makePrize(s.ctx, w.campaign.id, 'test', 1);
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'test', prizeId: testPrize.id, opensAt: new Date(s.clock.now()).toISOString() },
      OPERATOR,
    );
    const live = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.equal((await mechanicOf(s, w.liveKey, live, 'instant_prize')).outcome.won, false);
    const testEntry = await submitEntry(s, w.testKey);
    await settle(s);
    assert.equal((await mechanicOf(s, w.testKey, testEntry, 'instant_prize')).outcome.won, true);
  });

  test('a rejected entry claims no window', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'WINDOW' });
    const prize = makePrize(s.ctx, w.campaign.id, 'test', 1);
    addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'test', prizeId: prize.id, opensAt: new Date(s.clock.now()).toISOString() },
      OPERATOR,
    );
    await submitEntry(s, w.testKey, { rejectInTest: true });
    await settle(s);
    assert.equal(listPrizeWindows(s.ctx, w.campaign.id, 'test')[0].claimed_by_entry_id, null);
  });

  test('spreading: --count with --every gives evenly spaced opens_at; with --until the last opens at --until', async () => {
    const { w, prize } = windowCampaign();
    const every = addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: '2026-12-01T00:00:00Z', count: 3, every: 3600 },
      OPERATOR,
    );
    assert.deepEqual(
      every.map((x) => x.opens_at),
      ['2026-12-01T00:00:00.000Z', '2026-12-01T01:00:00.000Z', '2026-12-01T02:00:00.000Z'],
    );
    const until = addWindows(
      s.ctx,
      {
        campaignId: w.campaign.id,
        mode: 'live',
        prizeId: prize.id,
        opensAt: '2026-12-02T00:00:00Z',
        count: 5,
        until: '2026-12-03T00:00:00Z',
      },
      OPERATOR,
    );
    assert.deepEqual(
      until.map((x) => x.opens_at),
      [
        '2026-12-02T00:00:00.000Z',
        '2026-12-02T06:00:00.000Z',
        '2026-12-02T12:00:00.000Z',
        '2026-12-02T18:00:00.000Z',
        '2026-12-03T00:00:00.000Z',
      ],
    );
    const same = addWindows(
      s.ctx,
      { campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: '2026-12-04T00:00:00Z', count: 2 },
      OPERATOR,
    );
    assert.deepEqual(
      same.map((x) => x.opens_at),
      ['2026-12-04T00:00:00.000Z', '2026-12-04T00:00:00.000Z'],
    );
  });

  test('window add refuses a campaign without WINDOW, a prize of the other mode, bad times and counts', () => {
    const { w, prize } = windowCampaign();
    const declared = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const declaredPrize = makePrize(s.ctx, declared.campaign.id, 'live');
    const cases: Array<[Parameters<typeof addWindows>[1], string]> = [
      [{ campaignId: declared.campaign.id, mode: 'live', prizeId: declaredPrize.id, opensAt: '2026-12-01T00:00:00Z' }, 'campaign'],
      [{ campaignId: w.campaign.id, mode: 'test', prizeId: prize.id, opensAt: '2026-12-01T00:00:00Z' }, 'prize'],
      [{ campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: 'tomorrow' }, 'opens_at'],
      [{ campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: '2026-12-01T00:00:00Z', count: 0 }, 'count'],
      [{ campaignId: w.campaign.id, mode: 'live', prizeId: prize.id, opensAt: '2026-12-01T00:00:00Z', count: 2, every: -5 }, 'every'],
      [
        {
          campaignId: w.campaign.id,
          mode: 'live',
          prizeId: prize.id,
          opensAt: '2026-12-01T00:00:00Z',
          count: 2,
          until: '2026-11-01T00:00:00Z',
        },
        'until',
      ],
      [
        {
          campaignId: w.campaign.id,
          mode: 'live',
          prizeId: prize.id,
          opensAt: '2026-12-01T00:00:00Z',
          count: 2,
          every: 5,
          until: '2026-12-02T00:00:00Z',
        },
        'every',
      ],
    ];
    for (const [input, field] of cases) {
      assert.throws(
        () => addWindows(s.ctx, input, OPERATOR),
        (e: { code?: string; errors?: Array<{ field: string }> }) =>
          e.code === 'invalid_window' && e.errors!.some((x) => x.field === field),
        field,
      );
    }
  });
});
