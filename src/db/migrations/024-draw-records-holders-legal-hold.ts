// Schema version 24 (issue 41): a published draw's record is kept as published, its holders list
// is fixed at the freeze, and an anonymisation held back by the promotion's legal hold is recorded.
// - draws.holders_sha256: SHA-256 of the holders list (`S/EEEEE;H` a line), fixed at the freeze;
//   draws.record_sha256: SHA-256 of the Markdown record stored at publication.
// - draw_numbers.holders: per frozen series, the holder index of each of its numbers in ascending
//   order, as runs of LEB128 pairs (src/draws/holders.ts); NULL for a draw frozen before this version.
// - draw_records: the record (Markdown and HTML bytes) stored by the publication, never rewritten.
// - held_anonymizations: an anonymisation asked for while the participant's numbers or prizes
//   are kept for the promotion's prestação de contas (LGPD art. 16, I), who asked and when; the
//   campaign's closing carries them out (carried_out_at).
import type { Migration } from './migration.ts';

export const migration024: Migration = (db) =>
  db.exec(`
  ALTER TABLE draws ADD COLUMN holders_sha256 TEXT;
  ALTER TABLE draws ADD COLUMN record_sha256 TEXT;
  ALTER TABLE draw_numbers ADD COLUMN holders BLOB;
  CREATE TABLE draw_records (
    draw_id    TEXT PRIMARY KEY REFERENCES draws (id),
    md         BLOB NOT NULL,
    html       BLOB NOT NULL,
    sha256     TEXT NOT NULL,   -- of md, as draws.record_sha256
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE TABLE held_anonymizations (
    id             INTEGER PRIMARY KEY,
    enrollment_id  TEXT NOT NULL REFERENCES enrollments (id),
    campaign_id    TEXT NOT NULL REFERENCES campaigns (id),
    livemode       INTEGER NOT NULL CHECK (livemode IN (0, 1)),
    requested_by   TEXT NOT NULL,  -- the actor, as audit_log writes it
    requested_at   TEXT NOT NULL,
    reason         TEXT,
    carried_out_at TEXT
  ) STRICT;
  CREATE INDEX held_anonymizations_campaign ON held_anonymizations (campaign_id, livemode, carried_out_at);
`);
