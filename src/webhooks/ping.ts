// `ces webhook test`: a signed `ping` event sent now, once, to the campaign's endpoint, with the
// attempt reported back. It goes through the outbox like any event (same envelope, signing, SSRF
// check and attempt record, so it shows in `ces webhook deliveries` and in the metrics), but it is
// queued already leased, so no tick can send it too, and it is never retried: a ping answers
// "does the endpoint work now?". A paused configuration records it as skipped, as for any event.
import { toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { notFound } from '../kernel/errors.ts';
import { attemptDelivery } from './attempt.ts';
import { recordAttempt } from './outcomes.ts';
import { enqueueEvent } from './events.ts';
import { findDeliveryById, leaseDeliveryById, settleDelivery } from './outbox.repo.ts';
import { maskUrlCredentials } from '../tools/url-credentials.ts';
import { findWebhookConfig } from './webhook-config.repo.ts';

export interface PingResult {
  delivery_id: string;
  /** Without its password (src/tools/url-credentials.ts): the result is printed. */
  url: string;
  /** delivered (2xx), failed (anything else; not retried) or skipped (configuration paused). */
  result: 'delivered' | 'failed' | 'skipped';
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
  attempted_at: string | null;
}

const PING_MESSAGE = 'Test event from ces, sent by an operator to check this endpoint. Answer 2xx to acknowledge.';

export async function sendTestPing(ctx: Ctx, campaignId: string, livemode: boolean): Promise<PingResult> {
  getCampaign(ctx, campaignId);
  const config = findWebhookConfig(ctx.db, campaignId);
  if (!config) throw notFound('Webhook configuration');
  const lease = toIso(ctx.clock.now() + ctx.config.webhookTimeoutMs + 60_000);
  const queued = ctx.db
    .transaction(() => {
      const envelope = enqueueEvent(ctx, { campaignId, livemode, entryId: null, eventType: 'ping', data: { message: PING_MESSAGE } });
      return { id: envelope.id, leased: leaseDeliveryById(ctx.db, envelope.id, lease) };
    })
    .immediate();
  if (!queued.leased) {
    const row = findDeliveryById(ctx.db, queued.id)!;
    return {
      delivery_id: queued.id,
      url: maskUrlCredentials(config.endpoint_url),
      result: 'skipped',
      status_code: null,
      latency_ms: null,
      error: row.last_error,
      response_excerpt: null,
      attempted_at: null,
    };
  }
  const outcome = await attemptDelivery(ctx, queued.leased);
  return ctx.db
    .transaction((): PingResult => {
      const base = { delivery_id: queued.id, url: maskUrlCredentials(config.endpoint_url) };
      if (outcome.kind === 'skipped' || outcome.kind === 'paused') {
        // A ping is sent now or never: paused meanwhile, it is skipped like one queued while paused.
        const reason = outcome.kind === 'paused' ? 'delivery paused (is_active false) at send time' : outcome.reason;
        settleDelivery(ctx.db, {
          id: queued.id,
          locked_until: lease,
          status: 'skipped',
          next_attempt_at: null,
          last_error: reason,
          last_status_code: null,
          delivered_at: null,
          attempts_delta: -1,
        });
        return {
          ...base,
          result: 'skipped',
          status_code: null,
          latency_ms: null,
          error: reason,
          response_excerpt: null,
          attempted_at: null,
        };
      }
      recordAttempt(ctx.db, queued.id, outcome);
      const result = outcome.ok ? 'delivered' : 'failed';
      settleDelivery(ctx.db, {
        id: queued.id,
        locked_until: lease,
        status: result,
        next_attempt_at: null,
        last_error: outcome.error,
        last_status_code: outcome.statusCode,
        delivered_at: outcome.ok ? toIso(ctx.clock.now()) : null,
        attempts_delta: 0,
      });
      return {
        ...base,
        url: outcome.url,
        result,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        error: outcome.error,
        response_excerpt: outcome.excerpt,
        attempted_at: outcome.attemptedAt,
      };
    })
    .immediate();
}
