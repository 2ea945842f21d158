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

/**
 * Before `ces serve` uses a file: checked when it is not the file checked last time (a new file,
 * a restore), recorded once it passes; throws database_corrupt otherwise. Returns whether it ran.
 */
export function checkUnfamiliarFile(db: Db, path: string, now: string): boolean {
  const identity = fileIdentity(path);
  if (identity === null) return false;
  const known = prepare<[], { file: string }>(db, `SELECT file FROM integrity_checks WHERE id = 1`).get()?.file;
  if (known === identity) return false;
  const report = checkDatabase(db);
  if (!report.ok) throw corruptDatabase(path, report);
  prepare(
    db,
    `INSERT INTO integrity_checks (id, file, checked_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET file = excluded.file, checked_at = excluded.checked_at`,
  ).run(identity, now);
  return true;
}
