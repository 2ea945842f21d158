// SQL of the prizes table.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export interface PrizeRow {
  id: string;
  campaign_id: string;
  livemode: number;
  name: string;
  type: string;
  unit_value: number;
  initial_stock: number;
  current_stock: number;
  awarded_beyond_pool: number;
  created_at: string;
}

const COLUMNS = 'id, campaign_id, livemode, name, type, unit_value, initial_stock, current_stock, awarded_beyond_pool, created_at';

/** The prize only if it is in this campaign's pool for this mode. */
export function findScopedPrize(db: Db, id: string, campaignId: string, livemode: number): PrizeRow | undefined {
  return prepare<[string, string, number], PrizeRow>(
    db,
    `SELECT ${COLUMNS} FROM prizes WHERE id = ? AND campaign_id = ? AND livemode = ?`,
  ).get(id, campaignId, livemode);
}

export function findPrizeById(db: Db, id: string): PrizeRow | undefined {
  return prepare<[string], PrizeRow>(db, `SELECT ${COLUMNS} FROM prizes WHERE id = ?`).get(id);
}

export function listPrizes(db: Db, campaignId: string, livemode: number): PrizeRow[] {
  return prepare<[string, number], PrizeRow>(
    db,
    `SELECT ${COLUMNS} FROM prizes WHERE campaign_id = ? AND livemode = ? ORDER BY created_at, id`,
  ).all(campaignId, livemode);
}

export function insertPrize(db: Db, row: PrizeRow): void {
  prepare(
    db,
    `INSERT INTO prizes (${COLUMNS}) VALUES (@id, @campaign_id, @livemode, @name, @type, @unit_value, @initial_stock,
    @current_stock, @awarded_beyond_pool, @created_at)`,
  ).run(row);
}

/** Takes one unit if any is left; false when the pool is empty (the caller counts a beyond-pool win). */
export function takePrizeUnit(db: Db, id: string): boolean {
  return prepare(db, `UPDATE prizes SET current_stock = current_stock - 1 WHERE id = ? AND current_stock > 0`).run(id).changes === 1;
}

export function returnPrizeUnit(db: Db, id: string): void {
  prepare(db, `UPDATE prizes SET current_stock = current_stock + 1 WHERE id = ?`).run(id);
}

export function addBeyondPool(db: Db, id: string, delta: 1 | -1): void {
  prepare(db, `UPDATE prizes SET awarded_beyond_pool = awarded_beyond_pool + ? WHERE id = ?`).run(delta, id);
}
