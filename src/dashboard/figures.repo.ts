// SQL of the dashboard's figures. Every statement reads a handful of rows through an index or
// the counts the schema keeps (entry_counts), never a scan of a campaign's entries: a page must
// answer in well under 100 ms with a million entries (BENCHMARKS.md, section Dashboard).
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export interface Scope {
  campaign_id: string;
  livemode: number;
}

/** Entries by status, from entry_counts (kept by triggers). */
export function entryCountsOf(db: Db, campaignId: string): Array<{ livemode: number; status: string; n: number }> {
  return prepare<[string], { livemode: number; status: string; n: number }>(
    db,
    `SELECT livemode, status, n FROM entry_counts WHERE campaign_id = ?`,
  ).all(campaignId);
}

/** Pending webhook events of a campaign (both modes): a range of webhook_deliveries_campaign. */
export function countPendingDeliveries(db: Db, campaignId: string): number {
  return prepare<[string], number>(db, `SELECT count(*) FROM webhook_deliveries WHERE campaign_id = ? AND status = 'pending'`)
    .pluck()
    .get(campaignId)!;
}

export interface SettledDelivery {
  status: 'delivered' | 'failed';
  last_status_code: number | null;
  last_error: string | null;
  at: string;
}

/** The newest delivered and the newest failed event of a campaign (one index step each). */
export function lastSettledDeliveries(db: Db, campaignId: string): SettledDelivery[] {
  const sql = (status: string): string =>
    `SELECT status, last_status_code, last_error,
      coalesce(delivered_at, (SELECT max(a.attempted_at) FROM webhook_attempts a WHERE a.delivery_id = d.id), created_at) AS at
    FROM webhook_deliveries d WHERE campaign_id = ? AND status = '${status}' ORDER BY seq DESC LIMIT 1`;
  return [sql('delivered'), sql('failed')]
    .map((text) => prepare<[string], SettledDelivery>(db, text).get(campaignId))
    .filter((row): row is SettledDelivery => row !== undefined);
}

/**
 * Entries of one status received in [from, to): a count over one range of entries_campaign_status.
 * The chart asks this once per hour and status rather than grouping a day of entries by an
 * expression of created_at, which sorted every one of them (a launch day: tens of thousands).
 */
export function countEntriesBetween(db: Db, s: Scope & { status: string; from: string; to: string }): number {
  return prepare<[Scope & { status: string; from: string; to: string }], number>(
    db,
    `SELECT count(*) FROM entries
    WHERE campaign_id = @campaign_id AND livemode = @livemode AND status = @status AND created_at >= @from AND created_at < @to`,
  )
    .pluck()
    .get(s)!;
}

/**
 * The reasons of the newest `limit` rejected entries (an entry with two reasons counts in both),
 * and how many entries that was: bounded whatever the campaign's size.
 */
export function recentRejectionReasons(
  db: Db,
  s: Scope & { limit: number },
): { entries: number; reasons: Array<{ code: string; n: number }> } {
  const recent = `SELECT rejection_reasons FROM entries
    WHERE campaign_id = @campaign_id AND livemode = @livemode AND status = 'REJECTED' ORDER BY created_at DESC LIMIT @limit`;
  const reasons = prepare<[Scope & { limit: number }], { code: string; n: number }>(
    db,
    `SELECT json_extract(r.value, '$.code') AS code, count(*) AS n FROM (${recent}) e, json_each(e.rejection_reasons) r
    GROUP BY code ORDER BY n DESC, code`,
  ).all(s);
  const entries = prepare<[Scope & { limit: number }], number>(db, `SELECT count(*) FROM (${recent})`).pluck().get(s)!;
  return { entries, reasons };
}

export interface PrizeStockRow {
  id: string;
  name: string;
  type: string;
  initial_stock: number;
  current_stock: number;
  awarded_beyond_pool: number;
}

export function listPrizeStock(db: Db, s: Scope): PrizeStockRow[] {
  return prepare<[Scope], PrizeStockRow>(
    db,
    `SELECT id, name, type, initial_stock, current_stock, awarded_beyond_pool FROM prizes
    WHERE campaign_id = @campaign_id AND livemode = @livemode ORDER BY created_at, rowid`,
  ).all(s);
}

/** Lucky numbers held in the campaign and mode: a count over lucky_numbers' primary key prefix. */
export function countLuckyPairs(db: Db, s: Scope): number {
  return prepare<[Scope], number>(db, `SELECT count(*) FROM lucky_numbers WHERE campaign_id = @campaign_id AND livemode = @livemode`)
    .pluck()
    .get(s)!;
}

interface RecentAttempt {
  status_code: number | null;
  latency_ms: number | null;
  attempted_at: string;
  event_created_at: string;
}

/**
 * The campaign's attempts among the server's newest `window` (by id, the primary key): bounded
 * work whatever the history's length; a quiet campaign beside a busy one may have none in it.
 * CROSS JOIN keeps the attempts first: left to choose, SQLite walks the campaign's deliveries
 * (millions) and looks for recent attempts of each.
 */
export function recentAttempts(db: Db, s: Scope & { window: number }): RecentAttempt[] {
  return prepare<[Scope & { window: number }], RecentAttempt>(
    db,
    `SELECT a.status_code, a.latency_ms, a.attempted_at, d.created_at AS event_created_at
    FROM webhook_attempts a CROSS JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE a.id > (SELECT coalesce(max(id), 0) FROM webhook_attempts) - @window AND d.campaign_id = @campaign_id AND d.livemode = @livemode`,
  ).all(s);
}

/** When the oldest event still pending for the campaign and mode was queued (first by seq). */
export function oldestPendingDelivery(db: Db, s: Scope): string | null {
  return (
    prepare<[Scope], string>(
      db,
      `SELECT created_at FROM webhook_deliveries WHERE campaign_id = @campaign_id AND status = 'pending' AND livemode = @livemode
      ORDER BY seq LIMIT 1`,
    )
      .pluck()
      .get(s) ?? null
  );
}
