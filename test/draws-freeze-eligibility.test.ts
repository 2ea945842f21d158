// The freeze's eligible set (docs/operations.md#the-rules-as-ces-applies-them), through the real
// server and pipeline: a number counts when an APPROVED entry of the draw's campaign and mode held
// it at the cut-off and its participant is not anonymised. The freeze reads entry by entry
// (src/draws/draws.repo.ts), so each rule is checked here against the numbers the entries were
// given.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { updateCampaign } from '../src/campaigns/campaigns.ts';
import type { Ctx } from '../src/kernel/context.ts';
import { frozenNumbersText } from '../src/draws/frozen-set.ts';
import { createDraw, freezeDraw, recordResults } from '../src/draws/lifecycle.ts';
import { runDraw } from '../src/draws/run.ts';
import { getDraw } from '../src/draws/views.ts';
import type { AppError } from '../src/kernel/errors.ts';
import { ENCODING_GAPS, ENCODING_MISSING_GAPS, formatNumber } from '../src/draws/number-set.ts';
import { listLuckyNumbersForEntry } from '../src/mechanics/lucky-numbers.repo.ts';
import { anonymizeParticipant } from '../src/participants/participants.ts';
import { anonymizeEnrollment } from '../src/participants/participants.repo.ts';
import { cpf, makeCampaign, OPERATOR, startTestServer, type TestServer } from './support/harness.ts';
import { nextIndex, settle, submitEntry } from './support/mechanics.ts';

/** The extraction a draw of `cutoff` names: three days after it. */
const extractionAfter = (cutoff: string): string => new Date(Date.parse(cutoff) + 3 * 86_400_000).toISOString().slice(0, 10);

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

function numbersOf(ctx: Ctx, entryIds: string[], seriesCount: number): string[] {
  return entryIds.flatMap((id) => listLuckyNumbersForEntry(ctx.db, id).map((n) => formatNumber(n.series, n.order_number, seriesCount)));
}

function frozenList(ctx: Ctx, drawId: string): string[] {
  return Buffer.concat([...frozenNumbersText(ctx, drawId)])
    .toString('latin1')
    .split('\n')
    .filter((line) => line !== '');
}

test('the freeze holds the numbers of approved entries of the campaign and mode given by the cut-off, less anonymised participants', async () => {
  const seriesCount = 3;
  const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 4, seriesCount });
  const other = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 4, seriesCount });
  const kept = [await submitEntry(s, w.liveKey), await submitEntry(s, w.liveKey)];
  const anonymisedIndex = nextIndex();
  const anonymised = await submitEntry(s, w.liveKey, { i: anonymisedIndex });
  const testMode = await submitEntry(s, w.testKey);
  const otherCampaign = await submitEntry(s, other.liveKey);
  await settle(s);
  const cutoff = new Date(s.clock.now() + 60_000).toISOString();
  s.clock.advance(120_000);
  const late = await submitEntry(s, w.liveKey);
  await settle(s);
  // Holding numbers, the participant is under the legal hold: the request is kept, then carried
  // out as the campaign's closing will (an anonymised participant's numbers are never eligible).
  assert.throws(() => anonymizeParticipant(s.ctx, { campaignId: w.campaign.id, livemode: 1, document: cpf(anonymisedIndex) }, OPERATOR), {
    code: 'legal_hold',
  });
  const enrollmentId = s.ctx.db.prepare('SELECT enrollment_id FROM entries WHERE id = ?').pluck().get(anonymised) as string;
  assert.ok(anonymizeEnrollment(s.ctx.db, enrollmentId, 'anon_held', new Date(s.clock.now()).toISOString()));
  for (const id of [...kept, anonymised, testMode, otherCampaign, late])
    assert.equal(listLuckyNumbersForEntry(s.ctx.db, id).length, 4, `entry ${id} holds its numbers`);

  const draw = createDraw(
    s.ctx,
    { campaignId: w.campaign.id, mode: 'live', name: 'Sorteio', cutoff, extractionDate: extractionAfter(cutoff) },
    OPERATOR,
  );
  const frozen = await freezeDraw(s.ctx, draw.id, OPERATOR);

  const expected = numbersOf(s.ctx, kept, seriesCount).sort();
  assert.equal(frozen.eligible_count, expected.length);
  assert.deepEqual(frozenList(s.ctx, draw.id), expected);
});

