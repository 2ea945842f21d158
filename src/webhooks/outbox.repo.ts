// SQL of the webhook outbox (webhook_deliveries) and its attempts.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export interface DeliveryRow {
  seq: number;
  id: string;
  campaign_id: string;
  livemode: number;
  entry_id: string | null;
  event_type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  last_error: string | null;
  last_status_code: number | null;
  created_at: string;
  delivered_at: string | null;
}

export function insertDelivery(
  db: Db,
  row: Pick<
    DeliveryRow,
    'id' | 'campaign_id' | 'livemode' | 'entry_id' | 'event_type' | 'payload' | 'status' | 'next_attempt_at' | 'last_error' | 'created_at'
  >,
): void {
  prepare(
    db,
    `INSERT INTO webhook_deliveries (id, campaign_id, livemode, entry_id, event_type, payload, status, next_attempt_at, last_error, created_at)
    VALUES (@id, @campaign_id, @livemode, @entry_id, @event_type, @payload, @status, @next_attempt_at, @last_error, @created_at)`,
  ).run(row);
}

export interface AttemptRow {
  id: number;
  delivery_id: string;
  attempted_at: string;
  url: string | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_excerpt: string | null;
}

const DELIVERY_COLUMNS = `seq, id, campaign_id, livemode, entry_id, event_type, payload, status, attempts, next_attempt_at,
  locked_until, last_error, last_status_code, created_at, delivered_at`;

/**
 * The due, claimable deliveries of one campaign in claim order: longest due first, then in event
 * order. Events of one entry are first attempted in the order they happened: a delivery waits
 * while an earlier event of the same entry is pending and has never been attempted or is in
 * flight. The order is that of the partial index webhook_deliveries_campaign_due (campaign_id,
 * next_attempt_at, seq), so the claim walks due rows in index order and stops at `limit` instead
 * of sorting every pending row; the NOT EXISTS probes webhook_deliveries_entry
 * (test/slow/webhooks.test.ts checks the plan).
 */
export const DUE_DELIVERIES_SQL = `SELECT d.seq FROM webhook_deliveries d
      WHERE d.campaign_id = @campaign AND d.status = 'pending' AND d.next_attempt_at <= @now AND (d.locked_until IS NULL OR d.locked_until <= @now)
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
          WHERE e.entry_id = d.entry_id AND e.seq < d.seq AND e.status = 'pending' AND (e.attempts = 0 OR e.locked_until > @now))
      ORDER BY d.next_attempt_at, d.seq LIMIT @limit`;

/**
 * Claims, for each campaign of `plan`, up to its `room` due deliveries (see DUE_DELIVERIES_SQL),
 * counting the attempt and taking a lease. Returned in event order.
 */
export function claimDeliveries(
  db: Db,
  now: string,
  lockedUntil: string,
  plan: ReadonlyArray<{ key: string; room: number }>,
): DeliveryRow[] {
  const claim = prepare<{ campaign: string; now: string; lockedUntil: string; limit: number }, DeliveryRow>(
    db,
    `UPDATE webhook_deliveries
    SET locked_until = @lockedUntil, attempts = attempts + 1
    WHERE seq IN (${DUE_DELIVERIES_SQL})
    RETURNING ${DELIVERY_COLUMNS}`,
  );
  const claimed: DeliveryRow[] = [];
  for (const { key, room } of plan) if (room > 0) claimed.push(...claim.all({ campaign: key, now, lockedUntil, limit: room }));
  return claimed.sort((a, b) => a.seq - b.seq);
}

/** Campaigns that have a webhook configuration: the only ones whose deliveries can be pending. */
export function listWebhookCampaignIds(db: Db): string[] {
  return prepare<[], { campaign_id: string }>(db, `SELECT campaign_id FROM webhook_configs ORDER BY campaign_id`)
    .all()
    .map((r) => r.campaign_id);
}

