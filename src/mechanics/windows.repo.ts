// SQL of prize_windows (WINDOW instant prizes).
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export interface PrizeWindowRow {
  id: number;
  campaign_id: string;
  livemode: number;
  prize_id: string;
  opens_at: string;
  claimed_by_entry_id: string | null;
  claimed_at: string | null;
  created_at: string;
}

const COLUMNS = 'id, campaign_id, livemode, prize_id, opens_at, claimed_by_entry_id, claimed_at, created_at';

export function insertWindow(db: Db, row: Omit<PrizeWindowRow, 'id' | 'claimed_by_entry_id' | 'claimed_at'>): PrizeWindowRow {
  return prepare<Omit<PrizeWindowRow, 'id' | 'claimed_by_entry_id' | 'claimed_at'>, PrizeWindowRow>(
    db,
    `INSERT INTO prize_windows
    (campaign_id, livemode, prize_id, opens_at, created_at) VALUES (@campaign_id, @livemode, @prize_id, @opens_at, @created_at)
    RETURNING ${COLUMNS}`,
  ).get(row)!;
}

/**
 * Claims the earliest open (opens_at <= now), unclaimed window of the campaign and mode in one
 * guarded UPDATE: two evaluations can never both get it (and claimed_by_entry_id is UNIQUE).
 */
export function claimEarliestOpenWindow(
  db: Db,
  campaignId: string,
  livemode: number,
  entryId: string,
  now: string,
): PrizeWindowRow | undefined {
  return prepare<{ campaign_id: string; livemode: number; entry_id: string; now: string }, PrizeWindowRow>(
    db,
    `UPDATE prize_windows
    SET claimed_by_entry_id = @entry_id, claimed_at = @now
    WHERE id = (SELECT id FROM prize_windows WHERE campaign_id = @campaign_id AND livemode = @livemode
                AND claimed_by_entry_id IS NULL AND opens_at <= @now ORDER BY opens_at, id LIMIT 1)
      AND claimed_by_entry_id IS NULL
    RETURNING ${COLUMNS}`,
  ).get({ campaign_id: campaignId, livemode, entry_id: entryId, now });
}

export function findWindowClaimedBy(db: Db, entryId: string): PrizeWindowRow | undefined {
  return prepare<[string], PrizeWindowRow>(db, `SELECT ${COLUMNS} FROM prize_windows WHERE claimed_by_entry_id = ?`).get(entryId);
}

export function listWindows(db: Db, campaignId: string, livemode: number | null): PrizeWindowRow[] {
  return prepare<[string, number | null, number | null], PrizeWindowRow>(
    db,
    `SELECT ${COLUMNS} FROM prize_windows
    WHERE campaign_id = ? AND (? IS NULL OR livemode = ?) ORDER BY opens_at, id`,
  ).all(campaignId, livemode, livemode);
}

export interface WindowCountsRow {
  prize_id: string;
  /** Windows not claimed yet (opened or still to open). */
  unclaimed: number;
  /** The earliest opening among them. */
  next_opens_at: string;
}

/**
 * Per prize of the campaign and mode: the unclaimed windows and the earliest opening among them,
 * read on prize_windows_open (claimed windows are not in that index, and no other one covers a
 * campaign's windows: counting them would read the whole table).
 */
export function countUnclaimedWindowsByPrize(db: Db, campaignId: string, livemode: number): WindowCountsRow[] {
  return prepare<[string, number], WindowCountsRow>(
    db,
    `SELECT prize_id, count(*) AS unclaimed, min(opens_at) AS next_opens_at
    FROM prize_windows INDEXED BY prize_windows_open
    WHERE campaign_id = ? AND livemode = ? AND claimed_by_entry_id IS NULL GROUP BY prize_id`,
  ).all(campaignId, livemode);
}

/**
 * The first `limit` unclaimed windows in the order entries claim them. INDEXED BY: left to itself,
 * SQLite may read claimed_by_entry_id IS NULL on its unique index, every campaign's windows.
 */
export function listUnclaimedWindows(db: Db, campaignId: string, livemode: number, limit: number): PrizeWindowRow[] {
  return prepare<[string, number, number], PrizeWindowRow>(
    db,
    `SELECT ${COLUMNS} FROM prize_windows INDEXED BY prize_windows_open
    WHERE campaign_id = ? AND livemode = ? AND claimed_by_entry_id IS NULL ORDER BY opens_at, id LIMIT ?`,
  ).all(campaignId, livemode, limit);
}
