// Lucky numbers through the real server and pipeline: automatic allocation (shape, uniqueness,
// exhaustion, one last free pair under concurrency, series_count changes) and the manual
// endpoint with every rule and error of docs/api.md, in the documented order of checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { updateCampaign } from '../src/campaigns/campaigns.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { allocateLuckyNumbers, newStepBudget } from '../src/mechanics/lucky-numbers.ts';
import { monotonicMs } from '../src/kernel/clock.ts';
import { drainJobs, emptyJobStats } from '../src/pipeline/jobs.ts';
import { listLuckyNumbersForEntry } from '../src/mechanics/lucky-numbers.repo.ts';
import { seededRandom, type Random } from '../src/kernel/random.ts';
import { makeCampaign, startTestServer, type TestServer, OPERATOR } from './support/harness.ts';
import { mechanicOf, settle, submitEntry, viewEntry } from './support/mechanics.ts';

const NOW = '2026-11-22T12:00:00.000Z';

/** A random source whose int() always answers `pick(max)`: makes the pool's draws predictable. */
function fixedRandom(pick: (max: number) => number): Random {
  const base = seededRandom(7);
  return { ...base, int: pick };
}

function allocate(ctx: Ctx, campaignId: string, entryId: string, quantity: number, seriesCount: number) {
  return ctx.db.transaction(() => allocateLuckyNumbers(ctx, { campaignId, livemode: 1, seriesCount, entryId, quantity, now: NOW }))();
}

/**
 * Puts the campaign's pool in the state that `n` draws leave when each drew the boundary position
 * (pairs 0..n-1 held by `entryId`, no swaps): a valid lazy Fisher-Yates state, written in bulk
 * because 100,000 single allocations would take seconds (the benchmark measures those).
 */
function fillPool(s: TestServer, campaignId: string, entryId: string, n: number): void {
  s.ctx.db.transaction(() => {
    s.ctx.db
      .prepare(
        `WITH RECURSIVE v(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM v WHERE x + 1 < ?)
      INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
      SELECT ?, 1, x / 100000, x % 100000, ?, 'auto', ? FROM v`,
      )
      .run(n, campaignId, entryId, NOW);
    s.ctx.db.prepare('INSERT INTO lucky_pools (campaign_id, livemode, size, drawn) VALUES (?, 1, 100000, ?)').run(campaignId, n);
  })();
}

function countPairs(s: TestServer, campaignId: string): number {
  return (s.ctx.db.prepare('SELECT count(*) AS n FROM lucky_numbers WHERE campaign_id = ?').get(campaignId) as { n: number }).n;
}