export function insertAttempt(db: Db, row: Omit<AttemptRow, 'id'>): void {
  prepare(
    db,
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, url, status_code, latency_ms, error, response_excerpt)
    VALUES (@delivery_id, @attempted_at, @url, @status_code, @latency_ms, @error, @response_excerpt)`,
  ).run(row);
}

/** Settles a claimed delivery; false when its lease was lost (e.g. re-queued by the operator meanwhile). */
export function settleDelivery(
  db: Db,
  row: {
    id: string;
    locked_until: string;
    status: DeliveryStatus;
    next_attempt_at: string | null;
    last_error: string | null;
    last_status_code: number | null;
    delivered_at: string | null;
    attempts_delta: number;
  },
): boolean {
  return (
    prepare(
      db,
      `UPDATE webhook_deliveries SET status = @status, next_attempt_at = @next_attempt_at, locked_until = NULL,
      last_error = @last_error, last_status_code = @last_status_code,
      delivered_at = coalesce(@delivered_at, delivered_at), attempts = attempts + @attempts_delta
    WHERE id = @id AND locked_until = @locked_until AND status = 'pending'`,
    ).run(row).changes === 1
  );
}

/**
 * Leases one pending delivery by id, counting the attempt (as claimDeliveries does for due ones):
 * `ces webhook test` queues its ping and leases it in one transaction, so no tick can take it.
 */
export function leaseDeliveryById(db: Db, id: string, lockedUntil: string): DeliveryRow | undefined {
  return prepare<[string, string], DeliveryRow>(
    db,
    `UPDATE webhook_deliveries SET locked_until = ?, attempts = attempts + 1
    WHERE id = ? AND status = 'pending' AND locked_until IS NULL RETURNING ${DELIVERY_COLUMNS}`,
  ).get(lockedUntil, id);
}

/**
 * next_attempt_at of a pending delivery held while its campaign's delivery is paused (is_active
 * false): never due, so the claim's walk of webhook_deliveries_due does not even see it.
 */
export const HELD_UNTIL_REACTIVATED = '9999-12-31T23:59:59.999Z';

/** Holds every pending delivery of the campaign (pause); the claim no longer takes them. */
export function holdCampaignDeliveries(db: Db, campaignId: string): number {
  return prepare(
    db,
    `UPDATE webhook_deliveries SET next_attempt_at = ? WHERE campaign_id = ? AND status = 'pending' AND locked_until IS NULL`,
  ).run(HELD_UNTIL_REACTIVATED, campaignId).changes;
}

/** Makes the campaign's held deliveries due now (reactivation), in their original order. */
export function releaseCampaignDeliveries(db: Db, campaignId: string, now: string): number {
  return prepare(
    db,
    `UPDATE webhook_deliveries SET next_attempt_at = ? WHERE campaign_id = ? AND status = 'pending' AND next_attempt_at = ?`,
  ).run(now, campaignId, HELD_UNTIL_REACTIVATED).changes;
}

/**
 * At start-up no other server holds a lease on this file: leases of a killed process are stale.
 * Not a ping's: a `ces webhook test` may be waiting on it right now; one that was killed is
 * settled once its lease expires (sender.ts, sendClaimed).
 */
export function releaseDeliveryLeases(db: Db): number {
  return prepare(
    db,
    `UPDATE webhook_deliveries SET locked_until = NULL WHERE status = 'pending' AND locked_until IS NOT NULL AND event_type <> 'ping'`,
  ).run().changes;
}

/**
 * The earliest instant some pending delivery becomes claimable by DUE_DELIVERIES_SQL, or null when
 * none ever is (held ones, and those waiting behind a held one). A delivery waiting behind an
 * earlier event of its entry that was never attempted is left out: that earlier one is claimable
 * first. One waiting behind an attempt in flight is claimable at the latest of its own time and
 * the end of that attempt's lease. (Its own next_attempt_at alone can be earlier than anything
 * claimable, e.g. a redelivered event behind a retry scheduled later: a test that moves its
 * clock to that instant would find nothing to claim, for ever.)
 */
export function nextDeliveryDueAt(db: Db): string | null {
  const row = prepare<[string], { at: string | null }>(
    db,
    `SELECT min(max(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at),
        coalesce((SELECT max(e.locked_until) FROM webhook_deliveries e
          WHERE e.entry_id = d.entry_id AND e.seq < d.seq AND e.status = 'pending' AND e.attempts > 0), d.next_attempt_at))) AS at
    FROM webhook_deliveries d WHERE d.status = 'pending' AND d.next_attempt_at <> ?
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
        WHERE e.entry_id = d.entry_id AND e.seq < d.seq AND e.status = 'pending' AND e.attempts = 0)`,
  ).get(HELD_UNTIL_REACTIVATED);
  return row?.at ?? null;
}

export function findDeliveryById(db: Db, id: string): DeliveryRow | undefined {
  return prepare<[string], DeliveryRow>(db, `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ?`).get(id);
}

export interface DeliveryListRow extends DeliveryRow {
  attempt_count: number;
  /** The start of the receiver's answer to the latest attempt, when it sent one. */
  last_response_excerpt: string | null;
}

const DELIVERY_LIST_COLUMNS = `${DELIVERY_COLUMNS},
      (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id) AS attempt_count,
      (SELECT a.response_excerpt FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id ORDER BY a.id DESC LIMIT 1) AS last_response_excerpt`;

export function listDeliveries(db: Db, campaignId: string, status: DeliveryStatus | null, limit: number): DeliveryListRow[] {
  return prepare<[string, string | null, string | null, number], DeliveryListRow>(
    db,
    `SELECT ${DELIVERY_LIST_COLUMNS}
    FROM webhook_deliveries WHERE campaign_id = ? AND (? IS NULL OR status = ?) ORDER BY seq DESC LIMIT ?`,
  ).all(campaignId, status, status, limit);
}

/**
 * The newest `limit` deliveries of a campaign, of one status or of all, each status walked on
 * webhook_deliveries_campaign (campaign_id, status, seq) newest first and stopped at `limit`: a
 * page view reads at most 4 × limit rows, never the campaign's whole history (listDeliveries
 * sorts all of them, which suits a command run now and then, not a page).
 */
export function listRecentDeliveries(db: Db, campaignId: string, status: DeliveryStatus | null, limit: number): DeliveryListRow[] {
  const statuses: readonly DeliveryStatus[] = status === null ? ['pending', 'delivered', 'failed', 'skipped'] : [status];
  const one = `SELECT * FROM (SELECT ${DELIVERY_LIST_COLUMNS} FROM webhook_deliveries
    WHERE campaign_id = @campaign_id AND status = ? ORDER BY seq DESC LIMIT @limit)`;
  return prepare<[Record<string, unknown>, ...string[]], DeliveryListRow>(
    db,
    `${statuses.map(() => one).join(' UNION ALL ')} ORDER BY seq DESC LIMIT @limit`,
  ).all({ campaign_id: campaignId, limit }, ...statuses);
}

/** The events about one entry, in the order they were queued (webhook_deliveries_entry). */
export function listDeliveriesOfEntry(db: Db, entryId: string): DeliveryListRow[] {
  return prepare<[string], DeliveryListRow>(
    db,
    `SELECT ${DELIVERY_LIST_COLUMNS}
    FROM webhook_deliveries WHERE entry_id = ? ORDER BY seq`,
  ).all(entryId);
}

export function listAttempts(db: Db, deliveryId: string): AttemptRow[] {
  return prepare<[string], AttemptRow>(
    db,
    `SELECT id, delivery_id, attempted_at, url, status_code, latency_ms, error, response_excerpt
    FROM webhook_attempts WHERE delivery_id = ? ORDER BY id`,
  ).all(deliveryId);
}

/** An attempt as the back-off replay reads it (src/webhooks/endpoint-health.ts). */
interface AttemptOutcomeRow {
  campaign_id: string;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number | null;
}

/**
 * Every recorded attempt, newest first, with its campaign: the caller stops reading where it has
 * seen enough (rowid order is the order attempts were recorded, so no index on time is needed).
 */
export function iterateAttemptsNewestFirst(db: Db): IterableIterator<AttemptOutcomeRow> {
  return prepare<[], AttemptOutcomeRow>(
    db,
    `SELECT d.campaign_id, a.attempted_at, a.status_code, a.latency_ms
    FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    ORDER BY a.id DESC`,
  ).iterate();
}

export function listFailedDeliveryIds(db: Db, campaignId: string): string[] {
  return prepare<[string], { id: string }>(db, `SELECT id FROM webhook_deliveries WHERE campaign_id = ? AND status = 'failed' ORDER BY seq`)
    .all(campaignId)
    .map((r) => r.id);
}

/** Puts a failed or delivered delivery back in the queue, due now, with its attempts reset. */
export function requeueDelivery(db: Db, id: string, now: string): boolean {
  // delivered_at is when the current status was reached: a delivery sent again is not delivered
  // until it is, and if it then fails it must not look delivered. Its attempts keep the history.
  return (
    prepare(
      db,
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, locked_until = NULL, delivered_at = NULL
    WHERE id = ? AND status IN ('failed', 'delivered')`,
    ).run(now, id).changes === 1
  );
}

