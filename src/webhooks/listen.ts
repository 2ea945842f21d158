// `ces webhook listen --forward-to URL` (docs/operations.md#local-development-ces-webhook-listen):
// forwards the campaign's new events, signed with the campaign's secret in the Standard Webhooks
// headers, to a receiver on the developer's own machine, which may be plain http on a loopback
// address. It reads the outbox the server writes (whether the events are sent, skipped or pending
// there), so the configured endpoint is unaffected and the server need not know. Each event is
// forwarded once, in order; a failed forward is reported and not retried (the event stays in GET
// /v1/events).
import { isLoopbackHost } from '../tools/loopback-host.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { monotonicMs, nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName } from '../kernel/errors.ts';
import { lastEventSeq, listEventsAfter } from './outbox.repo.ts';
import { signDelivery, signingSecrets } from './signing.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { getWebhookConfig } from './webhook-config.ts';

export interface Forwarded {
  at: string;
  event_id: string;
  event_type: string;
  entry_id: string | null;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

interface ListenOptions {
  campaignId: string;
  livemode: boolean;
  forwardTo: URL;
  signal: AbortSignal;
  /** How often the outbox is read for new events. */
  pollMs?: number;
  timeoutMs: number;
  /** Called once the starting point is taken: every event recorded from then on is forwarded. */
  onReady?: () => void;
  onForward: (result: Forwarded) => void;
}

/** The --forward-to URL: https anywhere, or plain http on a loopback address (the developer's machine). */
export function parseForwardUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError(
      422,
      'invalid_option',
      `${fieldName('forward_to')} must be a URL such as http://localhost:4000/webhooks, got "${value}"`,
    );
  }
  if (url.username !== '' || url.password !== '') throw new AppError(422, 'invalid_option', '`forward_to` must not carry credentials');
  if (url.protocol === 'https:') return url;
  // URL keeps an IPv6 literal's brackets in hostname ([::1]).
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''))) return url;
  throw new AppError(
    422,
    'invalid_option',
    '`forward_to` must be https://, or http:// on a loopback address (localhost, 127.0.0.1, [::1])',
  );
}

/** Forwards until the signal aborts; returns how many events were forwarded. */
export async function forwardEvents(ctx: Ctx, options: ListenOptions): Promise<number> {
  // A campaign that does not exist is "Campaign not found", not a missing configuration of it.
  getCampaign(ctx, options.campaignId);
  getWebhookConfig(ctx, options.campaignId);
  let cursor = lastEventSeq(ctx.db, options.campaignId);
  options.onReady?.();
  let forwarded = 0;
  const livemode = options.livemode ? 1 : 0;
  while (!options.signal.aborted) {
    const rows = listEventsAfter(ctx.db, options.campaignId, livemode, cursor, 100);
    for (const row of rows) {
      if (options.signal.aborted) break;
      // The secret is read for each event: a rotation while listening signs the next one anew.
      const secrets = signingSecrets(getWebhookConfig(ctx, options.campaignId), ctx.clock.now());
      const headers = signDelivery(secrets, row.id, ctx.clock.now(), row.payload);
      const started = monotonicMs();
      let status: number | null = null;
      let error: string | null = null;
      try {
        const res = await fetch(options.forwardTo, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'ces-webhook-listen', ...headers },
          body: row.payload,
          redirect: 'manual',
          signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
        });
        status = res.status;
        await res.body?.cancel();
      } catch (e) {
        error = options.signal.aborted ? 'stopped' : describeFailure(e);
      }
      cursor = row.seq;
      forwarded++;
      options.onForward({
        at: nowIso(ctx.clock),
        event_id: row.id,
        event_type: row.event_type,
        entry_id: row.entry_id,
        status,
        error,
        duration_ms: Math.round(monotonicMs() - started),
      });
    }
    if (rows.length === 0) await sleep(options.pollMs ?? 200, undefined, { signal: options.signal }).catch(() => {});
  }
  return forwarded;
}

function describeFailure(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if ((e as Error).name === 'TimeoutError') return 'timed out';
  return cause?.code ?? cause?.message ?? (e as Error).message;
}
