// SQL of `ces stats`: aggregate counts over one campaign and mode. Days are America/Sao_Paulo
// calendar days: Brazil has had no daylight-saving time since 2019, so a fixed -3 hours is exact.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

interface Scope {
  campaign_id: string;
  livemode: number;
}

/** How many rows of a campaign's mode are in each status: entries, or webhook deliveries. */
function countByStatus(db: Db, table: 'entries' | 'webhook_deliveries', s: Scope): Array<{ status: string; count: number }> {
  return prepare<[Scope], { status: string; count: number }>(
    db,
    `SELECT status, count(*) AS count FROM ${table}
    WHERE campaign_id = @campaign_id AND livemode = @livemode GROUP BY status`,
  ).all(s);
}

export function countEntriesByStatus(db: Db, s: Scope): Array<{ status: string; count: number }> {
  return countByStatus(db, 'entries', s);
}

export function countEntriesByDay(db: Db, s: Scope): Array<{ day: string; status: string; count: number }> {
  return prepare<[Scope], { day: string; status: string; count: number }>(
    db,
    `SELECT date(created_at, '-3 hours') AS day, status, count(*) AS count
    FROM entries WHERE campaign_id = @campaign_id AND livemode = @livemode GROUP BY day, status ORDER BY day, status`,
  ).all(s);
}

/** How many entries carry each rejection reason code (an entry with two reasons counts in both). */
export function countRejectionReasons(db: Db, s: Scope): Array<{ code: string; count: number }> {
  return prepare<[Scope], { code: string; count: number }>(
    db,
    `SELECT json_extract(r.value, '$.code') AS code, count(DISTINCT e.id) AS count
    FROM entries e, json_each(e.rejection_reasons) r
    WHERE e.campaign_id = @campaign_id AND e.livemode = @livemode AND e.status = 'REJECTED'
    GROUP BY code ORDER BY count DESC, code`,
  ).all(s);
}

export interface PrizeStatsRow {
  id: string;
  name: string;
  initial_stock: number;
  current_stock: number;
  awarded_beyond_pool: number;
  awarded: number;
  pending: number;
  revoked: number;
  declined: number;
  voided: number;
}

export function listPrizeStats(db: Db, s: Scope): PrizeStatsRow[] {
  return prepare<[Scope], PrizeStatsRow>(
    db,
    `SELECT p.id, p.name, p.initial_stock, p.current_stock, p.awarded_beyond_pool,
      count(a.id) FILTER (WHERE a.status = 'awarded') AS awarded,
      count(a.id) FILTER (WHERE a.status = 'pending') AS pending,
      count(a.id) FILTER (WHERE a.status = 'revoked') AS revoked,
      count(a.id) FILTER (WHERE a.status = 'declined') AS declined,
      count(a.id) FILTER (WHERE a.status = 'voided') AS voided
    FROM prizes p LEFT JOIN awards a ON a.prize_id = p.id
    WHERE p.campaign_id = @campaign_id AND p.livemode = @livemode
    GROUP BY p.id ORDER BY p.created_at, p.rowid`,
  ).all(s);
}

export function countLuckyNumbers(db: Db, s: Scope): { numbers: number; entries: number } {
  return prepare<[Scope], { numbers: number; entries: number }>(
    db,
    `SELECT count(*) AS numbers, count(DISTINCT entry_id) AS entries
    FROM lucky_numbers WHERE campaign_id = @campaign_id AND livemode = @livemode`,
  ).get(s)!;
}

export function countDeliveriesByStatus(db: Db, s: Scope): Array<{ status: string; count: number }> {
  return countByStatus(db, 'webhook_deliveries', s);
}
