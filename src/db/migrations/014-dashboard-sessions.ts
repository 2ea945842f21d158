// Schema version 14: the operator dashboard's sign-in (docs/operations.md#dashboard). `ces
// dashboard link` writes a one-time link; opening it starts a session. Only SHA-256 digests of the
// link's and the session's tokens are stored: a copy of the database (a backup) cannot sign anybody
// in. A link is kept once used or expired so the page can say why it no longer works; a session is
// kept once ended (signed out, revoked, idle for 12 hours) for `ces dashboard sessions`.
import type { Migration } from './migration.ts';

export const migration014: Migration = (db) =>
  db.exec(`
  CREATE TABLE dashboard_links (
    id         TEXT PRIMARY KEY,
    token_hash BLOB NOT NULL UNIQUE,
    name       TEXT NOT NULL,               -- the operator the session will name (dashboard:<name>)
    created_by TEXT NOT NULL,               -- the audit actor that made the link (cli:<user>)
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT,
    session_id TEXT
  ) STRICT;
  CREATE TABLE dashboard_sessions (
    id           TEXT PRIMARY KEY,
    token_hash   BLOB NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    link_id      TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    ended_at     TEXT,
    end_reason   TEXT CHECK (end_reason IN ('signed_out', 'revoked', 'idle'))
  ) STRICT;
  CREATE INDEX dashboard_sessions_open ON dashboard_sessions (created_at) WHERE ended_at IS NULL;
`);
