// Schema version 9: the `ces serve` that has the database, so that a second one refuses to start beside it
// (src/db/server-claim.ts): two servers would each lease and send the same webhooks.
import type { Migration } from './migration.ts';

export const migration009: Migration = (db) =>
  db.exec(`
  CREATE TABLE server_process (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    pid        INTEGER NOT NULL,
    host       TEXT NOT NULL,
    started_at TEXT NOT NULL
  ) STRICT;
`);
