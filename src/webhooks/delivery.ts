// Sending the outbox. Each round claims up to `deliveryConcurrency` due deliveries, POSTs them in
// parallel outside any transaction, then records every attempt and its consequence in one short
// transaction: 2xx -> delivered; anything else, a timeout, a connection error or a refused target
// -> retried after CES_WEBHOOK_RETRY_SCHEDULE[n] seconds, and `failed` once the schedule is spent.
// The event id (envelope id, webhook-id header) never changes; the signature is computed at send
// time with the campaign's current secret, so a rotated secret applies to every later attempt.
// A delivery whose configuration was deleted or paused after the event was queued is marked
// `skipped` at send time, like one queued while paused.
import { ofetch } from 'ofetch';
import { monotonicMs, toIso } from '../clock.ts';
import type { Ctx } from '../context.ts';
import { describeFetchError } from '../pipeline/verifier.ts';
import { claimDeliveries, insertAttempt, settleDelivery, type DeliveryRow } from './outbox.repo.ts';
import { signDelivery } from './signing.ts';
import { refuseWebhookTarget } from './ssrf.ts';
import { findWebhookConfig } from './webhook-config.repo.ts';

export interface DeliveryStats {
  deliveriesAttempted: number;
  deliveriesDelivered: number;
  deliveriesRetrying: number;
  deliveriesFailed: number;
  deliveriesSkipped: number;
}

export const emptyDeliveryStats = (): DeliveryStats => ({ deliveriesAttempted: 0, deliveriesDelivered: 0, deliveriesRetrying: 0, deliveriesFailed: 0, deliveriesSkipped: 0 });

const EXCERPT_CHARS = 512;
const USER_AGENT = 'ces/0.1';