describe('automatic lucky numbers', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('an approved entry gets lucky_quantity pairs in outcome.numbers: string series, 5-digit order_number, unique in the campaign', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 5, seriesCount: 3 });
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await submitEntry(s, w.liveKey));
    await settle(s);
    const seen = new Set<string>();
    for (const id of ids) {
      const m = await mechanicOf(s, w.liveKey, id, 'lucky_numbers');
      assert.equal(m.status, 'APPROVED');
      assert.deepEqual(Object.keys(m.outcome), ['numbers']);
      assert.equal(m.outcome.numbers.length, 5);
      for (const n of m.outcome.numbers) {
        assert.match(n.series, /^[0-2]$/);
        assert.match(n.order_number, /^\d{5}$/);
        const k = `${n.series}/${n.order_number}`;
        assert.ok(!seen.has(k), `pair ${k} given twice`);
        seen.add(k);
      }
      // The entry view lists the same pairs the event carried.
      const view = await viewEntry(s, w.liveKey, id);
      assert.deepEqual(
        new Set(view.lucky_numbers.map((n: { series: string; order_number: string }) => `${n.series}/${n.order_number}`)),
        new Set(m.outcome.numbers.map((n: { series: string; order_number: string }) => `${n.series}/${n.order_number}`)),
      );
    }
    assert.equal(countPairs(s, w.campaign.id), 40);
  });

  test('a rejected entry gets no lucky numbers and no entry.evaluated', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto' });
    const id = await submitEntry(s, w.testKey, { rejectInTest: true });
    await settle(s);
    const view = await viewEntry(s, w.testKey, id);
    assert.equal(view.status, 'REJECTED');
    assert.equal(view.mechanics, null);
    assert.deepEqual(view.lucky_numbers, []);
  });

  test('draws are spread uniformly over the series (4 series, 4000 draws: each within 4 sigma of 1000)', async () => {
    const w = makeCampaign(s.ctx, {});
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const r = allocate(s.ctx, w.campaign.id, id, 4000, 4);
    assert.ok(r.ok);
    const perSeries = [0, 0, 0, 0];
    for (const p of r.pairs) perSeries[p.series]++;
    for (const n of perSeries) assert.ok(Math.abs(n - 1000) < 110, `series counts ${perSeries}`);
  });

  test('one last free pair, many entries evaluated in one tick: exactly one wins it, the others are REJECTED pool_exhausted', async () => {
    const w = makeCampaign(s.ctx, {});
    const filler = await submitEntry(s, w.liveKey);
    await settle(s);
    updateCampaign(s.ctx, w.campaign.id, { luckyNumbers: 'auto', luckyQuantity: 1, seriesCount: 1 }, OPERATOR);
    fillPool(s, w.campaign.id, filler, 99_999);
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await submitEntry(s, w.liveKey));
    await settle(s);
    const outcomes = await Promise.all(ids.map((id) => mechanicOf(s, w.liveKey, id, 'lucky_numbers')));
    const winners = outcomes.filter((m) => m.status === 'APPROVED');
    assert.equal(winners.length, 1);
    assert.equal(winners[0].outcome.numbers.length, 1);
    for (const m of outcomes.filter((o) => o.status === 'REJECTED')) {
      assert.deepEqual(m.outcome, { reason: 'pool_exhausted', quantity: 1, available: 0, pool_size: 100_000 });
    }
    assert.equal(countPairs(s, w.campaign.id), 100_000);
    // The winner got the one pair the filler did not hold.
    assert.deepEqual(winners[0].outcome.numbers, [{ series: '0', order_number: '99999' }]);
    assert.equal(listLuckyNumbersForEntry(s.ctx.db, filler).length, 99_999);
  });

  test('all or nothing: 2 free pairs and quantity 3 rejects the mechanic and stores no partial allocation', async () => {
    const w = makeCampaign(s.ctx, {});
    const filler = await submitEntry(s, w.liveKey);
    await settle(s);
    updateCampaign(s.ctx, w.campaign.id, { luckyNumbers: 'auto', luckyQuantity: 3 }, OPERATOR);
    fillPool(s, w.campaign.id, filler, 99_998);
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const m = await mechanicOf(s, w.liveKey, id, 'lucky_numbers');
    assert.equal(m.status, 'REJECTED');
    assert.deepEqual(m.outcome, { reason: 'pool_exhausted', quantity: 3, available: 2, pool_size: 100_000 });
    assert.deepEqual((await viewEntry(s, w.liveKey, id)).lucky_numbers, []);
    assert.equal(countPairs(s, w.campaign.id), 99_998);
  });

  test('a pair already held (manual numbers from before a switch to auto) is skipped, never given twice', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2 });
    const a = await submitEntry(s, w.liveKey);
    const b = await submitEntry(s, w.liveKey);
    await settle(s);
    const res = await s.request('POST', `/v1/entries/${a}/lucky-numbers`, {
      key: w.liveKey,
      body: {
        numbers: [
          { series: '0', order_number: '00000' },
          { series: '0', order_number: '00001' },
        ],
      },
    });
    assert.equal(res.status, 201, res.text);
    // int() -> 0 makes the pool hand out 0, 1, 2, ... in order: 0 and 1 are held and must be skipped.
    const ctx = { ...s.ctx, random: fixedRandom(() => 0) };
    const r = allocate(ctx, w.campaign.id, b, 1, 1);
    assert.deepEqual(r, { ok: true, pairs: [{ series: 0, order_number: 2 }] });
  });

  test('series_count grows: the new series join the pool; it shrinks: the pool is rebuilt and never draws out of range or a held pair', async () => {
    const w = makeCampaign(s.ctx, {});
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await submitEntry(s, w.liveKey));
    await settle(s);
    const low = { ...s.ctx, random: fixedRandom(() => 0) };
    const high = { ...s.ctx, random: fixedRandom((max) => max - 1) };
    assert.deepEqual(allocate(low, w.campaign.id, ids[0], 2, 1), {
      ok: true,
      pairs: [
        { series: 0, order_number: 0 },
        { series: 0, order_number: 1 },
      ],
    });
    // Grown to 2 series: the last position of the pool is now pair (1, 99999).
    assert.deepEqual(allocate(high, w.campaign.id, ids[1], 1, 2), { ok: true, pairs: [{ series: 1, order_number: 99_999 }] });
    // Shrunk back to 1: rebuilt from scratch, so 0 and 1 come up again and are skipped as held.
    assert.deepEqual(allocate(low, w.campaign.id, ids[2], 1, 1), { ok: true, pairs: [{ series: 0, order_number: 2 }] });
  });

  test('a re-run allocation for an entry that already holds numbers returns them and draws nothing', async () => {
    const w = makeCampaign(s.ctx, {});
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const first = allocate(s.ctx, w.campaign.id, id, 3, 1);
    const again = allocate(s.ctx, w.campaign.id, id, 3, 1);
    assert.ok(first.ok && again.ok);
    assert.deepEqual(new Set(again.pairs.map((p) => p.order_number)), new Set(first.pairs.map((p) => p.order_number)));
    assert.equal(countPairs(s, w.campaign.id), 3);
  });
});

