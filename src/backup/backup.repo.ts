// The few statements backup and restore run on a database file they hold apart from the service's
// connection: its integrity check and whether it is a ces database, and of which schema version.
import type Database from 'better-sqlite3';
import { prepare } from '../db/statements.ts';

/** PRAGMA integrity_check, at most `max` problems; ['ok'] for a sound file. */
export function runIntegrityCheck(db: Database.Database, max = 20): string[] {
  return prepare<[], { integrity_check: string }>(db, `PRAGMA integrity_check(${Math.trunc(max)})`)
    .all()
    .map((r) => r.integrity_check);
}

/** The schema version of a ces database (PRAGMA user_version), or 0 when the file has no ces tables. */
export function readCesSchemaVersion(db: Database.Database): number {
  const hasCampaigns =
    prepare<[], { n: number }>(db, `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = 'campaigns'`).get()!.n > 0;
  return hasCampaigns ? prepare<[], { user_version: number }>(db, 'PRAGMA user_version').get()!.user_version : 0;
}

/** Leaves WAL mode: checkpoints the -wal into the file and deletes it on close. */
export function setRollbackJournal(db: Database.Database): void {
  db.pragma('journal_mode = DELETE');
}
