// Prepared statements cached per connection, so repos can write `prepare(db, sql)` at the call
// site, next to the code that owns the table, and still compile each statement once. The cache is
// a slot of src/db/per-connection.ts: a connection's statements live and go with it.
import type Database from 'better-sqlite3';
import { perConnection } from './per-connection.ts';

const statements = perConnection('prepared statements', () => new Map<string, Database.Statement>());

export function prepare<P extends unknown[] | {} = unknown[], R = unknown>(db: Database.Database, sql: string): Database.Statement<P, R> {
  const cache = statements(db);
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt as unknown as Database.Statement<P, R>;
}

/** True when the error is SQLite refusing a UNIQUE or PRIMARY KEY constraint. */
export function isUniqueViolation(e: unknown): e is Error & { code: string; message: string } {
  const code = (e as { code?: unknown })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
