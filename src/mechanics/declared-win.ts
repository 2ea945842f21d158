// INTEGRATOR_DECLARED instant prizes at intake: the declared win is recorded atomically with the
// entry as a `pending` award (docs/api.md#instant-prize-integrator_declared). The service never decides the win; it checks
// only that the prize is in the campaign's pool for the key's mode.
import type { Campaign } from '../campaigns/campaigns.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError } from '../kernel/errors.ts';
import { insertAward, insertAwardHistory } from './awards.repo.ts';
import { findScopedPrize } from './prizes.repo.ts';

export function recordDeclaredWin(
  ctx: Ctx,
  input: { campaign: Campaign; livemode: number; entryId: string; prizeId: string; actor: string; rejected: boolean; now: string },
): void {
  const prize = findScopedPrize(ctx.db, input.prizeId, input.campaign.id, input.livemode);
  if (!prize) {
    throw new AppError(422, 'unknown_prize', 'prize_definition_id is not a prize of this campaign.', [
      { field: 'instant_win.prize_definition_id', code: 'unknown_prize', message: 'not a prize of this campaign and mode' },
    ]);
  }
  const awardId = ctx.random.uuid();
  insertAward(ctx.db, {
    id: awardId,
    entry_id: input.entryId,
    campaign_id: input.campaign.id,
    livemode: input.livemode,
    prize_id: prize.id,
    source: 'declared',
    window_id: null,
    status: input.rejected ? 'voided' : 'pending',
    beyond_pool: 0,
    created_at: input.now,
    updated_at: input.now,
  });
  insertAwardHistory(ctx.db, {
    award_id: awardId,
    from_status: null,
    to_status: 'pending',
    at: input.now,
    actor: input.actor,
    reason: 'declared at intake',
  });
  if (input.rejected) {
    // An entry rejected at intake (bad access key) voids its declaration at once; no stock moves.
    insertAwardHistory(ctx.db, {
      award_id: awardId,
      from_status: 'pending',
      to_status: 'voided',
      at: input.now,
      actor: 'system',
      reason: 'entry rejected',
    });
  }
}
