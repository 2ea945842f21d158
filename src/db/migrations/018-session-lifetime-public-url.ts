// Schema version 18 (issue 32): a dashboard session also ends 7 days after sign-in (`expired`) and
// when a new sign-in in the same browser replaces it (`replaced`), so end_reason takes two more
// values (SQLite changes a CHECK only by copying the table). And `ces serve` records the URL it is
// reached at (CES_PUBLIC_URL, else http://HOST:PORT) in public_urls, so `ces dashboard link` run
// from a shell without the server's environment prints links to it. Kept when the server stops: a
// link made during a restart still points to where the server comes back.
import type { Migration } from './migration.ts';

export const migration018: Migration = (db) =>
  db.exec(`
  CREATE TABLE dashboard_sessions_v18 (
    id           TEXT PRIMARY KEY,
    token_hash   BLOB NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    link_id      TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    ended_at     TEXT,
    end_reason   TEXT CHECK (end_reason IN ('signed_out', 'revoked', 'idle', 'expired', 'replaced'))
  ) STRICT;
  INSERT INTO dashboard_sessions_v18 SELECT id, token_hash, name, link_id, created_at, last_seen_at, ended_at, end_reason
    FROM dashboard_sessions ORDER BY rowid;
  DROP TABLE dashboard_sessions;
  ALTER TABLE dashboard_sessions_v18 RENAME TO dashboard_sessions;
  CREATE INDEX dashboard_sessions_open ON dashboard_sessions (created_at) WHERE ended_at IS NULL;
  CREATE TABLE public_urls (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    url         TEXT NOT NULL,     -- where browsers reach ces serve: CES_PUBLIC_URL, else http://HOST:PORT
    recorded_at TEXT NOT NULL      -- when the server that wrote it started listening
  ) STRICT;
`);
