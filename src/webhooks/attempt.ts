// One attempt of a claimed delivery: the campaign's configuration read at send time (none: skipped;
// paused: nothing sent), the SSRF check, the body signed with the current secret (and, during a
// rotation's grace period, the one it replaced: signing.ts), the POST through the delivery agents,
// and what came back as an Outcome. Records nothing: outcomes.ts writes what an outcome means.
import { monotonicMs, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { describeFetchError } from '../tools/fetch-error.ts';
import { maskUrlCredentials } from '../tools/url-credentials.ts';
import { USER_AGENT } from '../kernel/version.ts';
import { agentsFor } from './delivery-agents.ts';
import type { DeliveryRow } from './outbox.repo.ts';
import { signDelivery, signingSecrets } from './signing.ts';
import { refuseWebhookTarget } from './ssrf.ts';
import { EXCERPT_CHARS, postWebhook } from './webhook-post.ts';
import { findWebhookConfigCached } from './webhook-config.repo.ts';

type Outcome =
  | { kind: 'skipped'; reason: string }
  /** Delivery is paused: nothing sent; the delivery waits for reactivation. */
  | { kind: 'paused' }
  | {
      kind: 'attempt';
      attemptedAt: string;
      url: string;
      ok: boolean;
      statusCode: number | null;
      latencyMs: number | null;
      error: string | null;
      excerpt: string | null;
    };

/** An attempt that reached (or tried to reach) the endpoint. */
export type Attempt = Extract<Outcome, { kind: 'attempt' }>;

/** What the tick records: an Outcome, or a ping sent before whose outcome was never recorded (not sent again). */
export type ClaimedOutcome = Outcome | { kind: 'interrupted' };

/**
 * A delivery the tick claimed, sent. Except a ping claimed a second time since it was queued or
 * redelivered: it was sent (by `ces webhook test`, or by a server) and its outcome never recorded
 * (the process was killed; its lease expired). A ping is never retried: it is settled as failed.
 */
export function sendClaimed(ctx: Ctx, delivery: DeliveryRow, signal?: AbortSignal): Promise<ClaimedOutcome> {
  if (delivery.event_type === 'ping' && delivery.attempts > 1) return Promise.resolve({ kind: 'interrupted' });
  return attemptDelivery(ctx, delivery, signal);
}

/** One signed POST of a claimed delivery (also used by `ces webhook test`); records nothing. */
export async function attemptDelivery(ctx: Ctx, delivery: DeliveryRow, signal?: AbortSignal): Promise<Outcome> {
  // From the row memo: a secret rotated or a pause made by this process or the CLI is seen from the
  // next event-loop turn on.
  const config = findWebhookConfigCached(ctx.db, delivery.campaign_id);
  if (!config) return { kind: 'skipped', reason: 'no webhook configuration at send time' };
  if (config.is_active !== 1) return { kind: 'paused' };
  const attemptedMs = ctx.clock.now();
  // The attempt record names the URL without its password
  // (docs/api.md#delivery-retries-and-failure); the POST uses the real one.
  const base = { kind: 'attempt' as const, attemptedAt: toIso(attemptedMs), url: maskUrlCredentials(config.endpoint_url) };
  const refused = await refuseWebhookTarget(config.endpoint_url, ctx.config.allowPrivateWebhooks);
  if (refused) return { ...base, ok: false, statusCode: null, latencyMs: null, error: refused, excerpt: null };

  const headers = {
    ...signDelivery(signingSecrets(config, attemptedMs), delivery.id, attemptedMs, delivery.payload),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  // A duration, not a time of day: the monotonic clock is right even when tests fix ctx.clock.
  const started = monotonicMs();
  try {
    const res = await postWebhook(config.endpoint_url, delivery.payload, headers, {
      timeoutMs: ctx.config.webhookTimeoutMs,
      publicOnly: !ctx.config.allowPrivateWebhooks,
      agents: agentsFor(ctx.config),
      signal,
    });
    const latencyMs = Math.round(monotonicMs() - started);
    const ok = res.status >= 200 && res.status <= 299;
    const excerpt = res.body !== '' ? res.body.slice(0, EXCERPT_CHARS) : null;
    return { ...base, ok, statusCode: res.status, latencyMs, error: ok ? null : `HTTP ${res.status}`, excerpt };
  } catch (error) {
    const latencyMs = Math.round(monotonicMs() - started);
    return { ...base, ok: false, statusCode: null, latencyMs, error: describeFetchError(error), excerpt: null };
  }
}
