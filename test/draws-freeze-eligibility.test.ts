// The freeze's eligible set (CONTRACT: Draws, Eligible), through the real server and pipeline: a
// number counts when an APPROVED entry of the draw's campaign and mode held it at the cut-off and
// its participant is not anonymised. The freeze reads entry by entry (src/draws/draws.repo.ts),
// so each rule is checked here against the numbers the entries were given.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { updateCampaign } from '../src/campaigns/campaigns.ts';
import type { Ctx } from '../src/context.ts';
import { createDraw, freezeDraw, frozenNumbersText, getDraw } from '../src/draws/draws.ts';
import type { AppError } from '../src/errors.ts';
import { formatNumber } from '../src/draws/number-set.ts';
import { listLuckyNumbersForEntry } from '../src/mechanics/lucky-numbers.repo.ts';
import { anonymizeParticipant } from '../src/participants/participants.ts';
import { cpf, makeCampaign, OPERATOR, startTestServer, type TestServer } from './support/harness.ts';
import { nextIndex, settle, submitEntry } from './support/mechanics.ts';

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
  anonymizeParticipant(s.ctx, { campaignId: w.campaign.id, livemode: 1, document: cpf(anonymisedIndex) }, OPERATOR);
  for (const id of [...kept, anonymised, testMode, otherCampaign, late])
    assert.equal(listLuckyNumbersForEntry(s.ctx.db, id).length, 4, `entry ${id} holds its numbers`);

  const draw = createDraw(s.ctx, { campaignId: w.campaign.id, mode: 'live', name: 'Sorteio', cutoff }, OPERATOR);
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
  const draw = createDraw(s.ctx, { campaignId: w.campaign.id, mode: 'test', name: 'Sorteio de teste', cutoff }, OPERATOR);
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
  const draw = createDraw(s.ctx, { campaignId: w.campaign.id, mode: 'live', name: 'Sorteio', cutoff }, OPERATOR);
  await assert.rejects(freezeDraw(s.ctx, draw.id, OPERATOR), (error: AppError) => {
    assert.equal(error.code, 'lucky_number_outside_series');
    assert.match(error.message, /^Lucky number 1\/\d+ lies outside the draw's 1 series/);
    return true;
  });
  assert.equal(getDraw(s.ctx, draw.id).status, 'created');
});
