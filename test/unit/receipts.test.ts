// The access keys of entries for the duplicate_receipt check (migration 5): intake does not write
// them; processing completes the table in entry order before it checks, so an entry always sees
// every entry committed before it, however far behind the table is and in whatever order entries
// are checked.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import type { Ctx } from '../../src/kernel/context.ts';
import { findEarlierEntryWithAccessKey, RECEIPTS_AHEAD } from '../../src/pipeline/processing.repo.ts';
import { makeCampaign } from '../support/harness.ts';
import { openTestCtx, seedEntries } from '../support/seed-entries.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function fresh(): { ctx: Ctx; campaignId: string } {
  const { ctx, dir } = openTestCtx();
  dirs.push(dir);
  return { ctx, campaignId: makeCampaign(ctx).campaign.id };
}

const KEY = '3'.repeat(44);
const receiptRows = (ctx: Ctx): number => ctx.db.prepare('SELECT count(*) FROM receipts').pluck().get() as number;
const indexedThrough = (ctx: Ctx): number => ctx.db.prepare('SELECT through_rowid FROM receipts_indexed').pluck().get() as number;
const rowidOf = (ctx: Ctx, id: string): number => ctx.db.prepare('SELECT rowid FROM entries WHERE id = ?').pluck().get(id) as number;
/** The check as processing runs it: inside a write transaction. */
const earlier = (ctx: Ctx, campaignId: string, id: string, livemode = 1): string | null =>
  ctx.db.transaction(() => findEarlierEntryWithAccessKey(ctx.db, { id, campaign_id: campaignId, livemode, access_key: KEY })).immediate();

describe('receipts: the access keys processing checks for duplicates', () => {
  test('entries as intake writes them have no receipts; the first check takes in every entry up to the checked one and at most RECEIPTS_AHEAD more', () => {
    const { ctx, campaignId } = fresh();
    const count = 2 * RECEIPTS_AHEAD + 500;
    const ids = seedEntries(ctx, {
      campaignId,
      count,
      status: () => 'PENDING',
      accessKey: (i) => (i === 5 || i === count - 1 ? KEY : String(i).padStart(44, '4')),
    });
    assert.equal(receiptRows(ctx), 0);
    assert.equal(indexedThrough(ctx), 0);
    // The last entry shares its key with the sixth, more than 2,000 entries back.
    assert.equal(earlier(ctx, campaignId, ids[count - 1]), ids[5]);
    assert.equal(indexedThrough(ctx), rowidOf(ctx, ids[count - 1]));
    assert.equal(receiptRows(ctx), count);

    const { ctx: other, campaignId: otherCampaign } = fresh();
    const otherIds = seedEntries(other, {
      campaignId: otherCampaign,
      count,
      status: () => 'PENDING',
      accessKey: (i) => (i === 0 ? KEY : String(i).padStart(44, '4')),
    });
    assert.equal(earlier(other, otherCampaign, otherIds[0]), null);
    assert.equal(indexedThrough(other), rowidOf(other, otherIds[0]) + RECEIPTS_AHEAD);
    assert.equal(receiptRows(other), RECEIPTS_AHEAD + 1);
  });

  test('a later entry checked first still sees the earlier one, which is still pending; the earlier one sees nothing before it', () => {
    const { ctx, campaignId } = fresh();
    const [first, second] = seedEntries(ctx, { campaignId, count: 2, status: () => 'PENDING', accessKey: () => KEY });
    assert.equal(earlier(ctx, campaignId, second), first);
    assert.equal(earlier(ctx, campaignId, first), null);
  });

  test('entries committed after a catch-up are taken in by the next check', () => {
    const { ctx, campaignId } = fresh();
    const [a] = seedEntries(ctx, { campaignId, count: 1, status: () => 'PENDING', accessKey: () => KEY });
    assert.equal(earlier(ctx, campaignId, a), null);
    const [b, c] = seedEntries(ctx, {
      campaignId,
      count: 2,
      from: 10,
      status: (i) => (i === 10 ? 'REJECTED' : 'PENDING'),
      accessKey: () => KEY,
    });
    // b is rejected, so c's earlier entry is a, and b's key is not copied (a rejection is final);
    // a test-mode entry with the key sees neither.
    assert.equal(earlier(ctx, campaignId, c), a);
    assert.equal(earlier(ctx, campaignId, b), a);
    const [t] = seedEntries(ctx, { campaignId, livemode: 0, count: 1, from: 20, status: () => 'PENDING', accessKey: () => KEY });
    assert.equal(earlier(ctx, campaignId, t, 0), null);
    assert.equal(receiptRows(ctx), 3);
    assert.equal(indexedThrough(ctx), rowidOf(ctx, t));
  });
});