describe('held pairs are skipped a bounded number at a time', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const drawnOf = (campaignId: string): number =>
    (s.ctx.db.prepare('SELECT drawn FROM lucky_pools WHERE campaign_id = ?').get(campaignId) as { drawn: number } | undefined)?.drawn ?? 0;
  const evaluated = (id: string): boolean =>
    (s.ctx.db.prepare('SELECT evaluated_at FROM entries WHERE id = ?').get(id) as { evaluated_at: string | null }).evaluated_at !== null;

  test("back to auto with 9,990 manual pairs among the 10,000 undrawn: the walk spreads over transactions, another campaign's entry is evaluated in the first, no free pair is lost", async () => {
    const a = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1 });
    const filler = await submitEntry(s, a.liveKey);
    await settle(s);
    // An automatic phase left the boundary at 90,000 without swaps (the pairs it drew are left out:
    // a pool never reads behind its boundary), then a manual one took 90,000..99,989: 10 free
    // pairs are left among the 10,000 undrawn positions.
    s.ctx.db.transaction(() => {
      s.ctx.db
        .prepare(
          `WITH RECURSIVE v(x) AS (SELECT 90000 UNION ALL SELECT x + 1 FROM v WHERE x + 1 < 99990)
          INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
          SELECT ?, 1, 0, x, ?, 'manual', ? FROM v`,
        )
        .run(a.campaign.id, filler, NOW);
      s.ctx.db.prepare('INSERT INTO lucky_pools (campaign_id, livemode, size, drawn) VALUES (?, 1, 100000, 90000)').run(a.campaign.id);
    })();
    updateCampaign(s.ctx, a.campaign.id, { luckyNumbers: 'auto', luckyQuantity: 5, seriesCount: 1 }, OPERATOR);
    const b = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 1, seriesCount: 1 });
    const ids = [await submitEntry(s, a.liveKey), await submitEntry(s, a.liveKey), await submitEntry(s, a.liveKey)];
    const other = await submitEntry(s, b.liveKey);

    // Between two transactions (the pause the tick rests in): what each committed.
    const seen: Array<{ drawn: number; aDone: number; otherDone: boolean }> = [];
    const stats = emptyJobStats();
    await drainJobs(s.ctx, stats, {
      maxJobs: 10_000,
      chunkSize: 25,
      pause: async () => {
        seen.push({ drawn: drawnOf(a.campaign.id), aDone: ids.filter(evaluated).length, otherDone: evaluated(other) });
      },
    });
    assert.ok(seen.length >= 15, `${seen.length} transactions`);
    assert.deepEqual(seen[0], { drawn: seen[0].drawn, aDone: 0, otherDone: true });
    let previous = 90_000;
    for (const step of seen) {
      // A transaction skips at most its steps, plus the free pairs it draws (15 at most here).
      assert.ok(step.drawn - previous <= 500 + 16, `${step.drawn - previous} draws in one transaction`);
      previous = step.drawn;
    }
    assert.ok(stats.evaluationsDeferred > 0);

    // Pairs drawn for an entry whose evaluation was deferred went back: the 10 free pairs go to
    // the first two entries, and the third finds the pool empty.
    const outcomes = await Promise.all(ids.map((id) => mechanicOf(s, a.liveKey, id, 'lucky_numbers')));
    assert.deepEqual(
      outcomes.map((m) => m.status),
      ['APPROVED', 'APPROVED', 'REJECTED'],
    );
    assert.deepEqual(outcomes[2].outcome, { reason: 'pool_exhausted', quantity: 5, available: 0, pool_size: 100_000 });
    const given = outcomes.slice(0, 2).flatMap((m) => m.outcome.numbers.map((n: { order_number: string }) => Number(n.order_number)));
    assert.deepEqual(
      given.sort((x, y) => x - y),
      [99_990, 99_991, 99_992, 99_993, 99_994, 99_995, 99_996, 99_997, 99_998, 99_999],
    );
    assert.equal(countPairs(s, a.campaign.id), 10_000);
  });

  test('a transaction whose time for skipping has run out skips one held pair and defers: a walk on a file read from disk stays short too', async () => {
    const a = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1 });
    const filler = await submitEntry(s, a.liveKey);
    await settle(s);
    s.ctx.db
      .prepare(
        `WITH RECURSIVE v(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM v WHERE x + 1 < 99990)
        INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
        SELECT ?, 1, 0, x, ?, 'manual', ? FROM v`,
      )
      .run(a.campaign.id, filler, NOW);
    updateCampaign(s.ctx, a.campaign.id, { luckyNumbers: 'auto', seriesCount: 1 }, OPERATOR);
    const entry = await submitEntry(s, a.liveKey);
    const input = { campaignId: a.campaign.id, livemode: 1, seriesCount: 1, entryId: entry, quantity: 1, now: NOW };
    const late = newStepBudget();
    late.until = monotonicMs() - 1;
    const deferred = s.ctx.db.transaction(() => allocateLuckyNumbers(s.ctx, input, late))();
    assert.deepEqual(deferred, { ok: false, deferred: true });
    assert.equal(drawnOf(a.campaign.id), 1, 'one skip, then the time had run out');
    // With time left, the step count bounds it as before.
    const fresh = newStepBudget();
    fresh.until = Number.POSITIVE_INFINITY;
    s.ctx.db.transaction(() => allocateLuckyNumbers(s.ctx, input, fresh))();
    assert.ok(drawnOf(a.campaign.id) >= 501 || listLuckyNumbersForEntry(s.ctx.db, entry).length === 1);
  });

  test('series_count lowered: the old pool is cleared a bounded number of swaps per transaction before the new one draws', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 1, seriesCount: 2 });
    const id = await submitEntry(s, w.liveKey);
    // A pool of 2 series that 5,000 draws left with 5,000 swaps (written in bulk).
    s.ctx.db.prepare('INSERT INTO lucky_pools (campaign_id, livemode, size, drawn) VALUES (?, 1, 200000, 5000)').run(w.campaign.id);
    s.ctx.db
      .prepare(
        `WITH RECURSIVE v(x) AS (SELECT 5000 UNION ALL SELECT x + 1 FROM v WHERE x + 1 < 10000)
        INSERT INTO lucky_pool_swaps (campaign_id, livemode, position, value) SELECT ?, 1, x, x + 100000 FROM v`,
      )
      .run(w.campaign.id);
    const swaps = (): number =>
      (s.ctx.db.prepare('SELECT count(*) AS n FROM lucky_pool_swaps WHERE campaign_id = ?').get(w.campaign.id) as { n: number }).n;
    const results = [];
    for (let i = 0; i < 20; i++) {
      const r = s.ctx.db.transaction(() =>
        allocateLuckyNumbers(s.ctx, { campaignId: w.campaign.id, livemode: 1, seriesCount: 1, entryId: id, quantity: 1, now: NOW }),
      )();
      results.push({ r, swaps: swaps() });
      if (r.ok) break;
    }
    // 500 swaps a transaction: ten deferred allocations, then the eleventh draws from the new pool
    // (its one draw may leave a swap of its own).
    assert.deepEqual(
      results.slice(0, 10).map((x) => x.swaps),
      [4_500, 4_000, 3_500, 3_000, 2_500, 2_000, 1_500, 1_000, 500, 0],
    );
    assert.equal(results.length, 11);
    assert.ok(results.slice(0, 10).every((x) => 'deferred' in x.r));
    const last = results.at(-1)!.r;
    assert.ok(last.ok && last.pairs.length === 1 && last.pairs[0].series === 0, JSON.stringify(last));
  });
});

