// SQL of lucky_numbers and of the lazy Fisher-Yates pool (lucky_pools, lucky_pool_swaps) that the
// automatic allocation draws from.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

/** The entry's lucky numbers in series and number order, as GET /v1/entries/{id} lists them. */
export function listLuckyNumbersForEntryByPair(db: Db, entryId: string): Array<{ series: number; order_number: number }> {
  return prepare<[string], { series: number; order_number: number }>(
    db,
    `SELECT series, order_number FROM lucky_numbers
    WHERE entry_id = ? ORDER BY series, order_number`,
  ).all(entryId);
}

export interface LuckyPoolRow {
  campaign_id: string;
  livemode: number;
  size: number;
  drawn: number;
}

export function findLuckyPool(db: Db, campaignId: string, livemode: number): LuckyPoolRow | undefined {
  return prepare<[string, number], LuckyPoolRow>(
    db,
    `SELECT campaign_id, livemode, size, drawn FROM lucky_pools
    WHERE campaign_id = ? AND livemode = ?`,
  ).get(campaignId, livemode);
}

export function insertLuckyPool(db: Db, row: LuckyPoolRow): void {
  prepare(db, `INSERT INTO lucky_pools (campaign_id, livemode, size, drawn) VALUES (@campaign_id, @livemode, @size, @drawn)`).run(row);
}

export function updateLuckyPool(db: Db, row: LuckyPoolRow): void {
  prepare(db, `UPDATE lucky_pools SET size = @size, drawn = @drawn WHERE campaign_id = @campaign_id AND livemode = @livemode`).run(row);
}

/** Deletes up to `limit` swaps of the pool (a rebuild spreads over several calls); how many. */
export function deleteLuckyPoolSwaps(db: Db, campaignId: string, livemode: number, limit: number): number {
  return prepare(
    db,
    `DELETE FROM lucky_pool_swaps WHERE campaign_id = @campaignId AND livemode = @livemode AND position IN (
      SELECT position FROM lucky_pool_swaps WHERE campaign_id = @campaignId AND livemode = @livemode LIMIT @limit)`,
  ).run({ campaignId, livemode, limit }).changes;
}

/** The value at `position` of the sparse permutation, or undefined when it is still the identity. */
export function findSwap(db: Db, campaignId: string, livemode: number, position: number): number | undefined {
  const row = prepare<[string, number, number], { value: number }>(
    db,
    `SELECT value FROM lucky_pool_swaps
    WHERE campaign_id = ? AND livemode = ? AND position = ?`,
  ).get(campaignId, livemode, position);
  return row?.value;
}

export function upsertSwap(db: Db, campaignId: string, livemode: number, position: number, value: number): void {
  prepare(
    db,
    `INSERT INTO lucky_pool_swaps (campaign_id, livemode, position, value) VALUES (?, ?, ?, ?)
    ON CONFLICT (campaign_id, livemode, position) DO UPDATE SET value = excluded.value`,
  ).run(campaignId, livemode, position, value);
}

export function deleteSwap(db: Db, campaignId: string, livemode: number, position: number): void {
  prepare(db, `DELETE FROM lucky_pool_swaps WHERE campaign_id = ? AND livemode = ? AND position = ?`).run(campaignId, livemode, position);
}

interface LuckyNumberRow {
  campaign_id: string;
  livemode: number;
  series: number;
  order_number: number;
  entry_id: string;
  source: 'auto' | 'manual';
  created_at: string;
}

/** Inserts the pair unless it is held already; false when it is (the primary key decides). */
export function insertLuckyNumberIfFree(db: Db, row: LuckyNumberRow): boolean {
  return (
    prepare(
      db,
      `INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
    VALUES (@campaign_id, @livemode, @series, @order_number, @entry_id, @source, @created_at)
    ON CONFLICT (campaign_id, livemode, series, order_number) DO NOTHING`,
    ).run(row).changes === 1
  );
}

/** Takes back the pairs an allocation drew for the entry before it gave up (see giveBack). */
export function deleteLuckyNumbersOfEntry(db: Db, entryId: string): void {
  prepare(db, `DELETE FROM lucky_numbers WHERE entry_id = ?`).run(entryId);
}

/** Plain insert: a held pair throws SQLITE_CONSTRAINT_PRIMARYKEY, which the caller maps. */
export function insertLuckyNumber(db: Db, row: LuckyNumberRow): void {
  prepare(
    db,
    `INSERT INTO lucky_numbers (campaign_id, livemode, series, order_number, entry_id, source, created_at)
    VALUES (@campaign_id, @livemode, @series, @order_number, @entry_id, @source, @created_at)`,
  ).run(row);
}

/** The entry's lucky numbers in the order they were drawn or submitted. */
export function listLuckyNumbersForEntry(db: Db, entryId: string): Array<{ series: number; order_number: number }> {
  return prepare<[string], { series: number; order_number: number }>(
    db,
    `SELECT series, order_number FROM lucky_numbers
    WHERE entry_id = ? ORDER BY rowid`,
  ).all(entryId);
}

export function countLuckyNumbersForEntry(db: Db, entryId: string): number {
  return prepare<[string], { n: number }>(db, `SELECT count(*) AS n FROM lucky_numbers WHERE entry_id = ?`).get(entryId)!.n;
}
