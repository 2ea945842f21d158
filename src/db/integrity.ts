// `ces check` and the check `ces serve` makes of a database file it has not opened before (a
// restore): SQLite's integrity_check (every page, index and row) and foreign_key_check. A damaged
// restore otherwise starts, answers /healthz and takes entries while reads fail with "malformed"
// (issue 33). The file is known by its device and inode, which a restore, a copy or a replica's
// restore changes and a restart does not.
import { statSync } from 'node:fs';
import { AppError } from '../kernel/errors.ts';
import type { Db } from './open.ts';
import { prepare } from './statements.ts';

export interface IntegrityReport {
  ok: boolean;
  /** SQLite's own words: ["ok"] when sound, else up to 100 problems. */
  integrity_check: string[];
  foreign_key_check: Array<{ table: string; rowid: number | null; parent: string; fkid: number }>;
}

export function checkDatabase(db: Db): IntegrityReport {
  const integrity = (db.pragma('integrity_check(100)') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
  const foreignKeys = db.pragma('foreign_key_check') as IntegrityReport['foreign_key_check'];
  return {
    ok: integrity.length === 1 && integrity[0] === 'ok' && foreignKeys.length === 0,
    integrity_check: integrity,
    foreign_key_check: foreignKeys,
  };
}

/** `device:inode` of the file, or null for an in-memory database. */
function fileIdentity(path: string): string | null {
  if (path === ':memory:' || path === '') return null;
  const st = statSync(path, { bigint: true });
  return `${st.dev}:${st.ino}`;
}

/** The error of a failed check, in the operator's terms: what failed and what to do. */
export function corruptDatabase(path: string, report: IntegrityReport): AppError {
  const first = report.integrity_check.find((line) => line !== 'ok');
  const fk = report.foreign_key_check[0];
  const what = first ?? (fk ? `a row of ${fk.table} points to a missing row of ${fk.parent}` : 'unknown');
  return new AppError(
    422,
    'database_corrupt',
    `The database at ${path} failed its integrity check (${what}); do not serve this file. If it is a restore, restore another ` +
      `backup or an earlier point in time and check the file again until it passes.`,
    undefined,
    undefined,
    { action: 'check', dbPath: path },
  );
}

/** The tables of the file, largest concern first being unknowable cheaply: in schema order. */
function listTables(db: Db): string[] {
  return prepare<[], { name: string }>(db, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid`)
    .all()
    .map((r) => r.name);
}

/** Progress of a check, for the log: how many tables are done and how much of the file they hold. */
export interface CheckProgress {
  tablesDone: number;
  tables: number;
  table: string;
}

/**
 * Before `ces serve` uses a file it has not opened before (a restore, a copy): SQLite's quick_check,
 * which reads every page but does not match indexes against their tables, one table at a time so
 * that `progress` can tell the log how far it is. Throws database_corrupt when it fails. Returns the
 * file's identity when the file is unfamiliar (the full check is still to run, see
 * src/db/integrity-child.ts), null when it is the file checked last time.
 */
export function quickCheckUnfamiliarFile(db: Db, path: string, progress: (p: CheckProgress) => void): string | null {
  const identity = fileIdentity(path);
  if (identity === null) return null;
  const known = prepare<[], { file: string }>(db, `SELECT file FROM integrity_checks WHERE id = 1`).get()?.file;
  if (known === identity) return null;
  const tables = listTables(db);
  const problems: string[] = [];
  tables.forEach((table, i) => {
    try {
      const rows = (db.pragma(`quick_check(${quoteIdentifier(table)})`) as Array<{ quick_check: string }>).map((r) => r.quick_check);
      if (!(rows.length === 1 && rows[0] === 'ok')) problems.push(...rows);
    } catch (error) {
      // A page SQLite cannot even parse fails the pragma itself.
      if (!/^SQLITE_(CORRUPT|NOTADB)/.test(String((error as { code?: unknown }).code))) throw error;
      problems.push(`table ${table}: ${(error as Error).message}`);
    }
    progress({ tablesDone: i + 1, tables: tables.length, table });
  });
  if (problems.length > 0) throw corruptDatabase(path, { ok: false, integrity_check: problems.slice(0, 100), foreign_key_check: [] });
  return identity;
}

/**
 * Records that the file at `path` passed a full check made elsewhere (`ces restore` checks the copy
 * it makes): the next start of the server skips both checks.
 */
export function recordFileChecked(db: Db, path: string, now: string): void {
  const identity = fileIdentity(path);
  if (identity !== null) recordCheckedFile(db, identity, now);
}

/** Records that the file passed the full check: the next start skips both checks. */
export function recordCheckedFile(db: Db, identity: string, now: string): void {
  prepare(
    db,
    `INSERT INTO integrity_checks (id, file, checked_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET file = excluded.file, checked_at = excluded.checked_at`,
  ).run(identity, now);
}

const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