test('a test-mode draw holds the test-mode numbers only', async () => {
  const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 1 });
  const live = await submitEntry(s, w.liveKey);
  const testMode = await submitEntry(s, w.testKey);
  await settle(s);
  const cutoff = new Date(s.clock.now()).toISOString();
  s.clock.advance(1000);
  const draw = createDraw(
    s.ctx,
    { campaignId: w.campaign.id, mode: 'test', name: 'Sorteio de teste', cutoff, extractionDate: extractionAfter(cutoff) },
    OPERATOR,
  );
  await freezeDraw(s.ctx, draw.id, OPERATOR);
  assert.deepEqual(frozenList(s.ctx, draw.id), numbersOf(s.ctx, [testMode], 1).sort());
  assert.equal(listLuckyNumbersForEntry(s.ctx.db, live).length, 2);
});

test('a number in a series the draw does not have (the campaign shrank its series) refuses the freeze', async () => {
  const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 10, seriesCount: 2 });
  const entry = await submitEntry(s, w.liveKey);
  await settle(s);
  assert.ok(
    listLuckyNumbersForEntry(s.ctx.db, entry).some((n) => n.series === 1),
    'a number in series 1',
  );
  updateCampaign(s.ctx, w.campaign.id, { seriesCount: 1 }, OPERATOR);
  const cutoff = new Date(s.clock.now()).toISOString();
  s.clock.advance(1000);
  const draw = createDraw(
    s.ctx,
    { campaignId: w.campaign.id, mode: 'live', name: 'Sorteio', cutoff, extractionDate: extractionAfter(cutoff) },
    OPERATOR,
  );
  await assert.rejects(freezeDraw(s.ctx, draw.id, OPERATOR), (error: AppError) => {
    assert.equal(error.code, 'lucky_number_outside_series');
    assert.match(error.message, /^Lucky number 1\/\d+ lies outside the draw's 1 series/);
    return true;
  });
  assert.equal(getDraw(s.ctx, draw.id).status, 'created');
});

test('a series nearly full is stored as the numbers it lacks, and the draw reads it back to its SHA-256', async () => {
  assert.ok(!s.ctx.db.memory, 'a file: the freeze scans and encodes on its thread');
  const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 2 });
  const entry = await submitEntry(s, w.liveKey);
  await settle(s);
  // The entry also holds every number of series 0 but one in 997: as if numbers given in order
  // had filled the series, and a few were left out with their rejected entries.
  const insert = s.ctx.db.prepare(
    `INSERT OR IGNORE INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
    VALUES (?, 1, 0, ?, ?, 'manual', ?)`,
  );
  const at = new Date(s.clock.now()).toISOString();
  s.ctx.db.transaction(() => {
    for (let e = 0; e < 100_000; e++) if (e % 997 !== 500) insert.run(w.campaign.id, e, entry, at);
  })();
  const expected = numbersOf(s.ctx, [entry], 2).sort();
  const cutoff = new Date(s.clock.now()).toISOString();
  s.clock.advance(1000);
  // The extraction is planned for the cut-off's day, later than the clock: frozen before it, its results dated that day.
  const draw = createDraw(
    s.ctx,
    { campaignId: w.campaign.id, mode: 'live', name: 'Sorteio', cutoff, extractionDate: cutoff.slice(0, 10) },
    OPERATOR,
  );
  const frozen = await freezeDraw(s.ctx, draw.id, OPERATOR);
  assert.equal(frozen.eligible_count, expected.length);
  assert.deepEqual(frozenList(s.ctx, draw.id), expected);
  const stored = s.ctx.db
    .prepare('SELECT series, encoding, count, length(data) AS bytes FROM draw_numbers WHERE draw_id = ? ORDER BY series')
    .all(draw.id) as Array<{ series: number; encoding: number; count: number; bytes: number }>;
  const inSeries1 = expected.filter((n) => n.startsWith('1/')).length;
  assert.deepEqual(stored[0], { series: 0, encoding: ENCODING_MISSING_GAPS, count: expected.length - inSeries1, bytes: stored[0]!.bytes });
  assert.ok(stored[0]!.bytes < 400, `about 100 missing numbers, gaps of 997 (2 bytes each): ${stored[0]!.bytes} bytes`);
  if (inSeries1 > 0) assert.equal(stored[1]!.encoding, ENCODING_GAPS);
  await recordResults(
    s.ctx,
    draw.id,
    { extraction: 5787, date: cutoff.slice(0, 10), prizes: ['050366', '12305', '05437', '13526', '02329'] },
    OPERATOR,
  );
  const run = await runDraw(s.ctx, draw.id, OPERATOR);
  assert.equal(getDraw(s.ctx, draw.id).status, 'drawn', JSON.stringify(run).slice(0, 200));
});