/**
 * Retention: deletes up to `limit` deliveries that were delivered or skipped before `before`,
 * oldest first, with their attempts, and says how many. Pending and failed ones stay (the
 * operator may still redeliver a failed one). Walks the partial index webhook_deliveries_settled.
 */
export function pruneSettledDeliveries(db: Db, before: string, limit: number): number {
  const ids = prepare<[string, number], { id: string }>(
    db,
    `SELECT id FROM webhook_deliveries
    WHERE status IN ('delivered', 'skipped') AND coalesce(delivered_at, created_at) < ?
    ORDER BY coalesce(delivered_at, created_at) LIMIT ?`,
  )
    .all(before, limit)
    .map((r) => r.id);
  if (ids.length === 0) return 0;
  const list = JSON.stringify(ids);
  prepare(db, `DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))`).run(list);
  return prepare(db, `DELETE FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?))`).run(list).changes;
}

export function hasSettledDeliveriesBefore(db: Db, before: string): boolean {
  return (
    prepare<[string], { one: number }>(
      db,
      `SELECT 1 AS one FROM webhook_deliveries
    WHERE status IN ('delivered', 'skipped') AND coalesce(delivered_at, created_at) < ? LIMIT 1`,
    ).get(before) !== undefined
  );
}

/** The seq of an event of the campaign and mode, or undefined (a page of GET /v1/events starts after it). */
export function findEventSeq(db: Db, id: string, campaignId: string, livemode: number): number | undefined {
  return prepare<[string, string, number], { seq: number }>(
    db,
    `SELECT seq FROM webhook_deliveries WHERE id = ? AND campaign_id = ? AND livemode = ? AND event_type <> 'ping'`,
  ).get(id, campaignId, livemode)?.seq;
}