export type Outcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'attempt'; attemptedAt: string; url: string; ok: boolean; statusCode: number | null; latencyMs: number | null; error: string | null; excerpt: string | null };

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Deliveries still in flight after the tick that started them returned. With a pool, a tick does
 * not wait for slow endpoints: it starts up to `deliveryConcurrency - pool.size` attempts and
 * leaves; each records its own outcome when it ends. One endpoint that hangs until the timeout
 * then holds one slot, not the tick (jobs and other campaigns' deliveries go on).
 */
export type DeliveryPool = Set<Promise<void>>;

/**
 * Claims due deliveries and attempts them. Without a pool (tests, `tick()` by hand) it waits for
 * each round and records the outcomes in one transaction; with a pool it starts them and returns.
 */
export async function drainDeliveries(ctx: Ctx, stats: DeliveryStats, maxDeliveries: number, pool?: DeliveryPool): Promise<void> {
  let budget = maxDeliveries;
  while (budget > 0) {
    const slots = ctx.config.deliveryConcurrency - (pool?.size ?? 0);
    if (slots <= 0) break;
    const nowMs = ctx.clock.now();
    const lease = toIso(nowMs + ctx.config.webhookTimeoutMs + 60_000);
    const claimed = claimDeliveries(ctx.db, toIso(nowMs), lease, Math.min(slots, budget));
    if (claimed.length === 0) break;
    budget -= claimed.length;
    if (pool) {
      for (const delivery of claimed) {
        const run: Promise<void> = attemptDelivery(ctx, delivery)
          .then((outcome) => ctx.db.transaction(() => recordOutcome(ctx, delivery, lease, outcome, stats)).immediate())
          .catch((error: unknown) => ctx.log.error({ message: `webhook delivery ${delivery.id}: recording the attempt failed; retried after its lease`, error: String(error) }))
          .finally(() => pool.delete(run));
        pool.add(run);
      }
    } else {
      const outcomes = await Promise.all(claimed.map((d) => attemptDelivery(ctx, d)));
      ctx.db.transaction(() => {
        claimed.forEach((delivery, i) => recordOutcome(ctx, delivery, lease, outcomes[i], stats));
      }).immediate();
    }
    await yieldToEventLoop();
  }
}

/** One signed POST of a claimed delivery (also used by `ces webhook test`); records nothing. */
export async function attemptDelivery(ctx: Ctx, delivery: DeliveryRow): Promise<Outcome> {
  const config = findWebhookConfig(ctx.db, delivery.campaign_id);
  if (!config) return { kind: 'skipped', reason: 'no webhook configuration at send time' };
  if (config.is_active !== 1) return { kind: 'skipped', reason: 'delivery paused (is_active false) at send time' };
  const attemptedMs = ctx.clock.now();
  const base = { kind: 'attempt' as const, attemptedAt: toIso(attemptedMs), url: config.endpoint_url };
  const refused = await refuseWebhookTarget(config.endpoint_url, ctx.config.allowPrivateWebhooks);
  if (refused) return { ...base, ok: false, statusCode: null, latencyMs: null, error: refused, excerpt: null };

  const headers = {
    ...signDelivery(config.secret, delivery.id, attemptedMs, delivery.payload),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  // A duration, not a time of day: the monotonic clock is right even when tests fix ctx.clock.
  const started = monotonicMs();
  try {
    const res = await ofetch.raw<string, 'text'>(config.endpoint_url, {
      method: 'POST',
      body: delivery.payload,
      headers,
      responseType: 'text',
      ignoreResponseError: true,
      retry: 0,
      timeout: ctx.config.webhookTimeoutMs,
      // A redirect is not followed: it could lead anywhere, past the address check above.
      redirect: 'manual',
    });
    const latencyMs = Math.round(monotonicMs() - started);
    const ok = res.status >= 200 && res.status <= 299;
    const excerpt = typeof res._data === 'string' && res._data !== '' ? res._data.slice(0, EXCERPT_CHARS) : null;
    return { ...base, ok, statusCode: res.status, latencyMs, error: ok ? null : `HTTP ${res.status}`, excerpt };
  } catch (error) {
    const latencyMs = Math.round(monotonicMs() - started);
    return { ...base, ok: false, statusCode: null, latencyMs, error: describeFetchError(error), excerpt: null };
  }
}

function recordOutcome(ctx: Ctx, delivery: DeliveryRow, lease: string, outcome: Outcome, stats: DeliveryStats): void {
  if (outcome.kind === 'skipped') {
    // Not an attempt: nothing was sent, so the claim's count is taken back.
    if (settleDelivery(ctx.db, { id: delivery.id, locked_until: lease, status: 'skipped', next_attempt_at: null, last_error: outcome.reason, last_status_code: delivery.last_status_code, delivered_at: null, attempts_delta: -1 })) {
      stats.deliveriesSkipped++;
    }
    return;
  }
  stats.deliveriesAttempted++;
  insertAttempt(ctx.db, {
    delivery_id: delivery.id,
    attempted_at: outcome.attemptedAt,
    url: outcome.url,
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    error: outcome.error,
    response_excerpt: outcome.excerpt,
  });
  const nowMs = ctx.clock.now();
  if (outcome.ok) {
    if (settleDelivery(ctx.db, { id: delivery.id, locked_until: lease, status: 'delivered', next_attempt_at: null, last_error: null, last_status_code: outcome.statusCode, delivered_at: toIso(nowMs), attempts_delta: 0 })) {
      stats.deliveriesDelivered++;
    }
    return;
  }
  // delivery.attempts already counts this attempt; schedule[k] is the wait before retry k + 1.
  const schedule = ctx.config.webhookRetrySchedule;
  const retryIndex = delivery.attempts - 1;
  const retry = retryIndex < schedule.length;
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
    ctx.log.warn({ message: `webhook delivery ${delivery.id} (${delivery.event_type}) failed after ${delivery.attempts} attempts: ${outcome.error}`, delivery_id: delivery.id, campaign_id: delivery.campaign_id });
  }
}
