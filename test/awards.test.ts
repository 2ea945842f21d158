// POST /v1/entries/{id}/instant-prize/revoke and /reassign through the real server: the stock
// arithmetic across award, revoke, revoke again and reassign (same entry and target entry), wins
// beyond the pool, history, every error and the cross-campaign / cross-mode 404s.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { iterateExportRows } from '../src/exports/exports.repo.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import {
  findLatestAwardForEntry,
  findLiveAwardForEntry,
  listAwardHistory,
  listAwards,
  listAwardsOfEntry,
} from '../src/mechanics/awards.repo.ts';
import { listAwardsOfEnrollment } from '../src/participants/participants.repo.ts';
import { drainAll, entryBody, makeCampaign, makePrize, startTestServer, type TestServer, type World } from './support/harness.ts';
import { mechanicOf, nextIndex, settle, stockOf, submitEntry, viewEntry } from './support/mechanics.ts';

describe('instant-prize revoke and reassign', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const revoke = (key: string, id: string, body?: unknown) => s.request('POST', `/v1/entries/${id}/instant-prize/revoke`, { key, body });
  const reassign = (key: string, id: string, body: unknown) => s.request('POST', `/v1/entries/${id}/instant-prize/reassign`, { key, body });
  const deliveries = (id: string) =>
    (s.ctx.db.prepare('SELECT count(*) AS n FROM webhook_deliveries WHERE entry_id = ?').get(id) as { n: number }).n;

  /** A declared campaign with prizes P (stock 2) and Q (stock 1) and entries A (won P), B, C (no win), all evaluated. */
  async function world(): Promise<{ w: World; p: string; q: string; a: string; b: string; c: string }> {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 2, 'P').id;
    const q = makePrize(s.ctx, w.campaign.id, 'live', 1, 'Q').id;
    const a = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    const b = await submitEntry(s, w.liveKey);
    const c = await submitEntry(s, w.liveKey, { instantWin: { won: false } });
    await settle(s);
    return { w, p, q, a, b, c };
  }

  test('stock across award, revoke, revoke again, reassign on the same entry and to a target entry', async () => {
    const { w, p, q, a, b } = await world();
    assert.deepEqual(stockOf(s, p), { current_stock: 1, awarded_beyond_pool: 0 });
    const before = deliveries(a) + deliveries(b);

    const r1 = await revoke(w.liveKey, a, { reason: 'participant disqualified' });
    assert.equal(r1.status, 200, r1.text);
    assert.deepEqual(r1.body, { entry_id: a, won: true, prize_definition_id: p, status: 'revoked' });
    assert.equal(stockOf(s, p).current_stock, 2, 'the unit returns');

    const r2 = await revoke(w.liveKey, a, { reason: 'again' });
    assert.equal(r2.status, 200);
    assert.deepEqual(r2.body, r1.body);
    assert.equal(stockOf(s, p).current_stock, 2, 'revoking again returns nothing more');

    // Reassign on the same entry (latest award revoked): a new award of Q, unit of Q taken.
    const r3 = await reassign(w.liveKey, a, { prize_definition_id: q });
    assert.equal(r3.status, 200, r3.text);
    assert.deepEqual(r3.body, { entry_id: a, won: true, prize_definition_id: q, status: 'awarded' });
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [2, 0]);

    // Reassign A's Q win to entry B as a P win: Q returns, P is taken.
    const r4 = await reassign(w.liveKey, a, { target_entry_id: b, prize_definition_id: p });
    assert.equal(r4.status, 200, r4.text);
    assert.deepEqual(r4.body, { entry_id: b, won: true, prize_definition_id: p, status: 'awarded' });
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [1, 1]);
    assert.equal((await viewEntry(s, w.liveKey, a)).award.status, 'revoked');
    assert.equal((await viewEntry(s, w.liveKey, b)).award.status, 'awarded');

    // Reassign on the same entry while awarded: the old prize's unit returns, the new one is taken.
    const r5 = await reassign(w.liveKey, b, { prize_definition_id: q });
    assert.equal(r5.status, 200, r5.text);
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [2, 0]);
    assert.deepEqual(
      listAwardsOfEntry(s.ctx.db, b).map((x) => [x.prize_id, x.status]),
      [
        [p, 'revoked'],
        [q, 'awarded'],
      ],
    );

    // History: every transition with time, actor (the API key) and reason.
    const history = listAwardsOfEntry(s.ctx.db, a).map((x) =>
      listAwardHistory(s.ctx.db, x.id).map((h) => [h.from_status, h.to_status, h.actor, h.reason]),
    );
    const actor = `api_key:${w.liveKeyId}`;
    assert.deepEqual(history, [
      [
        [null, 'pending', actor, 'declared at intake'],
        ['pending', 'awarded', 'system', 'entry approved'],
        ['awarded', 'revoked', actor, 'participant disqualified'],
      ],
      [
        [null, 'awarded', actor, `reassigned from award ${listAwardsOfEntry(s.ctx.db, a)[0].id} of entry ${a}`],
        ['awarded', 'revoked', actor, `reassigned to entry ${b}`],
      ],
    ]);
    assert.ok(listAwardHistory(s.ctx.db, listAwardsOfEntry(s.ctx.db, a)[0].id).every((h) => h.at === '2026-11-22T12:00:00.000Z'));
    assert.equal(deliveries(a) + deliveries(b), before, 'revoke and reassign emit no webhook');
  });

  test('revoke with no body, an empty body or an empty object works; a bad reason is 422; a non-JSON body is 415', async () => {
    const { w, a, b } = await world();
    const noBody = await s.request('POST', `/v1/entries/${a}/instant-prize/revoke`, { key: w.liveKey });
    assert.equal(noBody.status, 200, noBody.text);
    const history = listAwardHistory(s.ctx.db, findLatestAwardForEntry(s.ctx.db, a)!.id);
    assert.equal(history.at(-1)!.reason, null);
    const bad = await revoke(w.liveKey, a, { reason: 42 });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.code, 'validation_failed');
    const text = await s.request('POST', `/v1/entries/${a}/instant-prize/revoke`, {
      key: w.liveKey,
      raw: 'reason',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.status, 415);
    void b;
  });

  test('reassign errors: 422 validation_failed, 422 unknown_prize, 404 target, 422 target_not_processed, 409 award_exists', async () => {
    const { w, p, a, b, c } = await world();
    const other = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const otherPrize = makePrize(s.ctx, other.campaign.id, 'live').id;
    const testPrize = makePrize(s.ctx, w.campaign.id, 'test').id;
    const otherEntry = await submitEntry(s, other.liveKey);
    const testEntry = await submitEntry(s, w.testKey);
    const pending = await submitEntry(s, w.liveKey);
    await settle(s);
    const rejected = await submitEntry(s, w.testKey, { rejectInTest: true });
    const withWin = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    await settle(s);
    const pendingNow = await submitEntry(s, w.liveKey);
    const stock = stockOf(s, p);
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, 'validation_failed'],
      [{ prize_definition_id: 7 }, 422, 'validation_failed'],
      [{ prize_definition_id: p, target_entry_id: 7 }, 422, 'validation_failed'],
      [{ prize_definition_id: otherPrize }, 422, 'unknown_prize'],
      [{ prize_definition_id: testPrize }, 422, 'unknown_prize'],
      [{ prize_definition_id: 'garbage' }, 422, 'unknown_prize'],
      [{ prize_definition_id: p, target_entry_id: otherEntry }, 404, 'not_found'],
      [{ prize_definition_id: p, target_entry_id: testEntry }, 404, 'not_found'],
      [{ prize_definition_id: p, target_entry_id: 'nope' }, 404, 'not_found'],
      [{ prize_definition_id: p, target_entry_id: pendingNow }, 422, 'target_not_processed'],
      [{ prize_definition_id: p, target_entry_id: withWin }, 409, 'award_exists'],
    ];
    for (const [body, status, code] of cases) {
      const res = await reassign(w.liveKey, a, body);
      assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.code, code, JSON.stringify(body));
    }
    // A REJECTED target has not finished processing as APPROVED (test mode: its own key and prize).
    const testWin = await submitEntry(s, w.testKey, { instantWin: { won: true, prize_definition_id: testPrize } });
    await settle(s);
    assert.equal((await viewEntry(s, w.testKey, rejected)).status, 'REJECTED');
    const r = await reassign(w.testKey, testWin, { prize_definition_id: testPrize, target_entry_id: rejected });
    assert.equal(r.status, 422);
    assert.equal(r.body.code, 'target_not_processed');
    // Nothing moved and A still holds its win.
    assert.deepEqual(stockOf(s, p), stock);
    assert.equal(findLatestAwardForEntry(s.ctx.db, a)!.status, 'awarded');
    // Targets that are fine: an approved entry with a declared loss (c) and one with no declaration (pending, now approved).
    assert.equal((await reassign(w.liveKey, a, { prize_definition_id: p, target_entry_id: c })).status, 200);
    assert.equal((await reassign(w.liveKey, c, { prize_definition_id: p, target_entry_id: pending })).status, 200);
    // b is approved without an award: it cannot be a source.
    assert.equal((await reassign(w.liveKey, b, { prize_definition_id: p })).status, 404);
    // docs/api.md#prizes-stock-and-awards: the target has no award. One whose win was revoked still has one (409, naming it).
    const revokedWin = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    await settle(s);
    assert.equal((await revoke(w.liveKey, revokedWin, {})).status, 200);
    const onRevoked = await reassign(w.liveKey, pending, { prize_definition_id: p, target_entry_id: revokedWin });
    assert.equal(onRevoked.status, 409, onRevoked.text);
    assert.equal(onRevoked.body.code, 'award_exists');
    assert.match(onRevoked.body.detail, /already has an award \(revoked\)/);
    assert.equal(findLatestAwardForEntry(s.ctx.db, pending)!.status, 'awarded', 'the source keeps its win');
  });

  test('ids are uuids read case-insensitively: upper-case entry ids in the path and the body, and prize ids, act on the same rows', async () => {
    const { w, p, q, a, b } = await world();
    const A = a.toUpperCase();
    const read = await s.request('GET', `/v1/entries/${A}`, { key: w.liveKey });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.entry_id, a);
    const same = await reassign(w.liveKey, A, { prize_definition_id: q.toUpperCase() });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual([same.body.entry_id, same.body.prize_definition_id, same.body.status], [a, q, 'awarded']);
    const moved = await reassign(w.liveKey, a, { prize_definition_id: p.toUpperCase(), target_entry_id: b.toUpperCase() });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual([moved.body.entry_id, moved.body.prize_definition_id], [b, p]);
    const revoked = await revoke(w.liveKey, b.toUpperCase(), {});
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.status, 'revoked');
  });

  test('revoke and reassign: 404 for no award, unknown ids, another campaign and the other mode', async () => {
    const { w, p, a, b } = await world();
    const other = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    for (const [key, id] of [
      [w.liveKey, b],
      [w.liveKey, '8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'],
      [w.liveKey, 'x'],
      [other.liveKey, a],
      [w.testKey, a],
    ]) {
      for (const res of [await revoke(key, id, {}), await reassign(key, id, { prize_definition_id: p })]) {
        assert.equal(res.status, 404, `${id}: ${res.text}`);
        assert.equal(res.body.code, 'not_found');
      }
    }
    assert.equal(findLatestAwardForEntry(s.ctx.db, a)!.status, 'awarded');
    assert.equal((await revoke(w.liveKey, a, {})).status, 200, 'the owner can still revoke');
  });

  test('a win moves once: reassigning again from the entry it left is 404 and copies nothing; a win revoked by the integrator can be re-registered once', async () => {
    const { w, p, a, b, c } = await world();
    // A's win moves to B.
    const moved = await reassign(w.liveKey, a, { target_entry_id: b, prize_definition_id: p });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(stockOf(s, p).current_stock, 1);

    // Again from A (its latest award is the revoked one that moved): refused, nothing changes.
    const again = await reassign(w.liveKey, a, { target_entry_id: c, prize_definition_id: p });
    assert.equal(again.status, 404, again.text);
    assert.equal(again.body.code, 'not_found');
    assert.match(again.body.detail, new RegExp(`reassigned to entry ${b}`));
    const sameEntry = await reassign(w.liveKey, a, { prize_definition_id: p });
    assert.equal(sameEntry.status, 404, 'nor back onto A itself');
    assert.equal((await viewEntry(s, w.liveKey, c)).award, null);
    assert.equal(stockOf(s, p).current_stock, 1, 'no unit taken');
    const live = s.ctx.db
      .prepare("SELECT count(*) FROM awards WHERE campaign_id = ? AND status IN ('pending', 'awarded')")
      .pluck()
      .get(w.campaign.id);
    assert.equal(live, 1, 'one live win, on B');
    // Revoking A again is still the idempotent 200.
    assert.equal((await revoke(w.liveKey, a, {})).status, 200);

    // B's integrator revokes the win, then re-registers it on C: allowed once, from B.
    assert.equal((await revoke(w.liveKey, b, { reason: 'ineligible' })).status, 200);
    const regiven = await reassign(w.liveKey, b, { target_entry_id: c, prize_definition_id: p });
    assert.equal(regiven.status, 200, regiven.text);
    assert.equal((await reassign(w.liveKey, b, { prize_definition_id: p })).status, 404, "B's win already went to C");
    assert.equal(stockOf(s, p).current_stock, 1);

    // The database holds at most one re-registration of an award, whatever the code does.
    const source = listAwardsOfEntry(s.ctx.db, a)[0].id;
    assert.throws(
      () =>
        s.ctx.db
          .prepare(
            `INSERT INTO awards (id, entry_id, campaign_id, livemode, prize_id, source, status, created_at, updated_at, reassigned_from)
      VALUES ('copy', ?, ?, 1, ?, 'reassign', 'revoked', 'x', 'x', ?)`,
          )
          .run(c, w.campaign.id, p, source),
      /UNIQUE constraint failed: awards.reassigned_from/,
    );
  });

  test('422 instant_prize_not_declared in campaigns without the declared mechanic (none, WINDOW)', async () => {
    for (const mode of ['none', 'WINDOW']) {
      const w = makeCampaign(s.ctx, { instantPrize: mode });
      const p = makePrize(s.ctx, w.campaign.id, 'live').id;
      const id = await submitEntry(s, w.liveKey);
      await settle(s);
      for (const res of [await revoke(w.liveKey, id, {}), await reassign(w.liveKey, id, { prize_definition_id: p })]) {
        assert.equal(res.status, 422);
        assert.equal(res.body.code, 'instant_prize_not_declared');
      }
    }
  });

  test('revoke of a pending award (entry not evaluated yet) is 422 award_not_final; a voided one is 422 award_not_revocable for both', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'test', 1).id;
    const pending = await submitEntry(s, w.testKey, { instantWin: { won: true, prize_definition_id: p } });
    const res = await revoke(w.testKey, pending, {});
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'award_not_final');
    assert.equal(findLatestAwardForEntry(s.ctx.db, pending)!.status, 'pending');
    const voided = await submitEntry(s, w.testKey, { instantWin: { won: true, prize_definition_id: p }, rejectInTest: true });
    await settle(s);
    for (const res of [await revoke(w.testKey, voided, {}), await reassign(w.testKey, voided, { prize_definition_id: p })]) {
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'award_not_revocable');
    }
    assert.deepEqual(stockOf(s, p), { current_stock: 0, awarded_beyond_pool: 0 });
  });

  // docs/api.md: reassign acts on any existing award, a pending one included; the new award
  // is `awarded` (unit taken), the source revoked (a pending one never took a unit to return).
  test("reassign of a pending award on its own entry: awarded at once with the new prize, echoed by the entry's evaluation; no webhook", async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 3, 'P').id;
    const q = makePrize(s.ctx, w.campaign.id, 'live', 3, 'Q').id;
    const id = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    const events = deliveries(id);
    const res = await reassign(w.liveKey, id, { prize_definition_id: q });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { entry_id: id, won: true, prize_definition_id: q, status: 'awarded' });
    assert.deepEqual(
      [stockOf(s, p).current_stock, stockOf(s, q).current_stock],
      [3, 2],
      'the pending win held no unit; the new one takes one',
    );
    assert.equal(deliveries(id), events, 'reassign emits no webhook');

    await settle(s);
    assert.deepEqual(await mechanicOf(s, w.liveKey, id, 'instant_prize'), {
      mechanic_type: 'instant_prize',
      status: 'APPROVED',
      outcome: { won: true, prize_definition_id: q, prize_name: 'Q', award_status: 'AWARDED' },
    });
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [3, 2], 'evaluation takes no second unit');
    const actor = `api_key:${w.liveKeyId}`;
    const awards = listAwardsOfEntry(s.ctx.db, id);
    assert.deepEqual(
      awards.map((x) => [x.prize_id, x.status]),
      [
        [p, 'revoked'],
        [q, 'awarded'],
      ],
    );
    assert.deepEqual(
      listAwardHistory(s.ctx.db, awards[0].id).map((h) => [h.from_status, h.to_status, h.actor, h.reason]),
      [
        [null, 'pending', actor, 'declared at intake'],
        ['pending', 'revoked', actor, `reassigned to prize ${q}`],
      ],
    );
    assert.deepEqual(
      listAwardHistory(s.ctx.db, awards[1].id).map((h) => [h.from_status, h.to_status, h.actor]),
      [[null, 'awarded', actor]],
    );
  });

  test('reassign of a pending award on its own entry, then the entry is rejected in processing: the new win is voided and its unit returns', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'test', 2, 'P').id;
    const q = makePrize(s.ctx, w.campaign.id, 'test', 2, 'Q').id;
    const id = await submitEntry(s, w.testKey, { instantWin: { won: true, prize_definition_id: p }, rejectInTest: true });
    const events = deliveries(id);
    assert.equal((await reassign(w.testKey, id, { prize_definition_id: q })).status, 200);
    assert.equal(stockOf(s, q).current_stock, 1);
    assert.equal(deliveries(id), events, 'reassign emits no webhook');
    await settle(s);
    assert.equal((await viewEntry(s, w.testKey, id)).status, 'REJECTED');
    const awards = listAwardsOfEntry(s.ctx.db, id);
    assert.deepEqual(
      awards.map((x) => [x.prize_id, x.status]),
      [
        [p, 'revoked'],
        [q, 'voided'],
      ],
    );
    assert.deepEqual(listAwardHistory(s.ctx.db, awards[1].id).at(-1), {
      from_status: 'awarded',
      to_status: 'voided',
      at: listAwardHistory(s.ctx.db, awards[1].id).at(-1)!.at,
      actor: 'system',
      reason: 'entry rejected',
    });
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [2, 2]);
  });

  test('a revoked win of an entry processing then rejected cannot be re-registered on that entry (422 entry_rejected), only moved to an APPROVED one', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'test', 2, 'P').id;
    const approved = await submitEntry(s, w.testKey);
    await settle(s);
    const id = await submitEntry(s, w.testKey, { instantWin: { won: true, prize_definition_id: p }, rejectInTest: true });
    assert.equal((await reassign(w.testKey, id, { prize_definition_id: p })).status, 200);
    assert.equal((await revoke(w.testKey, id, {})).status, 200);
    await settle(s);
    assert.equal((await viewEntry(s, w.testKey, id)).status, 'REJECTED');
    assert.equal(stockOf(s, p).current_stock, 2);
    for (const body of [{ prize_definition_id: p }, { prize_definition_id: p, target_entry_id: id }]) {
      const res = await reassign(w.testKey, id, body);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.code, 'entry_rejected');
    }
    assert.deepEqual(
      listAwardsOfEntry(s.ctx.db, id).map((x) => x.status),
      ['revoked', 'revoked'],
      'nothing written',
    );
    assert.equal(stockOf(s, p).current_stock, 2);
    const moved = await reassign(w.testKey, id, { prize_definition_id: p, target_entry_id: approved });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(moved.body, { entry_id: approved, won: true, prize_definition_id: p, status: 'awarded' });
  });

  test('reassign of a pending award to another entry: awarded there at once (unit taken); the source entry evaluates to the revoked win', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 2, 'P').id;
    const target = await submitEntry(s, w.liveKey);
    await settle(s);
    const source = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    const events = deliveries(source) + deliveries(target);
    const res = await reassign(w.liveKey, source, { prize_definition_id: p, target_entry_id: target });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { entry_id: target, won: true, prize_definition_id: p, status: 'awarded' });
    assert.equal(stockOf(s, p).current_stock, 1);
    assert.equal(deliveries(source) + deliveries(target), events, 'reassign emits no webhook');
    await settle(s);
    assert.deepEqual((await mechanicOf(s, w.liveKey, source, 'instant_prize')).outcome, {
      won: false,
      prize_definition_id: p,
      prize_name: 'P',
      award_status: 'REVOKED',
    });
    assert.equal(stockOf(s, p).current_stock, 1, "the source entry's evaluation takes nothing");
    // The win moved once: the source entry has none left to give.
    const twice = await reassign(w.liveKey, source, { prize_definition_id: p });
    assert.equal(twice.status, 404);
    assert.match(twice.body.detail, new RegExp(`reassigned to entry ${target}`));
  });

  test('beyond the pool: revoking an uncovered win returns no unit; revoking a covered one passes its unit to the uncovered win', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 1).id;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } }));
    await settle(s);
    assert.deepEqual(stockOf(s, p), { current_stock: 0, awarded_beyond_pool: 2 });
    const covered = ids.find((id) => findLatestAwardForEntry(s.ctx.db, id)!.beyond_pool === 0)!;
    const uncovered = ids.filter((id) => id !== covered);
    await revoke(w.liveKey, uncovered[1], {});
    assert.deepEqual(stockOf(s, p), { current_stock: 0, awarded_beyond_pool: 1 });
    await revoke(w.liveKey, covered, {});
    assert.deepEqual(stockOf(s, p), { current_stock: 0, awarded_beyond_pool: 0 });
    assert.equal(findLatestAwardForEntry(s.ctx.db, uncovered[0])!.beyond_pool, 0, 'the remaining win now holds the unit');
    await revoke(w.liveKey, uncovered[0], {});
    assert.deepEqual(stockOf(s, p), { current_stock: 1, awarded_beyond_pool: 0 });
  });

  test('concurrent reassigns of different wins to one target: one 200, the rest 409 award_exists', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 10).id;
    const sources = [];
    for (let i = 0; i < 5; i++) sources.push(await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } }));
    const target = await submitEntry(s, w.liveKey);
    await settle(s);
    const results = await Promise.all(sources.map((id) => reassign(w.liveKey, id, { prize_definition_id: p, target_entry_id: target })));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 409 && r.body.code === 'award_exists').length, 4);
    // 5 won, one moved to the target: still 5 awarded units.
    assert.deepEqual(stockOf(s, p), { current_stock: 5, awarded_beyond_pool: 0 });
  });
  test('a target_entry_id naming the entry itself is the same as none: the win stays there with the new prize', async () => {
    const { w, p, q, a } = await world();
    const res = await reassign(w.liveKey, a, { prize_definition_id: q, target_entry_id: a.toUpperCase() });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { entry_id: a, won: true, prize_definition_id: q, status: 'awarded' });
    assert.deepEqual(
      listAwardsOfEntry(s.ctx.db, a).map((x) => [x.prize_id, x.status]),
      [
        [p, 'revoked'],
        [q, 'awarded'],
      ],
    );
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [2, 0]);
  });

  test('after the clock steps back, wins keep the order they were registered in: the returned unit goes to the first uncovered one, and the listings follow it', async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 1, 'P').id;
    const covered = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    await settle(s);
    // One participant's two wins, the second sent after an NTP step back of a minute.
    const i = nextIndex();
    const send = async (n: string, key: string): Promise<string> => {
      const res = await s.request('POST', '/v1/entries', {
        key: w.liveKey,
        idempotencyKey: key,
        body: entryBody(
          { instant_win: { won: true, prize_definition_id: p }, evidence: { access_key: makeAccessKey({ yymm: '2611', number: n }) } },
          i,
        ),
      });
      assert.equal(res.status, 202, res.text);
      return res.body.entry_id;
    };
    const first = await send('000000701', 'order-1');
    s.clock.advance(-60_000);
    const second = await send('000000702', 'order-2');
    await settle(s);
    assert.deepEqual(stockOf(s, p), { current_stock: 0, awarded_beyond_pool: 2 });
    assert.ok(
      findLatestAwardForEntry(s.ctx.db, second)!.created_at < findLatestAwardForEntry(s.ctx.db, first)!.created_at,
      'the second win is older by the clock',
    );

    assert.equal((await revoke(w.liveKey, covered, {})).status, 200);
    assert.deepEqual(
      [findLatestAwardForEntry(s.ctx.db, first)!.beyond_pool, findLatestAwardForEntry(s.ctx.db, second)!.beyond_pool],
      [0, 1],
      'the unit went to the win registered first',
    );
    assert.deepEqual(
      listAwards(s.ctx.db, { campaignId: w.campaign.id }).map((a) => a.entry_id),
      [covered, first, second],
    );
    const enrollment = s.ctx.db.prepare('SELECT enrollment_id FROM entries WHERE id = ?').pluck().get(first) as string;
    assert.deepEqual(
      listAwardsOfEnrollment(s.ctx.db, enrollment).map((a) => a.entry_id),
      [first, second],
    );
  });

  // Found by the award property test: evaluation echoed only a declared win, so a win moved onto an
  // entry that declared a loss (or nothing) and whose evaluation was still to run was reported lost.
  test('a win reassigned onto an APPROVED entry whose evaluation is still to run (a retry) is echoed by it, whatever the entry declared', async () => {
    for (const instantWin of [{ won: false }, undefined]) {
      const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
      const p = makePrize(s.ctx, w.campaign.id, 'live', 2, 'P').id;
      const a = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
      await settle(s);
      const c = await submitEntry(s, w.liveKey, { instantWin });
      // C's first evaluation fails, so C is APPROVED and waits for the evaluate job's retry.
      s.ctx.db.exec(`CREATE TEMP TRIGGER fail_eval BEFORE UPDATE OF mechanics ON entries WHEN NEW.id = '${c}'
        BEGIN SELECT RAISE(ABORT, 'injected evaluation failure'); END`);
      await drainAll(s, { advance: false });
      s.ctx.db.exec('DROP TRIGGER fail_eval');
      const waiting = await viewEntry(s, w.liveKey, c);
      assert.deepEqual([waiting.status, waiting.mechanics], ['APPROVED', null], 'approved, not evaluated yet');
      const moved = await reassign(w.liveKey, a, { prize_definition_id: p, target_entry_id: c });
      assert.equal(moved.status, 200, moved.text);
      await settle(s);
      assert.equal(findLiveAwardForEntry(s.ctx.db, c)?.status, 'awarded');
      assert.deepEqual(
        await mechanicOf(s, w.liveKey, c, 'instant_prize'),
        {
          mechanic_type: 'instant_prize',
          status: 'APPROVED',
          outcome: { won: true, prize_definition_id: p, prize_name: 'P', award_status: 'AWARDED' },
        },
        `declared ${JSON.stringify(instantWin)}`,
      );
      assert.equal(stockOf(s, p).current_stock, 1, 'the evaluation takes no second unit');
    }
  });

  // Found by the award property test: "latest" was the latest created_at, a wall-clock time, so after
  // the clock stepped back the revoked award stayed "latest" and the new win could not be taken back.
  test("after the wall clock steps back, the entry's latest award is still the one registered last: GET, revoke and reassign act on it", async () => {
    const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const p = makePrize(s.ctx, w.campaign.id, 'live', 1, 'P').id;
    const q = makePrize(s.ctx, w.campaign.id, 'live', 1, 'Q').id;
    const a = await submitEntry(s, w.liveKey, { instantWin: { won: true, prize_definition_id: p } });
    await settle(s);
    s.clock.advance(-1000); // an NTP step back of one second
    const r = await reassign(w.liveKey, a, { prize_definition_id: q });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.body.prize_definition_id, r.body.status], [q, 'awarded']);
    assert.deepEqual((await viewEntry(s, w.liveKey, a)).award, { entry_id: a, won: true, prize_definition_id: q, status: 'awarded' });
    const rv = await revoke(w.liveKey, a, { reason: 'fraud' });
    assert.equal(rv.status, 200, rv.text);
    assert.deepEqual([rv.body.prize_definition_id, rv.body.status], [q, 'revoked']);
    assert.equal(findLiveAwardForEntry(s.ctx.db, a), undefined);
    assert.deepEqual([stockOf(s, p).current_stock, stockOf(s, q).current_stock], [1, 1], 'both units are back');
    assert.deepEqual(
      listAwardsOfEntry(s.ctx.db, a).map((x) => x.prize_id),
      [p, q],
      'listed in the order registered',
    );
    s.clock.advance(-1000);
    const again = await reassign(w.liveKey, a, { prize_definition_id: p });
    assert.equal(again.status, 200, again.text);
    assert.equal(findLatestAwardForEntry(s.ctx.db, a)?.id, findLiveAwardForEntry(s.ctx.db, a)?.id);
    assert.deepEqual(
      listAwardsOfEntry(s.ctx.db, a).map((x) => [x.prize_id, x.status]),
      [
        [p, 'revoked'],
        [q, 'revoked'],
        [p, 'awarded'],
      ],
    );
    const [row] = [...iterateExportRows(s.ctx.db, { campaignId: w.campaign.id })];
    assert.deepEqual([row.award_status, row.award_prize_id], ['awarded', p], 'entries export shows the same latest award');
  });
});
