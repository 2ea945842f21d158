// Prepared statements cached per connection, so repos can write `prepare(db, sql)` at the call
// site, next to the code that owns the table, and still compile each statement once.
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function prepare<P extends unknown[] | {} = unknown[], R = unknown>(db: Database.Database, sql: string): Database.Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
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
