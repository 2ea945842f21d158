// Evaluation of an APPROVED entry against the campaign's mechanics (docs/api.md#mechanics-lucky-numbers-and-instant-prizes).
// Called by the pipeline inside the evaluation job's transaction; its writes (awards, lucky numbers,
// window claims, stock) commit together with the job's completion and the entry.evaluated event.
import type { Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import type { EntryRow } from '../entries/entries.repo.ts';
import { confirmAward, createAwardedAward, voidPendingAward } from './awards.ts';
import { findLatestAwardForEntry, findLiveAwardForEntry, type AwardRow } from './awards.repo.ts';
import { allocateLuckyNumbers, type StepBudget } from './lucky-numbers.ts';
import { formatPair, PAIRS_PER_SERIES } from './lucky-pairs.ts';
import { findPrizeById } from './prizes.repo.ts';
import { claimEarliestOpenWindow, findWindowClaimedBy } from './windows.repo.ts';

export interface MechanicResult {
  mechanic_type: 'lucky_numbers' | 'instant_prize';
  status: 'APPROVED' | 'REJECTED';
  outcome: Record<string, unknown>;
}

/**
 * Runs every mechanic the campaign has; [] for a campaign with none. Synchronous: no awaits.
 * 'deferred' when the lucky numbers spent `steps` before they were done (see allocateLuckyNumbers):
 * nothing else was evaluated, and the caller runs the evaluation again in a later transaction.
 */
export function evaluateMechanics(
  ctx: Ctx,
  campaign: Campaign,
  entry: EntryRow,
  now: string,
  steps?: StepBudget,
): MechanicResult[] | 'deferred' {
  const results: MechanicResult[] = [];
  if (campaign.lucky_numbers === 'manual') {
    results.push({
      mechanic_type: 'lucky_numbers',
      status: 'APPROVED',
      outcome: { quantity: campaign.lucky_quantity, series_count: campaign.series_count },
    });
  } else if (campaign.lucky_numbers === 'auto') {
    const lucky = evaluateAutoLuckyNumbers(ctx, campaign, entry, now, steps);
    if (lucky === 'deferred') return lucky;
    results.push(lucky);
  }
  if (campaign.instant_prize !== 'INTEGRATOR_DECLARED' && entry.declared_win !== null) {
    // A win declared at intake, but the campaign no longer takes declared wins (`ces campaign
    // update` since): it is voided, never confirmed, and the entry is evaluated under the mechanic
    // the campaign has now. Left pending it could never be resolved, and a WINDOW claim beside it
    // would break the one-live-award rule on every retry.
    voidPendingAward(ctx, entry.id, now, 'the campaign no longer takes declared wins');
  }
  if (campaign.instant_prize === 'INTEGRATOR_DECLARED') {
    const result = evaluateDeclaredWin(ctx, entry, now);
    if (result) results.push(result);
  } else if (campaign.instant_prize === 'WINDOW') {
    results.push(evaluateWindow(ctx, campaign, entry, now));
  }
  return results;
}

function evaluateAutoLuckyNumbers(
  ctx: Ctx,
  campaign: Campaign,
  entry: EntryRow,
  now: string,
  steps?: StepBudget,
): MechanicResult | 'deferred' {
  const result = allocateLuckyNumbers(
    ctx,
    {
      campaignId: campaign.id,
      livemode: entry.livemode,
      seriesCount: campaign.series_count,
      entryId: entry.id,
      quantity: campaign.lucky_quantity,
      now,
    },
    steps,
  );
  if ('deferred' in result) return 'deferred';
  if (!result.ok) {
    return {
      mechanic_type: 'lucky_numbers',
      status: 'REJECTED',
      outcome: {
        reason: 'pool_exhausted',
        quantity: campaign.lucky_quantity,
        available: result.available,
        pool_size: campaign.series_count * PAIRS_PER_SERIES,
      },
    };
  }
  return {
    mechanic_type: 'lucky_numbers',
    status: 'APPROVED',
    outcome: { numbers: result.pairs.map((p) => formatPair(p.series, p.order_number)) },
  };
}

/**
 * INTEGRATOR_DECLARED: the entry's award, confirmed if pending, whoever registered it (its declared
 * win, or a reassignment onto it while its evaluation was still to run); else the declared loss
 * echoed, and nothing without a declaration.
 */
function evaluateDeclaredWin(ctx: Ctx, entry: EntryRow, now: string): MechanicResult | null {
  const latest = findLatestAwardForEntry(ctx.db, entry.id);
  if (latest) return winResult(ctx, latest.status === 'pending' ? confirmAward(ctx, latest, now) : latest);
  if (entry.declared_win === null) return null;
  return { mechanic_type: 'instant_prize', status: 'REJECTED', outcome: { won: false } };
}

function evaluateWindow(ctx: Ctx, campaign: Campaign, entry: EntryRow, now: string): MechanicResult {
  // A re-run evaluation keeps the window the entry already holds.
  const held = findWindowClaimedBy(ctx.db, entry.id);
  if (held) {
    const award = findLatestAwardForEntry(ctx.db, entry.id);
    if (award) return winResult(ctx, award);
  }
  // A win a reassignment registered on the entry before the campaign turned to WINDOW stands; a
  // window claimed beside it would be a second live award (refused by the unique index, for ever).
  const live = held ? undefined : findLiveAwardForEntry(ctx.db, entry.id);
  if (live) return winResult(ctx, live);
  const window = held ?? claimEarliestOpenWindow(ctx.db, campaign.id, entry.livemode, entry.id, now);
  if (!window) return { mechanic_type: 'instant_prize', status: 'REJECTED', outcome: { won: false } };
  const award = createAwardedAward(ctx, {
    entryId: entry.id,
    campaignId: campaign.id,
    livemode: entry.livemode,
    prizeId: window.prize_id,
    source: 'window',
    windowId: window.id,
    now,
    actor: 'system',
    reason: `window ${window.id} (opens ${window.opens_at}) claimed`,
  });
  return winResult(ctx, award);
}

function winResult(ctx: Ctx, award: AwardRow): MechanicResult {
  const prize = findPrizeById(ctx.db, award.prize_id);
  const won = award.status === 'awarded' || award.status === 'pending';
  return {
    mechanic_type: 'instant_prize',
    status: won ? 'APPROVED' : 'REJECTED',
    outcome: { won, prize_definition_id: award.prize_id, prize_name: prize?.name ?? null, award_status: award.status.toUpperCase() },
  };
}
