// Award transitions and the stock they move (docs/api.md#prizes-stock-and-awards). Every
// transition writes an award_history row. Stock rule: a confirmed win takes a unit when one is
// left, otherwise it still stands and is counted in prizes.awarded_beyond_pool (awards.beyond_pool
// = 1). Returning a win gives its unit back to the oldest beyond-pool win of the prize if there is
// one, else to the stock. So at all times, per prize:
//   current_stock       = max(0, initial_stock - awarded)
//   awarded_beyond_pool = max(0, awarded - initial_stock)
import { getCampaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { toLivemode } from '../keys/keys.ts';
import {
  AWARD_STATUSES,
  findLiveAwardForEntry,
  findOldestBeyondPoolAward,
  insertAward,
  insertAwardHistory,
  listAwardHistory,
  listAwards,
  listAwardsOfEntry,
  setAwardBeyondPool,
  updateAwardStatus,
  type AwardRow,
  type AwardStatus,
} from './awards.repo.ts';
import { addBeyondPool, findPrizeById, returnPrizeUnit, takePrizeUnit } from './prizes.repo.ts';
import { toStatusFilter } from '../input/status-filter.ts';
import { disqualifyWinnerOfAward, openInstantWinner } from '../winners/winners.ts';

/** Takes a unit of the prize for a confirmed win; returns the award's beyond_pool flag. */
function takeUnit(ctx: Ctx, prizeId: string): 0 | 1 {
  if (takePrizeUnit(ctx.db, prizeId)) return 0;
  addBeyondPool(ctx.db, prizeId, 1);
  return 1;
}

function returnUnit(ctx: Ctx, award: AwardRow, now: string): void {
  if (award.beyond_pool === 1) {
    addBeyondPool(ctx.db, award.prize_id, -1);
    return;
  }
  const uncovered = findOldestBeyondPoolAward(ctx.db, award.prize_id);
  if (uncovered) {
    // The unit goes to a win that had none; the stock stays 0.
    setAwardBeyondPool(ctx.db, uncovered.id, 0, now);
    addBeyondPool(ctx.db, award.prize_id, -1);
    return;
  }
  returnPrizeUnit(ctx.db, award.prize_id);
}

function transition(ctx: Ctx, award: AwardRow, to: AwardStatus, now: string, actor: string, reason: string | null): AwardRow {
  updateAwardStatus(ctx.db, award.id, to, now);
  insertAwardHistory(ctx.db, { award_id: award.id, from_status: award.status, to_status: to, at: now, actor, reason });
  // The prize's winner (src/winners/winners.ts): opened by the confirmation, disqualified when the prize is taken back.
  if (to === 'awarded') openWinnerOfAward(ctx, award, now);
  else if (award.status === 'awarded') disqualifyWinnerOfAward(ctx, award.id, reason, actor, now);
  return { ...award, status: to, updated_at: now };
}

function openWinnerOfAward(ctx: Ctx, award: AwardRow, now: string): void {
  const prize = findPrizeById(ctx.db, award.prize_id);
  openInstantWinner(
    ctx,
    award,
    { description: prize?.name ?? null, valueCents: prize === undefined ? null : Math.round(prize.unit_value * 100) },
    now,
  );
}

/** pending -> awarded (the entry was approved and evaluated); takes a unit. */
export function confirmAward(ctx: Ctx, award: AwardRow, now: string): AwardRow {
  const beyond = takeUnit(ctx, award.prize_id);
  if (beyond === 1) setAwardBeyondPool(ctx.db, award.id, 1, now);
  return { ...transition(ctx, award, 'awarded', now, 'system', 'entry approved'), beyond_pool: beyond };
}

/** awarded -> revoked; the unit returns. Callers handle the other statuses. */
export function revokeAward(ctx: Ctx, award: AwardRow, now: string, actor: string, reason: string | null): AwardRow {
  returnUnit(ctx, award, now);
  return transition(ctx, award, 'revoked', now, actor, reason);
}

/**
 * pending -> revoked: a declared win taken back before its entry was evaluated (the source of a
 * reassignment). It never took a unit, so none returns.
 */
export function withdrawPendingAward(ctx: Ctx, award: AwardRow, now: string, actor: string, reason: string | null): AwardRow {
  return transition(ctx, award, 'revoked', now, actor, reason);
}

interface NewAward {
  entryId: string;
  campaignId: string;
  livemode: number;
  prizeId: string;
  source: 'window' | 'reassign';
  windowId: number | null;
  now: string;
  actor: string;
  reason: string;
  /** For a reassignment: the award it re-registers. */
  reassignedFrom?: string;
}

/** A new win registered directly as `awarded` (a window claim or a reassignment); takes a unit. */
export function createAwardedAward(ctx: Ctx, input: NewAward): AwardRow {
  const beyond = takeUnit(ctx, input.prizeId);
  const row: AwardRow = {
    id: ctx.random.uuid(),
    entry_id: input.entryId,
    campaign_id: input.campaignId,
    livemode: input.livemode,
    prize_id: input.prizeId,
    source: input.source,
    window_id: input.windowId,
    status: 'awarded',
    beyond_pool: beyond,
    created_at: input.now,
    updated_at: input.now,
  };
  insertAward(ctx.db, row, input.reassignedFrom ?? null);
  insertAwardHistory(ctx.db, {
    award_id: row.id,
    from_status: null,
    to_status: 'awarded',
    at: input.now,
    actor: input.actor,
    reason: input.reason,
  });
  openWinnerOfAward(ctx, row, input.now);
  return row;
}

/**
 * A declared win that can no longer be confirmed becomes `voided`; no stock moves (nothing was
 * taken). Synchronous; runs in the caller's transaction. No-op when the entry has no pending award.
 */
export function voidPendingAward(ctx: Ctx, entryId: string, now: string, reason: string): void {
  const award = findLiveAwardForEntry(ctx.db, entryId);
  if (!award || award.status !== 'pending') return;
  transition(ctx, award, 'voided', now, 'system', reason);
}

/**
 * An entry rejected in processing keeps no win: its pending declared win is voided, and so is a
 * win a reassignment registered on it as `awarded` while it was still being processed (docs/api.md#processing-rejection-reasons:
 * a pending declared instant win is voided), whose unit then returns. Synchronous, in the caller's transaction.
 */
export function voidWinOfRejectedEntry(ctx: Ctx, entryId: string, now: string): void {
  const award = findLiveAwardForEntry(ctx.db, entryId);
  if (!award) return;
  if (award.status === 'awarded') returnUnit(ctx, award, now);
  transition(ctx, award, 'voided', now, 'system', 'entry rejected');
}

/** The operator's view of an award (`ces award list`, `ces entries show`). */
export interface OperatorAward {
  id: string;
  entry_id: string;
  campaign_id: string;
  livemode: boolean;
  prize_id: string;
  prize_name: string | null;
  source: AwardRow['source'];
  window_id: number | null;
  status: AwardStatus;
  beyond_pool: boolean;
  created_at: string;
  updated_at: string;
  history: AwardHistoryItem[];
}

type AwardHistoryItem = ReturnType<typeof listAwardHistory>[number];

function rowToOperatorAward(ctx: Ctx, row: AwardRow): OperatorAward {
  return {
    id: row.id,
    entry_id: row.entry_id,
    campaign_id: row.campaign_id,
    livemode: row.livemode === 1,
    prize_id: row.prize_id,
    prize_name: findPrizeById(ctx.db, row.prize_id)?.name ?? null,
    source: row.source,
    window_id: row.window_id,
    status: row.status,
    beyond_pool: row.beyond_pool === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    history: listAwardHistory(ctx.db, row.id),
  };
}

export function listOperatorAwards(ctx: Ctx, input: { campaignId: string; status?: string; mode?: string }): OperatorAward[] {
  getCampaign(ctx, input.campaignId);
  const status = toStatusFilter(input.status, AWARD_STATUSES);
  return listAwards(ctx.db, { campaignId: input.campaignId, livemode: toLivemode(input.mode), status }).map((r) =>
    rowToOperatorAward(ctx, r),
  );
}

/** Every award of the entry in the order registered, with its history (an entry may have a revoked one and a new one). */
export function listEntryAwards(ctx: Ctx, entryId: string): OperatorAward[] {
  return listAwardsOfEntry(ctx.db, entryId).map((r) => rowToOperatorAward(ctx, r));
}
