// SQL of the api_keys table.
import type { Db } from '../db/open.ts';
import { cachedRow, invalidateRows } from '../db/row-cache.ts';
import { prepare } from '../db/statements.ts';

export interface ApiKeyRow {
  id: string;
  campaign_id: string;
  mode: 'live' | 'test';
  prefix: string;
  key_hash: Buffer;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, campaign_id, mode, prefix, key_hash, label, created_at, revoked_at';

export function insertApiKey(db: Db, row: ApiKeyRow): void {
  prepare(
    db,
    `INSERT INTO api_keys (id, campaign_id, mode, prefix, key_hash, label, created_at, revoked_at)
    VALUES (@id, @campaign_id, @mode, @prefix, @key_hash, @label, @created_at, @revoked_at)`,
  ).run(row);
  invalidateRows(db);
}

/** Memoized (db/row-cache.ts): every request authenticates, and keys change rarely. */
export function findApiKeyByHash(db: Db, hash: Buffer): ApiKeyRow | undefined {
  return cachedRow(db, 'api_keys', hash.toString('hex'), () =>
    prepare<[Buffer], ApiKeyRow>(db, `SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`).get(hash),
  );
}

export function findApiKeyById(db: Db, id: string): ApiKeyRow | undefined {
  return prepare<[string], ApiKeyRow>(db, `SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id);
}

export function listApiKeys(db: Db, campaignId: string): ApiKeyRow[] {
  return prepare<[string], ApiKeyRow>(db, `SELECT ${COLUMNS} FROM api_keys WHERE campaign_id = ? ORDER BY created_at, id`).all(campaignId);
}

export function setApiKeyRevokedAt(db: Db, id: string, at: string): void {
  prepare(db, `UPDATE api_keys SET revoked_at = ? WHERE id = ? AND (revoked_at IS NULL OR revoked_at > ?)`).run(at, id, at);
  invalidateRows(db);
}
