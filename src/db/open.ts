// Opens the SQLite file for the server or the CLI: creates its folder, sets the pragmas (busy
// timeout first so that even the WAL switch waits for a concurrent opener), migrates.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

export interface OpenOptions {
  /** synchronous=FULL by default: a commit is on disk before we answer 202. */
  synchronous?: 'FULL' | 'NORMAL';
  readonly?: boolean;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: options.readonly ?? false });
  db.pragma('busy_timeout = 10000');
  if (!options.readonly) db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  // Row content that is deleted or replaced is zeroed inside its page, so personal data that an
  // update or an anonymization replaced does not linger in the file's free space (LGPD). FAST
  // skips zeroing whole freed pages (no extra writes); the anonymization turns that on too.
  if (!options.readonly) db.pragma('secure_delete = FAST');
  // Statement journals and savepoint sub-journals in memory instead of temp files: intake's group
  // commit falls back to one savepoint per write when a write fails (src/entries/committer.ts).
  db.pragma('temp_store = MEMORY');
  // A commit checkpoints once the WAL holds 4000 pages (16 MiB) instead of 1000: index pages that
  // intake rewrites in every batch are copied back a quarter as often. In `ces serve` a thread of
  // its own copies pages back all along (src/db/checkpointer.ts), so the commit that reaches this
  // limit has little left to copy before it starts the WAL over.
  if (!options.readonly) db.pragma('wal_autocheckpoint = 4000');
  if (!options.readonly) migrate(db);
  return db;
}
