// What an attempt's outcome does to its delivery, recorded in the caller's transaction (one that
// holds the claim's lease): 2xx -> delivered; anything else, a timeout, a connection error or a
// refused target -> retried after CES_WEBHOOK_RETRY_SCHEDULE[n] seconds, and `failed` once the
// schedule is spent (a ping is never retried). A delivery whose campaign's delivery was paused after
// the event was queued is held (pending, never due: HELD_UNTIL_REACTIVATED) until it is switched
// back on; one with no configuration at send time is marked `skipped`, like an event that happened
// while paused. Every settle is guarded by the lease, so an outcome recorded late changes nothing.
import { toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Db } from '../db/open.ts';
import type { Attempt, ClaimedOutcome } from './attempt.ts';
import { HELD_UNTIL_REACTIVATED, holdCampaignDeliveries, insertAttempt, settleDelivery, type DeliveryRow } from './outbox.repo.ts';
import { findWebhookConfig } from './webhook-config.repo.ts';

export interface DeliveryStats {
  deliveriesAttempted: number;
  deliveriesDelivered: number;
  deliveriesRetrying: number;
  deliveriesFailed: number;
  deliveriesSkipped: number;
}

export const emptyDeliveryStats = (): DeliveryStats => ({
  deliveriesAttempted: 0,
  deliveriesDelivered: 0,
  deliveriesRetrying: 0,
  deliveriesFailed: 0,
  deliveriesSkipped: 0,
});

/** Records one attempt of a delivery, as `ces webhook deliveries` and the metrics read it; in the caller's transaction. */
export function recordAttempt(db: Db, deliveryId: string, attempt: Attempt): void {
  insertAttempt(db, {
    delivery_id: deliveryId,
    attempted_at: attempt.attemptedAt,
    url: attempt.url,
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
    response_excerpt: attempt.excerpt,
  });
}

/** Why a ping claimed again is settled as failed: it was sent, and its sender stopped before recording what came back. */
const INTERRUPTED_PING = "interrupted before its outcome was recorded (was the operator's test stopped?); a ping is never retried";

/** Records a claimed delivery's outcome and counts it in `stats`; in the caller's transaction. */
export function recordOutcome(ctx: Ctx, delivery: DeliveryRow, lease: string, outcome: ClaimedOutcome, stats: DeliveryStats): void {
  if (outcome.kind === 'paused') {
    // Claimed as delivery was paused (the pause held the unclaimed ones): held too, and so is
    // anything of the campaign that became due since (not an attempt: the count is taken back).
    // Unless delivery was turned back on since the attempt looked: that reactivation released
    // nothing of this claimed row, and holding now would keep the campaign's events back while
    // delivery is on. Read from the table, not the memo: this transaction holds the write lock.
    const stillPaused = findWebhookConfig(ctx.db, delivery.campaign_id)?.is_active === 0;
    const nextAttemptAt = stillPaused ? HELD_UNTIL_REACTIVATED : toIso(ctx.clock.now());
    settleDelivery(ctx.db, {
      id: delivery.id,
      locked_until: lease,
      status: 'pending',
      next_attempt_at: nextAttemptAt,
      last_error: delivery.last_error,
      last_status_code: delivery.last_status_code,
      delivered_at: null,
      attempts_delta: -1,
    });
    if (stillPaused) holdCampaignDeliveries(ctx.db, delivery.campaign_id);
    return;
  }
  if (outcome.kind === 'skipped') {
    // Not an attempt: nothing was sent, so the claim's count is taken back.
    if (
      settleDelivery(ctx.db, {
        id: delivery.id,
        locked_until: lease,
        status: 'skipped',
        next_attempt_at: null,
        last_error: outcome.reason,
        last_status_code: delivery.last_status_code,
        delivered_at: null,
        attempts_delta: -1,
      })
    ) {
      stats.deliveriesSkipped++;
    }
    return;
  }
  if (outcome.kind === 'interrupted') {
    // The attempt that was sent is counted already; this claim is not one.
    if (
      settleDelivery(ctx.db, {
        id: delivery.id,
        locked_until: lease,
        status: 'failed',
        next_attempt_at: null,
        last_error: INTERRUPTED_PING,
        last_status_code: delivery.last_status_code,
        delivered_at: null,
        attempts_delta: -1,
      })
    ) {
      stats.deliveriesFailed++;
    }
    return;
  }
  stats.deliveriesAttempted++;
  recordAttempt(ctx.db, delivery.id, outcome);
  const nowMs = ctx.clock.now();
  if (outcome.ok) {
    if (
      settleDelivery(ctx.db, {
        id: delivery.id,
        locked_until: lease,
        status: 'delivered',
        next_attempt_at: null,
        last_error: null,
        last_status_code: outcome.statusCode,
        delivered_at: toIso(nowMs),
        attempts_delta: 0,
      })
    ) {
      stats.deliveriesDelivered++;
    }
    return;
  }
  // delivery.attempts already counts this attempt; schedule[k] is the wait before retry k + 1.
  // A ping (one redelivered by the operator) is never retried, as `ces webhook test` never retries it.
  const schedule = ctx.config.webhookRetrySchedule;
  const retryIndex = delivery.attempts - 1;
  const retry = retryIndex < schedule.length && delivery.event_type !== 'ping';
  const settled = settleDelivery(ctx.db, {
    id: delivery.id,
    locked_until: lease,
    status: retry ? 'pending' : 'failed',
    next_attempt_at: retry ? toIso(nowMs + schedule[retryIndex] * 1000) : null,
    last_error: outcome.error,
    last_status_code: outcome.statusCode,
    delivered_at: null,
    attempts_delta: 0,
  });
  if (!settled) return;
  if (retry) stats.deliveriesRetrying++;
  else {
    stats.deliveriesFailed++;
    ctx.log.warn({
      message: `webhook delivery ${delivery.id} (${delivery.event_type}) failed after ${delivery.attempts} attempts: ${outcome.error}`,
      delivery_id: delivery.id,
      campaign_id: delivery.campaign_id,
    });
  }
}
