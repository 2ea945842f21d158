// The outbox as operators see it (`ces webhook deliveries|redeliver`): deliveries with their
// attempt history, and re-queueing. A `failed` or `delivered` delivery can be sent again, with its
// attempts reset and the same event id; a `skipped` one never is
// (docs/api.md#delivery-retries-and-failure: events queued while delivery was paused are never
// sent, not even after reactivation).
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, notFound } from '../kernel/errors.ts';
import {
  findDeliveryById,
  HELD_UNTIL_REACTIVATED,
  listAttempts,
  listDeliveries,
  listDeliveriesOfEntry,
  listFailedDeliveryIds,
  listRecentDeliveries,
  requeueDelivery,
  type DeliveryListRow,
  type DeliveryStatus,
} from './outbox.repo.ts';
import { findWebhookConfig } from './webhook-config.repo.ts';
import { toStatusFilter } from '../input/status-filter.ts';
import { maskUrlCredentials } from '../tools/url-credentials.ts';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'skipped'];

export interface DeliveryView {
  id: string;
  campaign_id: string;
  livemode: boolean;
  event_type: string;
  entry_id: string | null;
  status: DeliveryStatus;
  /** Attempts recorded for this event, across redeliveries. */
  attempts: number;
  /** The start of the JSON body that is (or was) sent. */
  body_excerpt: string;
  last_status_code: number | null;
  /** The start of the receiver's answer to the latest attempt. */
  last_response_excerpt: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
  /** Pending, and waiting for the campaign's delivery to be switched back on (is_active). */
  held: boolean;
  created_at: string;
  delivered_at: string | null;
}

const BODY_EXCERPT_CHARS = 200;

function toDeliveryView(row: DeliveryListRow): DeliveryView {
  const held = row.status === 'pending' && row.next_attempt_at === HELD_UNTIL_REACTIVATED;
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    livemode: row.livemode === 1,
    event_type: row.event_type,
    entry_id: row.entry_id,
    status: row.status,
    attempts: row.attempt_count,
    body_excerpt: row.payload.length > BODY_EXCERPT_CHARS ? `${row.payload.slice(0, BODY_EXCERPT_CHARS)}…` : row.payload,
    last_status_code: row.last_status_code,
    last_response_excerpt: row.last_response_excerpt,
    last_error: row.last_error,
    next_attempt_at: row.status === 'pending' && !held ? row.next_attempt_at : null,
    held,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
  };
}

export function listDeliveryViews(ctx: Ctx, campaignId: string, status: string | undefined, limit: number): DeliveryView[] {
  const wanted = toStatusFilter(status, DELIVERY_STATUSES);
  return listDeliveries(ctx.db, campaignId, wanted ?? null, limit).map(toDeliveryView);
}

/** The newest deliveries, of one status or all, read on the campaign's index (the dashboard's webhook page). */
export function listRecentDeliveryViews(ctx: Ctx, campaignId: string, status: string | undefined, limit: number): DeliveryView[] {
  const wanted = toStatusFilter(status, DELIVERY_STATUSES);
  return listRecentDeliveries(ctx.db, campaignId, wanted ?? null, limit).map(toDeliveryView);
}

/** Every event queued about one entry, oldest first (`ces entries show`). */
export function listEntryDeliveryViews(ctx: Ctx, entryId: string): DeliveryView[] {
  return listDeliveriesOfEntry(ctx.db, entryId).map(toDeliveryView);
}

export function getDeliveryWithAttempts(ctx: Ctx, id: string): DeliveryView & { attempt_log: ReturnType<typeof listAttempts> } {
  const row = findDeliveryById(ctx.db, id);
  if (!row) throw notFound('Delivery');
  // Masked on reading too: attempts recorded before ces masked them hold the URL with its password.
  const attemptLog = listAttempts(ctx.db, id).map((a) => ({ ...a, url: a.url === null ? null : maskUrlCredentials(a.url) }));
  const lastResponse = attemptLog.at(-1)?.response_excerpt ?? null;
  return { ...toDeliveryView({ ...row, attempt_count: attemptLog.length, last_response_excerpt: lastResponse }), attempt_log: attemptLog };
}

/** When a re-queued delivery is due: now, or held until reactivation while the campaign's delivery is paused. */
function requeueAt(ctx: Ctx, campaignId: string): string {
  return findWebhookConfig(ctx.db, campaignId)?.is_active === 0 ? HELD_UNTIL_REACTIVATED : nowIso(ctx.clock);
}

/**
 * Re-queues one delivery, due now (or held while delivery is paused). Audited as
 * `webhook.redelivered`: it sends a participant's data to a third party again.
 */
export function redeliver(ctx: Ctx, id: string, actor: Actor): DeliveryView {
  return ctx.db
    .transaction(() => {
      const row = findDeliveryById(ctx.db, id);
      if (!row) throw notFound('Delivery');
      if (row.status === 'skipped')
        throw new AppError(
          409,
          'delivery_skipped',
          `Delivery ${id} was skipped (no active webhook configuration when the event happened) and is never sent.`,
        );
      if (row.status === 'pending') throw new AppError(409, 'delivery_pending', `Delivery ${id} is already queued.`);
      requeueDelivery(ctx.db, id, requeueAt(ctx, row.campaign_id));
      recordAudit(ctx, {
        actor,
        action: 'webhook.redelivered',
        campaignId: row.campaign_id,
        details: { delivery_id: id, event_type: row.event_type, entry_id: row.entry_id, mode: row.livemode === 1 ? 'live' : 'test' },
      });
      return getDeliveryWithAttempts(ctx, id);
    })
    .immediate();
}

/** Re-queues every failed delivery of the campaign: one `webhook.redelivered` record, none when there were none. */
/** How many of the campaign's deliveries failed (what redeliverFailed would queue again). */
export function countFailedDeliveries(ctx: Ctx, campaignId: string): number {
  return listFailedDeliveryIds(ctx.db, campaignId).length;
}

export function redeliverFailed(ctx: Ctx, campaignId: string, actor: Actor): DeliveryView[] {
  return ctx.db
    .transaction(() => {
      const at = requeueAt(ctx, campaignId);
      const ids = listFailedDeliveryIds(ctx.db, campaignId);
      const views = ids.map((id) => {
        requeueDelivery(ctx.db, id, at);
        const { attempt_log: _log, ...view } = getDeliveryWithAttempts(ctx, id);
        return view;
      });
      if (ids.length > 0)
        recordAudit(ctx, { actor, action: 'webhook.redelivered', campaignId, details: { all_failed: true, count: ids.length } });
      return views;
    })
    .immediate();
}
