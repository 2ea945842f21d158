// The few statements backup and restore run on a database file they hold apart from the service's
// connection: whether it is a ces database, and of which schema version (its check: copy-check.ts).
import type Database from 'better-sqlite3';
import { prepare } from '../db/statements.ts';

/** The schema version of a ces database (PRAGMA user_version), or 0 when the file has no ces tables. */
export function readCesSchemaVersion(db: Database.Database): number {
  const hasCampaigns =
    prepare<[], { n: number }>(db, `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = 'campaigns'`).get()!.n > 0;
  return hasCampaigns ? prepare<[], { user_version: number }>(db, 'PRAGMA user_version').get()!.user_version : 0;
}
