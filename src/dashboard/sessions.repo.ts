// SQL of dashboard_links and dashboard_sessions (schema versions 14 and 18): the dashboard's one-time
// sign-in links and the sessions they start. Tokens are never stored, only their SHA-256.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

interface LinkRow {
  id: string;
  token_hash: Buffer;
  name: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  session_id: string | null;
}

export interface SessionRow {
  id: string;
  token_hash: Buffer;
  name: string;
  link_id: string;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
  end_reason: 'signed_out' | 'revoked' | 'idle' | 'expired' | 'replaced' | null;
}

export function insertLink(db: Db, row: LinkRow): void {
  prepare(
    db,
    `INSERT INTO dashboard_links (id, token_hash, name, created_by, created_at, expires_at, used_at, session_id)
    VALUES (@id, @token_hash, @name, @created_by, @created_at, @expires_at, @used_at, @session_id)`,
  ).run(row);
}

export function findLinkByHash(db: Db, hash: Buffer): LinkRow | undefined {
  return prepare<[Buffer], LinkRow>(db, `SELECT * FROM dashboard_links WHERE token_hash = ?`).get(hash);
}

/** Marks the link used by `sessionId`; false when it was used meanwhile (a second tab, a retry). */
export function markLinkUsed(db: Db, id: string, usedAt: string, sessionId: string): boolean {
  return (
    prepare(db, `UPDATE dashboard_links SET used_at = ?, session_id = ? WHERE id = ? AND used_at IS NULL`).run(usedAt, sessionId, id)
      .changes === 1
  );
}

/** True when a link expired before `before` (cheap: the table holds days of links, not more). */
export function hasLinksExpiredBefore(db: Db, before: string): boolean {
  return prepare<[string], number>(db, `SELECT EXISTS (SELECT 1 FROM dashboard_links WHERE expires_at < ?)`).pluck().get(before) === 1;
}

/** Deletes the links that expired before `before`, used or not; how many. */
export function deleteLinksExpiredBefore(db: Db, before: string): number {
  return prepare(db, `DELETE FROM dashboard_links WHERE expires_at < ?`).run(before).changes;
}

export function insertSession(db: Db, row: SessionRow): void {
  prepare(
    db,
    `INSERT INTO dashboard_sessions (id, token_hash, name, link_id, created_at, last_seen_at, ended_at, end_reason)
    VALUES (@id, @token_hash, @name, @link_id, @created_at, @last_seen_at, @ended_at, @end_reason)`,
  ).run(row);
}

export function findSessionByHash(db: Db, hash: Buffer): SessionRow | undefined {
  return prepare<[Buffer], SessionRow>(db, `SELECT * FROM dashboard_sessions WHERE token_hash = ?`).get(hash);
}

export function findSessionById(db: Db, id: string): SessionRow | undefined {
  return prepare<[string], SessionRow>(db, `SELECT * FROM dashboard_sessions WHERE id = ?`).get(id);
}

export function touchSession(db: Db, id: string, at: string): void {
  prepare(db, `UPDATE dashboard_sessions SET last_seen_at = ? WHERE id = ? AND ended_at IS NULL`).run(at, id);
}

/** Ends one session still open; false when it had ended already. */
export function endSessionRow(db: Db, id: string, at: string, reason: NonNullable<SessionRow['end_reason']>): boolean {
  return (
    prepare(db, `UPDATE dashboard_sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL`).run(at, reason, id)
      .changes === 1
  );
}

export function listOpenSessionIds(db: Db): string[] {
  return prepare<[], string>(db, `SELECT id FROM dashboard_sessions WHERE ended_at IS NULL ORDER BY created_at, id`).pluck().all();
}

/** Newest first, at most `limit`. */
export function listSessionRows(db: Db, limit: number): SessionRow[] {
  return prepare<[number], SessionRow>(db, `SELECT * FROM dashboard_sessions ORDER BY created_at DESC, id LIMIT ?`).all(limit);
}
