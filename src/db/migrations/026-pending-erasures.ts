// Schema version 26 (issue 43): an anonymisation's erasure from the file, followed until it is done.
// - pending_erasures: one row per participant anonymised (by a request or by a campaign's closing),
//   written in the anonymisation's transaction. The older images of the pages it changed stay in
//   the WAL (and in the database file, past a reader's snapshot) until a TRUNCATE checkpoint
//   succeeds, which a reader holding a snapshot prevents; erased_at is set, and
//   participant.erasure_completed audited, once one has (src/participants/erasure.ts). The row
//   names the enrollment and who asked, never personal data.
import type { Migration } from './migration.ts';

export const migration026: Migration = (db) =>
  db.exec(`
  CREATE TABLE pending_erasures (
    id                INTEGER PRIMARY KEY,
    enrollment_id     TEXT NOT NULL REFERENCES enrollments (id),
    campaign_id       TEXT NOT NULL REFERENCES campaigns (id),
    livemode          INTEGER NOT NULL CHECK (livemode IN (0, 1)),
    anonymized_at     TEXT NOT NULL,
    anonymized_audit  INTEGER NOT NULL,  -- the participant.anonymized record
    requested_by      TEXT NOT NULL,     -- the actor, as audit_log writes it
    erased_at         TEXT
  ) STRICT;
  CREATE INDEX pending_erasures_waiting ON pending_erasures (id) WHERE erased_at IS NULL;
`);
