// Events: the envelope of docs/api.md#events, written to the outbox in the caller's transaction.
// Whether an event will be sent is decided here, once: with no configuration or with delivery
// paused it is recorded as `skipped` and never sent, not even after reactivation.
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { uuidv7 } from '../kernel/random.ts';
import { insertDelivery } from './outbox.repo.ts';
import { findWebhookConfigCached } from './webhook-config.repo.ts';

export const EVENT_TYPES = [
  'entry.received',
  'entry.completed',
  'entry.evaluated',
  'award.updated',
  'draw.published',
  'winner.updated',
  'ping',
] as const;
type EventType = (typeof EVENT_TYPES)[number];

export interface EventEnvelope<D = Record<string, unknown>> {
  id: string;
  event_type: EventType;
  created_at: string;
  livemode: boolean;
  campaign_id: string;
  data: D;
}

interface NewEvent {
  campaignId: string;
  livemode: boolean;
  entryId: string | null;
  eventType: EventType;
  data: Record<string, unknown>;
}

/** Queues one event; call inside the transaction that makes the change the event reports. */
export function enqueueEvent(ctx: Ctx, event: NewEvent): EventEnvelope {
  const createdAt = nowIso(ctx.clock);
  const envelope: EventEnvelope = {
    id: `evt_${uuidv7(ctx.random, ctx.clock.now()).replaceAll('-', '')}`,
    event_type: event.eventType,
    created_at: createdAt,
    livemode: event.livemode,
    campaign_id: event.campaignId,
    data: event.data,
  };
  const config = findWebhookConfigCached(ctx.db, event.campaignId);
  const sendable = config !== undefined && config.is_active === 1;
  insertDelivery(ctx.db, {
    id: envelope.id,
    campaign_id: event.campaignId,
    livemode: event.livemode ? 1 : 0,
    entry_id: event.entryId,
    event_type: event.eventType,
    payload: JSON.stringify(envelope),
    status: sendable ? 'pending' : 'skipped',
    next_attempt_at: sendable ? createdAt : null,
    last_error: sendable ? null : config ? 'delivery paused (is_active false)' : 'no webhook configuration',
    created_at: createdAt,
  });
  return envelope;
}
