// ces stats (issue 7, Stats): entries by status and by America/Sao_Paulo day, rejection reasons,
// prizes with stock and beyond-pool wins, lucky-number fill and delivery success rate, for one
// campaign and mode, as one JSON document and as readable tables.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { insertAward } from '../src/mechanics/awards.repo.ts';
import { addBeyondPool, takePrizeUnit } from '../src/mechanics/prizes.repo.ts';
import { insertDelivery, type DeliveryStatus } from '../src/webhooks/outbox.repo.ts';
import { makeCampaign, makePrize, runCli } from './support/harness.ts';
import { openTestCtx, seedEntries } from './support/seed-entries.ts';

describe('ces stats', () => {
  let dir: string;
  let dbPath: string;
  let campaignId: string;
  let prizeA: string;
  let prizeB: string;
  let emptyCampaign: string;

  before(() => {
    const opened = openTestCtx();
    ({ dir, dbPath } = opened);
    const { ctx } = opened;
    campaignId = makeCampaign(ctx, { luckyNumbers: 'auto', seriesCount: '2' }).campaign.id;
    emptyCampaign = makeCampaign(ctx).campaign.id;
    prizeA = makePrize(ctx, campaignId, 'live', 2, 'Voucher A').id;
    prizeB = makePrize(ctx, campaignId, 'live', 5, 'Voucher B').id;
    makePrize(ctx, campaignId, 'test', 9, 'Test-mode voucher');
    const reasons: Record<number, string[]> = {
      5: ['fiscal_key_invalid'],
      6: ['fiscal_key_invalid', 'duplicate_access_key'],
      7: ['fraud_suspected'],
    };
    const ids = seedEntries(ctx, {
      campaignId,
      count: 10,
      status: (i) => (i < 5 ? 'APPROVED' : i < 8 ? 'REJECTED' : 'PENDING'),
      // 02:59:59Z is still 21 November in São Paulo (UTC-3); 03:00:00Z is the 22nd.
      createdAt: (i) => (i % 2 === 0 ? '2026-11-22T02:59:59.000Z' : '2026-11-22T03:00:00.000Z'),
      rejection: (i) => (reasons[i] ?? []).map((code) => ({ code, message: code })),
      award: (i) => (i <= 2 ? prizeA : null),
      lucky: (i) =>
        i === 0
          ? [
              [0, 1],
              [1, 99999],
            ]
          : i < 5
            ? [[0, 10 + i]]
            : [],
    });
    // Prize A: two units taken by entries 0 and 1, entry 2 won beyond the empty pool; prize B: a revoked win.
    takePrizeUnit(ctx.db, prizeA);
    takePrizeUnit(ctx.db, prizeA);
    addBeyondPool(ctx.db, prizeA, 1);
    insertAward(ctx.db, {
      id: 'awd-revoked',
      entry_id: ids[3],
      campaign_id: campaignId,
      livemode: 1,
      prize_id: prizeB,
      source: 'declared',
      window_id: null,
      status: 'revoked',
      beyond_pool: 0,
      created_at: '2026-11-22T12:00:00.000Z',
      updated_at: '2026-11-22T12:00:00.000Z',
    });
    const deliveries: DeliveryStatus[] = ['delivered', 'delivered', 'delivered', 'failed', 'pending', 'pending', 'skipped'];
    deliveries.forEach((status, i) =>
      insertDelivery(ctx.db, {
        id: `evt_${i}`,
        campaign_id: campaignId,
        livemode: 1,
        entry_id: ids[i],
        event_type: 'entry.received',
        payload: '{}',
        status,
        next_attempt_at: null,
        last_error: null,
        created_at: '2026-11-22T12:00:00.000Z',
      }),
    );
    insertDelivery(ctx.db, {
      id: 'evt_test',
      campaign_id: campaignId,
      livemode: 0,
      entry_id: null,
      event_type: 'ping',
      payload: '{}',
      status: 'failed',
      next_attempt_at: null,
      last_error: null,
      created_at: '2026-11-22T12:00:00.000Z',
    });
    seedEntries(ctx, {
      campaignId,
      livemode: 0,
      count: 3,
      status: () => 'REJECTED',
      rejection: () => [{ code: 'test_only_reason', message: '' }],
    });
    ctx.db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--json: every figure of the live mode, none of the test mode', async () => {
    const res = await runCli(['stats', '--campaign', campaignId, '--json'], { dbPath });
    assert.equal(res.code, 0, res.stderr);
    const s = res.json;
    assert.equal(s.mode, 'live');
    assert.deepEqual(s.entries, {
      total: 10,
      by_status: { PENDING: 2, APPROVED: 5, REJECTED: 3 },
      by_day: [
        { day: '2026-11-21', total: 5, PENDING: 1, APPROVED: 3, REJECTED: 1 },
        { day: '2026-11-22', total: 5, PENDING: 1, APPROVED: 2, REJECTED: 2 },
      ],
    });
    assert.deepEqual(s.rejection_reasons, [
      { code: 'fiscal_key_invalid', count: 2 },
      { code: 'duplicate_access_key', count: 1 },
      { code: 'fraud_suspected', count: 1 },
    ]);
    assert.deepEqual(
      s.prizes.map((p: Record<string, unknown>) => ({ ...p, id: undefined })),
      [
        {
          id: undefined,
          name: 'Voucher A',
          initial_stock: 2,
          current_stock: 0,
          awarded_beyond_pool: 1,
          awarded: 3,
          pending: 0,
          revoked: 0,
          declined: 0,
          voided: 0,
        },
        {
          id: undefined,
          name: 'Voucher B',
          initial_stock: 5,
          current_stock: 5,
          awarded_beyond_pool: 0,
          awarded: 0,
          pending: 0,
          revoked: 1,
          declined: 0,
          voided: 0,
        },
      ],
    );
    assert.deepEqual(
      s.prizes.map((p: { id: string }) => p.id),
      [prizeA, prizeB],
    );
    assert.deepEqual(s.lucky_numbers, { mechanic: 'auto', assigned: 6, entries_with_numbers: 5, capacity: 200_000, fill_percent: 0.003 });
    assert.deepEqual(s.deliveries, { pending: 2, delivered: 3, failed: 1, skipped: 1, success_rate_percent: 75 });
  });

  test('--mode test counts only test records; a campaign with nothing settled has a null success rate; an unknown one is not_found', async () => {
    const res = await runCli(['stats', '--campaign', campaignId, '--mode', 'test', '--json'], { dbPath });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.json.entries.total, 3);
    assert.deepEqual(res.json.rejection_reasons, [{ code: 'test_only_reason', count: 3 }]);
    assert.deepEqual(
      res.json.prizes.map((p: { name: string }) => p.name),
      ['Test-mode voucher'],
    );
    assert.deepEqual(res.json.deliveries, { pending: 0, delivered: 0, failed: 1, skipped: 0, success_rate_percent: 0 });
    const empty = await runCli(['stats', '--campaign', emptyCampaign, '--json'], { dbPath });
    assert.equal(empty.json.entries.total, 0);
    assert.deepEqual(empty.json.deliveries, { pending: 0, delivered: 0, failed: 0, skipped: 0, success_rate_percent: null });
    assert.deepEqual(empty.json.lucky_numbers, {
      mechanic: 'none',
      assigned: 0,
      entries_with_numbers: 0,
      capacity: 100_000,
      fill_percent: 0,
    });
    const unknown = await runCli(['stats', '--campaign', '00000000-0000-4000-8000-000000000000', '--json'], { dbPath });
    assert.equal(unknown.code, 1);
    assert.equal(unknown.json.error.code, 'not_found');
  });

  test('without --json: readable tables for each section', async () => {
    const res = await runCli(['stats', '--campaign', campaignId], { dbPath });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /ENTRIES {2}total 10 {2}approved 5 {2}rejected 3 {2}pending 2/);
    assert.match(res.stdout, /^2026-11-21 +5 +3 +1 +1$/m);
    assert.match(res.stdout, /^fiscal_key_invalid +2$/m);
    assert.match(res.stdout, /^Voucher A +2 +0 +3 +0 +0 +0 +1$/m);
    assert.match(res.stdout, /LUCKY NUMBERS {2}auto: 6 of 200000 pairs \(0\.003%\) held by 5 entries/);
    assert.match(res.stdout, /WEBHOOK DELIVERIES {2}success 75% {2}delivered 3 {2}failed 1 {2}pending 2 {2}skipped 1/);
  });

  test('a bad --mode is refused with invalid_mode', async () => {
    const res = await runCli(['stats', '--campaign', campaignId, '--mode', 'both', '--json'], { dbPath });
    assert.equal(res.code, 1);
    assert.equal(res.json.error.code, 'invalid_mode');
  });
});
