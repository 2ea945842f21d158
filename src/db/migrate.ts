// Schema versions keyed on PRAGMA user_version. Version 1 is schema.sql; each later migration runs
// in its own transaction together with the version bump. A database newer than this code is
// refused rather than half-understood.
import type Database from 'better-sqlite3';
import { readSchemaSql } from './schema.ts';

type Migration = (db: Database.Database) => void;

const MIGRATIONS: Migration[] = [
  (db) => db.exec(readSchemaSql()),
  // 2: entry counts per (campaign, mode, status), kept by triggers, so GET /metrics reads a handful
  // of rows instead of counting a million-row index on every scrape (2-3 s of blocked event loop).
  (db) => db.exec(`
    CREATE TABLE entry_counts (
      campaign_id TEXT NOT NULL,
      livemode    INTEGER NOT NULL,
      status      TEXT NOT NULL,
      n           INTEGER NOT NULL,
      PRIMARY KEY (campaign_id, livemode, status)
    ) WITHOUT ROWID, STRICT;
    INSERT INTO entry_counts (campaign_id, livemode, status, n)
      SELECT campaign_id, livemode, status, COUNT(*) FROM entries GROUP BY campaign_id, livemode, status;
    CREATE TRIGGER entry_counts_insert AFTER INSERT ON entries BEGIN
      INSERT INTO entry_counts (campaign_id, livemode, status, n) VALUES (NEW.campaign_id, NEW.livemode, NEW.status, 1)
        ON CONFLICT (campaign_id, livemode, status) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER entry_counts_status AFTER UPDATE OF status ON entries WHEN OLD.status IS NOT NEW.status BEGIN
      UPDATE entry_counts SET n = n - 1 WHERE campaign_id = OLD.campaign_id AND livemode = OLD.livemode AND status = OLD.status;
      INSERT INTO entry_counts (campaign_id, livemode, status, n) VALUES (NEW.campaign_id, NEW.livemode, NEW.status, 1)
        ON CONFLICT (campaign_id, livemode, status) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER entry_counts_delete AFTER DELETE ON entries BEGIN
      UPDATE entry_counts SET n = n - 1 WHERE campaign_id = OLD.campaign_id AND livemode = OLD.livemode AND status = OLD.status;
    END;
  `),
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