describe('manual lucky numbers: POST /v1/entries/{entry_id}/lucky-numbers', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const pairs = (...list: Array<[string, string]>) => ({ numbers: list.map(([series, order_number]) => ({ series, order_number })) });
  const post = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
    s.request('POST', `/v1/entries/${id}/lucky-numbers`, { key, body, headers });

  test('entry.evaluated carries {quantity, series_count} and no numbers; the first submission is 201 and final', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2, seriesCount: 3 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const m = await mechanicOf(s, w.liveKey, id, 'lucky_numbers');
    assert.deepEqual(m, { mechanic_type: 'lucky_numbers', status: 'APPROVED', outcome: { quantity: 2, series_count: 3 } });
    const ok = await post(w.liveKey, id, pairs(['2', '99999'], ['0', '00042']));
    assert.equal(ok.status, 201, ok.text);
    assert.deepEqual(ok.body, { entry_id: id, assigned_count: 2, status: 'ASSIGNED' });
    assert.deepEqual((await viewEntry(s, w.liveKey, id)).lucky_numbers, [
      { series: '0', order_number: '00042' },
      { series: '2', order_number: '99999' },
    ]);
    for (const again of [pairs(['2', '99999'], ['0', '00042']), pairs(['1', '00001'], ['1', '00002'])]) {
      const res = await post(w.liveKey, id, again);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'lucky_numbers_already_submitted');
    }
    // A second submission that is also invalid is still the 409: the entry's state is checked first.
    assert.equal((await post(w.liveKey, id, { numbers: 'nope' })).body.code, 'lucky_numbers_already_submitted');
  });

  test('404 for an unknown id, a non-uuid, an entry of another campaign and an entry of the other mode', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const other = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const mine = await submitEntry(s, w.liveKey);
    const theirs = await submitEntry(s, other.liveKey);
    const testMode = await submitEntry(s, w.testKey);
    await settle(s);
    for (const [key, id] of [
      [w.liveKey, '2f1c7a8e-9b0d-4c3e-8f6a-1d2e3f4a5b6c'],
      [w.liveKey, 'not-a-uuid'],
      [w.liveKey, theirs],
      [w.liveKey, testMode],
      [w.testKey, mine],
      [other.liveKey, mine],
    ]) {
      const res = await post(key, id, pairs(['0', '00001']));
      assert.equal(res.status, 404, `${id}: ${res.text}`);
      assert.equal(res.body.code, 'not_found');
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
    }
  });

  test('401 without a key, 415 without Content-Type: application/json, 400 for broken JSON', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.equal((await s.request('POST', `/v1/entries/${id}/lucky-numbers`, { body: pairs(['0', '00001']) })).status, 401);
    const noType = await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
      key: w.liveKey,
      raw: JSON.stringify(pairs(['0', '00001'])),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(noType.status, 415);
    assert.equal(noType.body.code, 'unsupported_media_type');
    const broken = await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
      key: w.liveKey,
      raw: '{"numbers": [',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.status, 400);
  });

  test('422 mechanic_not_manual for automatic and for no lucky numbers', async () => {
    for (const mode of ['auto', 'none']) {
      const w = makeCampaign(s.ctx, { luckyNumbers: mode });
      const id = await submitEntry(s, w.liveKey);
      await settle(s);
      const res = await post(w.liveKey, id, pairs(['0', '00001']));
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'mechanic_not_manual');
    }
  });

  test('422 entry_rejected for a rejected entry (checked before evaluation and body)', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const id = await submitEntry(s, w.testKey, { rejectInTest: true });
    await settle(s);
    assert.equal((await viewEntry(s, w.testKey, id)).status, 'REJECTED');
    for (const body of [pairs(['0', '00001']), { numbers: 3 }]) {
      const res = await post(w.testKey, id, body);
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'entry_rejected');
    }
  });

  test('409 not_evaluated before entry.evaluated (pending entry), even with an invalid body', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const id = await submitEntry(s, w.liveKey);
    for (const body of [pairs(['0', '00001']), {}]) {
      const res = await post(w.liveKey, id, body);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'not_evaluated');
    }
    await settle(s);
    assert.equal((await post(w.liveKey, id, pairs(['0', '00001']))).status, 201);
  });

  // docs/api.md#errors: 409 when the entry has not been evaluated for lucky numbers. An entry evaluated
  // while the campaign took no lucky numbers never got outcome.quantity; switched to manual
  // afterwards, it was accepted under the campaign's current terms.
  test('409 not_evaluated for an entry evaluated before the campaign took manual numbers', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'none' });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.deepEqual((await viewEntry(s, w.liveKey, id)).mechanics, []);
    updateCampaign(s.ctx, w.campaign.id, { luckyNumbers: 'manual' }, OPERATOR);
    const res = await post(w.liveKey, id, pairs(['0', '00001']));
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'not_evaluated');
    assert.equal(s.ctx.db.prepare('SELECT count(*) FROM lucky_numbers WHERE entry_id = ?').pluck().get(id), 0);
    // An entry evaluated from then on takes its numbers.
    const later = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.equal((await post(w.liveKey, later, pairs(['0', '00001']))).status, 201);
  });

  test('422 validation_failed names each bad field', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 2 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const cases: Array<[unknown, string]> = [
      [{}, 'numbers'],
      [{ numbers: null }, 'numbers'],
      [{ numbers: { series: '0', order_number: '00001' } }, 'numbers'],
      [[{ series: '0', order_number: '00001' }], ''],
      [{ numbers: ['0-00001'] }, 'numbers[0]'],
      [{ numbers: [{ series: 0, order_number: '00001' }] }, 'numbers[0].series'],
      [{ numbers: [{ series: '-1', order_number: '00001' }] }, 'numbers[0].series'],
      [{ numbers: [{ series: '1.5', order_number: '00001' }] }, 'numbers[0].series'],
      [{ numbers: [{ series: '', order_number: '00001' }] }, 'numbers[0].series'],
      [{ numbers: [{ order_number: '00001' }] }, 'numbers[0].series'],
      [{ numbers: [{ series: '0', order_number: 1 }] }, 'numbers[0].order_number'],
      [{ numbers: [{ series: '0', order_number: '1234' }] }, 'numbers[0].order_number'],
      [{ numbers: [{ series: '0', order_number: '123456' }] }, 'numbers[0].order_number'],
      [{ numbers: [{ series: '0', order_number: '12a45' }] }, 'numbers[0].order_number'],
      [{ numbers: [{ series: '0' }] }, 'numbers[0].order_number'],
    ];
    for (const [body, field] of cases) {
      const res = await post(w.liveKey, id, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed', JSON.stringify(body));
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${JSON.stringify(body)}: ${res.text}`,
      );
    }
    assert.equal((await viewEntry(s, w.liveKey, id)).lucky_numbers.length, 0);
  });

  test('422 quantity_mismatch, series_out_of_range, duplicate_pairs; nothing is stored and a correct retry is accepted', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2, seriesCount: 2 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const cases: Array<[unknown, string]> = [
      [pairs(['0', '00001']), 'quantity_mismatch'],
      [pairs(['0', '00001'], ['0', '00002'], ['0', '00003']), 'quantity_mismatch'],
      [{ numbers: [] }, 'quantity_mismatch'],
      [pairs(['0', '00001'], ['2', '00002']), 'series_out_of_range'],
      [pairs(['0', '00001'], ['0', '00001']), 'duplicate_pairs'],
      [pairs(['1', '00007'], ['01', '00007']), 'duplicate_pairs'],
    ];
    for (const [body, code] of cases) {
      const res = await post(w.liveKey, id, body);
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.code, code, JSON.stringify(body));
    }
    assert.equal((await viewEntry(s, w.liveKey, id)).lucky_numbers.length, 0);
    assert.equal((await post(w.liveKey, id, pairs(['1', '00001'], ['0', '00001']))).status, 201);
  });

  test("the submission is checked against the terms of the entry's own entry.evaluated, not the campaign's as changed since", async () => {
    // The count and series rules name outcome.quantity and outcome.series_count: what the integrator was told.
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2, seriesCount: 3 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.deepEqual((await mechanicOf(s, w.liveKey, id, 'lucky_numbers')).outcome, { quantity: 2, series_count: 3 });
    updateCampaign(s.ctx, w.campaign.id, { luckyQuantity: 3, seriesCount: 1 }, OPERATOR);
    // Three numbers in series 0 fit the campaign now, not the outcome this entry got.
    const now = await post(w.liveKey, id, pairs(['0', '00001'], ['0', '00002'], ['0', '00003']));
    assert.equal(now.status, 422, now.text);
    assert.equal(now.body.code, 'quantity_mismatch');
    // Two numbers, one in series 2, fit the outcome: accepted.
    const told = await post(w.liveKey, id, pairs(['2', '00001'], ['0', '00002']));
    assert.equal(told.status, 201, told.text);
  });

  test('422 pair_taken for a pair held by another entry; the whole submission is rolled back', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2 });
    const a = await submitEntry(s, w.liveKey);
    const b = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.equal((await post(w.liveKey, a, pairs(['0', '11111'], ['0', '22222']))).status, 201);
    const res = await post(w.liveKey, b, pairs(['0', '33333'], ['0', '22222']));
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'pair_taken');
    assert.deepEqual(
      res.body.errors.map((e: { field: string }) => e.field),
      ['numbers[1]'],
    );
    assert.deepEqual((await viewEntry(s, w.liveKey, b)).lucky_numbers, []);
    // 33333 was not kept by the failed attempt: b may use it now.
    assert.equal((await post(w.liveKey, b, pairs(['0', '33333'], ['0', '44444']))).status, 201);
  });

  test('pairs are unique per campaign and mode: the same pair is free in another campaign and in test mode', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const other = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const live = await submitEntry(s, w.liveKey);
    const testEntry = await submitEntry(s, w.testKey);
    const otherEntry = await submitEntry(s, other.liveKey);
    await settle(s);
    assert.equal((await post(w.liveKey, live, pairs(['0', '55555']))).status, 201);
    assert.equal((await post(w.testKey, testEntry, pairs(['0', '55555']))).status, 201);
    assert.equal((await post(other.liveKey, otherEntry, pairs(['0', '55555']))).status, 201);
  });

  test('many entries submit the same pair at once: exactly one 201, the rest 422 pair_taken', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await submitEntry(s, w.liveKey));
    await settle(s);
    const results = await Promise.all(ids.map((id) => post(w.liveKey, id, pairs(['0', '77777']))));
    assert.equal(results.filter((r) => r.status === 201).length, 1);
    assert.equal(results.filter((r) => r.status === 422 && r.body.code === 'pair_taken').length, 11);
    assert.equal(countPairs(s, w.campaign.id), 1);
  });

  test('the same entry submitting twice at once: one 201, one 409', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual' });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const results = await Promise.all([post(w.liveKey, id, pairs(['0', '00010'])), post(w.liveKey, id, pairs(['0', '00011']))]);
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409]);
  });
});
