// Schema versions keyed on PRAGMA user_version. Version 1 is schema.sql; each later migration runs
// in its own transaction together with the version bump. A database newer than this code is
// refused rather than half-understood.
import type Database from 'better-sqlite3';
import { readSchemaSql } from './schema.ts';

type Migration = (db: Database.Database) => void;

const MIGRATIONS: Migration[] = [
  (db) => db.exec(readSchemaSql()),
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`database schema version ${current} is newer than this ces (${SCHEMA_VERSION}); upgrade ces`);
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    // IMMEDIATE takes the write lock up front, so two processes opening a new file do not both
    // try to create the tables; the loser re-reads the version after the winner commits.
    db.transaction(() => {
      const now = db.pragma('user_version', { simple: true }) as number;
      if (now > v) return;
      MIGRATIONS[v](db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