/**
 * Events of a campaign and mode newest first, below `beforeSeq`, optionally of one type or one
 * entry: the payloads exactly as sent. `ces webhook test` pings are the operator's, not events.
 */
export function listEventPayloads(
  db: Db,
  q: { campaignId: string; livemode: number; beforeSeq: number; type: string | null; entryId: string | null; limit: number },
): string[] {
  if (q.entryId !== null)
    return prepare<Record<string, unknown>, { payload: string }>(
      db,
      `SELECT payload FROM webhook_deliveries
      WHERE entry_id = @entryId AND campaign_id = @campaignId AND livemode = @livemode AND seq < @beforeSeq
        AND (@type IS NULL OR event_type = @type) AND event_type <> 'ping'
      ORDER BY seq DESC LIMIT @limit`,
    )
      .all(q)
      .map((r) => r.payload);
  return prepare<Record<string, unknown>, { payload: string }>(
    db,
    `SELECT payload FROM webhook_deliveries INDEXED BY webhook_deliveries_events
    WHERE campaign_id = @campaignId AND livemode = @livemode AND seq < @beforeSeq
      AND (@type IS NULL OR event_type = @type) AND event_type <> 'ping'
    ORDER BY seq DESC LIMIT @limit`,
  )
    .all(q)
    .map((r) => r.payload);
}

/** The newest event's seq of a campaign (0 when none): `ces webhook listen` forwards what comes after it. */
export function lastEventSeq(db: Db, campaignId: string): number {
  return (
    prepare<[string], { seq: number | null }>(db, `SELECT max(seq) AS seq FROM webhook_deliveries WHERE campaign_id = ?`).get(campaignId)
      ?.seq ?? 0
  );
}

interface EventRow {
  seq: number;
  id: string;
  event_type: string;
  entry_id: string | null;
  payload: string;
}

/** Events of a campaign and mode after `afterSeq`, oldest first (pings excluded). */
export function listEventsAfter(db: Db, campaignId: string, livemode: number, afterSeq: number, limit: number): EventRow[] {
  return prepare<[string, number, number, number], EventRow>(
    db,
    `SELECT seq, id, event_type, entry_id, payload FROM webhook_deliveries INDEXED BY webhook_deliveries_events
    WHERE campaign_id = ? AND livemode = ? AND seq > ? AND event_type <> 'ping' ORDER BY seq LIMIT ?`,
  ).all(campaignId, livemode, afterSeq, limit);
}
