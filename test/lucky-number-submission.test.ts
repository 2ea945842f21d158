// POST /v1/entries/{entry_id}/lucky-numbers at its edges (docs/api.md#mechanics-lucky-numbers-and-instant-prizes): the entry id
// read case-insensitively, a pair held once per campaign even between one participant's entries,
// digits only in ASCII, and test mode kept apart from live. Through the real HTTP server on a real
// SQLite file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { entryBody, makeCampaign, startTestServer, type TestResponse, type TestServer } from './support/harness.ts';
import { mechanicOf, nextIndex, settle, submitEntry, viewEntry } from './support/mechanics.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

let seq = 0;
const post = (key: string, body: unknown, idempotencyKey = `lucky-${++seq}`): Promise<TestResponse> =>
  s.request('POST', '/v1/entries', { key, body, idempotencyKey });

describe('lucky numbers: ids, formats and per-campaign uniqueness', () => {
  const pairs = (...list: Array<[string, string]>) => ({ numbers: list.map(([series, order_number]) => ({ series, order_number })) });
  const submitNumbers = (key: string, id: string, body: unknown) => s.request('POST', `/v1/entries/${id}/lucky-numbers`, { key, body });

  // Path parameter entry_id (uuid): a uuid is the same uuid in upper case.
  test('the entry id in the path is read case-insensitively: an upper-case id is the same entry (201, then 409 for any second submission)', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 2 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const first = await submitNumbers(w.liveKey, id.toUpperCase(), pairs(['1', '01234']));
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(first.body, { entry_id: id, assigned_count: 1, status: 'ASSIGNED' });
    const again = await submitNumbers(w.liveKey, id, pairs(['0', '00001']));
    assert.deepEqual([again.status, again.body.code], [409, 'lucky_numbers_already_submitted']);
    assert.deepEqual((await viewEntry(s, w.liveKey, id)).lucky_numbers, [{ series: '1', order_number: '01234' }]);
  });

  // A (series, order_number) pair is unique per campaign and can be held by only one participant.
  test("a pair held by one of a participant's entries cannot be taken again by another entry of the same participant", async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 1 });
    const i = nextIndex();
    const first = await post(w.liveKey, entryBody({}, i));
    const second = await post(
      w.liveKey,
      entryBody({ evidence: { access_key: makeAccessKey({ yymm: '2611', number: String(500000000 + i).slice(-9) }) } }, i),
    );
    assert.equal(first.status, 202, first.text);
    assert.equal(second.status, 202, second.text);
    await settle(s);
    assert.equal(
      (await viewEntry(s, w.liveKey, first.body.entry_id)).enrollment_id,
      (await viewEntry(s, w.liveKey, second.body.entry_id)).enrollment_id,
      'one participant',
    );
    assert.equal((await submitNumbers(w.liveKey, first.body.entry_id, pairs(['0', '31415']))).status, 201);
    const taken = await submitNumbers(w.liveKey, second.body.entry_id, pairs(['0', '31415']));
    assert.deepEqual([taken.status, taken.body.code], [422, 'pair_taken'], taken.text);
    assert.equal(
      (await submitNumbers(w.liveKey, second.body.entry_id, pairs(['0', '27182']))).status,
      201,
      'the refusal did not consume the submission',
    );
  });

  // series a non-negative integer string; order_number exactly 5 digits, 00000 to 99999.
  test('series and order_number in non-ASCII digits, with a sign, an exponent, hex or surrounding whitespace are 422 validation_failed', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 3 });
    const id = await submitEntry(s, w.liveKey);
    await settle(s);
    const cases: Array<[string, string, string]> = [
      ['+1', '00002', 'numbers[0].series'],
      [' 1', '00002', 'numbers[0].series'],
      ['1\n', '00002', 'numbers[0].series'],
      ['1e0', '00002', 'numbers[0].series'],
      ['0x1', '00002', 'numbers[0].series'],
      ['\u0661', '00002', 'numbers[0].series'],
      ['\uff11', '00002', 'numbers[0].series'],
      ['99999999999999999999999', '00002', 'numbers[0].series'],
      ['1', '\u0660\u0660\u0660\u0660\u0662', 'numbers[0].order_number'],
      ['1', '\uff10\uff10\uff10\uff10\uff12', 'numbers[0].order_number'],
      ['1', ' 0002', 'numbers[0].order_number'],
      ['1', '00002\n', 'numbers[0].order_number'],
      ['1', '-0002', 'numbers[0].order_number'],
    ];
    for (const [series, orderNumber, field] of cases) {
      const res = await submitNumbers(w.liveKey, id, pairs([series, orderNumber]));
      assert.equal(res.status, 422, `${JSON.stringify([series, orderNumber])}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed', JSON.stringify([series, orderNumber]));
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${JSON.stringify([series, orderNumber])}: ${res.text}`,
      );
    }
    assert.deepEqual((await viewEntry(s, w.liveKey, id)).lucky_numbers, []);
    assert.equal((await submitNumbers(w.liveKey, id, pairs(['2', '00002']))).status, 201);
  });

  // The count rule and the manual outcome: {quantity, series_count}, in test mode as in live mode.
  test('test mode: a test entry takes its numbers with the test key; the same pair stays free in live mode', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 1 });
    const testEntry = await submitEntry(s, w.testKey);
    const liveEntry = await submitEntry(s, w.liveKey);
    await settle(s);
    assert.deepEqual((await mechanicOf(s, w.testKey, testEntry, 'lucky_numbers')).outcome, { quantity: 1, series_count: 1 });
    assert.equal((await submitNumbers(w.testKey, testEntry, pairs(['0', '00777']))).status, 201);
    assert.equal((await submitNumbers(w.liveKey, liveEntry, pairs(['0', '00777']))).status, 201);
  });
});
