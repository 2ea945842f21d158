// SQL of awards and award_history.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export const AWARD_STATUSES = ['pending', 'awarded', 'revoked', 'declined', 'voided'] as const;
export type AwardStatus = (typeof AWARD_STATUSES)[number];

export interface AwardRow {
  id: string;
  entry_id: string;
  campaign_id: string;
  livemode: number;
  prize_id: string;
  source: 'declared' | 'window' | 'reassign';
  window_id: number | null;
  status: AwardStatus;
  beyond_pool: number;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, entry_id, campaign_id, livemode, prize_id, source, window_id, status, beyond_pool, created_at, updated_at';

// The order awards were registered in: the id of each award's first history row (every award is
// inserted with one). Not created_at, a wall-clock time that steps back (NTP, a resumed VM, a file
// moved to another host), nor the implicit rowid, which VACUUM may renumber; award_history.id is
// an INTEGER PRIMARY KEY, which it keeps. `alias`: the awards table's name in the query.
export const awardRegistered = (alias: string): string => `(SELECT min(h.id) FROM award_history h WHERE h.award_id = ${alias}.id)`;
const REGISTERED = awardRegistered('awards');

/** `reassignedFrom`: the award a reassignment re-registers (at most once: awards_reassigned_from). */
export function insertAward(db: Db, row: AwardRow, reassignedFrom: string | null = null): void {
  prepare(
    db,
    `INSERT INTO awards (${COLUMNS}, reassigned_from) VALUES (@id, @entry_id, @campaign_id, @livemode, @prize_id, @source, @window_id,
    @status, @beyond_pool, @created_at, @updated_at, @reassigned_from)`,
  ).run({ ...row, reassigned_from: reassignedFrom });
}

/** The award that re-registered `awardId` through a reassignment, if one did. */
export function findReassignmentOf(db: Db, awardId: string): AwardRow | undefined {
  return prepare<[string], AwardRow>(db, `SELECT ${COLUMNS} FROM awards WHERE reassigned_from = ?`).get(awardId);
}

export function insertAwardHistory(
  db: Db,
  row: { award_id: string; from_status: AwardStatus | null; to_status: AwardStatus; at: string; actor: string; reason: string | null },
): void {
  prepare(
    db,
    `INSERT INTO award_history (award_id, from_status, to_status, at, actor, reason)
    VALUES (@award_id, @from_status, @to_status, @at, @actor, @reason)`,
  ).run(row);
}

/**
 * The entry's award registered last (the one revoke and reassign act on), whatever its status. A
 * live award, if the entry has one, is always it: no award turns live again, and a new one is
 * registered only when none is live (awards_one_live_per_entry).
 */
export function findLatestAwardForEntry(db: Db, entryId: string): AwardRow | undefined {
  return prepare<[string], AwardRow>(db, `SELECT ${COLUMNS} FROM awards WHERE entry_id = ? ORDER BY ${REGISTERED} DESC LIMIT 1`).get(
    entryId,
  );
}

export function listAwardHistory(
  db: Db,
  awardId: string,
): Array<{ from_status: AwardStatus | null; to_status: AwardStatus; at: string; actor: string; reason: string | null }> {
  return prepare<[string], { from_status: AwardStatus | null; to_status: AwardStatus; at: string; actor: string; reason: string | null }>(
    db,
    `SELECT from_status, to_status, at, actor, reason FROM award_history WHERE award_id = ? ORDER BY id`,
  ).all(awardId);
}

export function findLiveAwardForEntry(db: Db, entryId: string): AwardRow | undefined {
  return prepare<[string], AwardRow>(db, `SELECT ${COLUMNS} FROM awards WHERE entry_id = ? AND status IN ('pending', 'awarded')`).get(
    entryId,
  );
}

export function updateAwardStatus(db: Db, id: string, status: AwardStatus, now: string): void {
  prepare(db, `UPDATE awards SET status = ?, updated_at = ? WHERE id = ?`).run(status, now, id);
}

export function setAwardBeyondPool(db: Db, id: string, beyondPool: 0 | 1, now: string): void {
  prepare(db, `UPDATE awards SET beyond_pool = ?, updated_at = ? WHERE id = ?`).run(beyondPool, now, id);
}

/** The win of the prize registered first among those that hold no unit (confirmed while the stock was 0). */
export function findOldestBeyondPoolAward(db: Db, prizeId: string): AwardRow | undefined {
  return prepare<[string], AwardRow>(
    db,
    `SELECT ${COLUMNS} FROM awards WHERE prize_id = ? AND status = 'awarded' AND beyond_pool = 1
    ORDER BY ${REGISTERED} LIMIT 1`,
  ).get(prizeId);
}

interface AwardListFilter {
  campaignId: string;
  livemode?: number;
  status?: AwardStatus;
}

export function listAwards(db: Db, f: AwardListFilter): AwardRow[] {
  return prepare<[string, number | null, number | null, string | null, string | null], AwardRow>(
    db,
    `SELECT ${COLUMNS} FROM awards
    WHERE campaign_id = ? AND (? IS NULL OR livemode = ?) AND (? IS NULL OR status = ?)
    ORDER BY ${REGISTERED}`,
  ).all(f.campaignId, f.livemode ?? null, f.livemode ?? null, f.status ?? null, f.status ?? null);
}

export function listAwardsOfEntry(db: Db, entryId: string): AwardRow[] {
  return prepare<[string], AwardRow>(db, `SELECT ${COLUMNS} FROM awards WHERE entry_id = ? ORDER BY ${REGISTERED}`).all(entryId);
}
