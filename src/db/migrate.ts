// Schema versions keyed on PRAGMA user_version. Version 1 is schema.sql; each later migration runs
// in its own transaction together with the version bump. A database newer than this code is
// refused rather than half-understood.
import type Database from 'better-sqlite3';
import { foldEmail } from '../entries/email-key.ts';
import { decodeHeaderText } from '../entries/idempotency-key.ts';
import { AppError } from '../errors.ts';
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
  // 3: a consent's choices as one JSON column of the consent instead of a row each in
  // consent_choices. Intake wrote four rows into two B-trees (the table and its primary key) per
  // entry, about a tenth of the write stage and of the pages each group commit writes; the choices
  // are only ever read with their consent. The JSON is [{consent_type, granted, explicit}] with
  // booleans, as the LGPD export shows it; existing rows are copied in, ordered by consent_type.
  (db) => db.exec(`
    ALTER TABLE consents ADD COLUMN choices TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(choices));
    UPDATE consents SET choices = (
      SELECT json_group_array(json_object(
        'consent_type', consent_type,
        'granted', json(iif(granted = 1, 'true', 'false')),
        'explicit', json(iif(explicit = 1, 'true', 'false'))) ORDER BY consent_type)
      FROM consent_choices WHERE consent_id = consents.id);
    DROP TABLE consent_choices;
  `),
  // 4: a reassigned award names the award it re-registers (awards.reassigned_from), and an award
  // is re-registered at most once (a unique index). Without the link, an entry whose win had been
  // moved to another entry still showed its revoked award as the one to act on, and reassigning it
  // again copied the win onto one more entry. Existing reassignments are linked from the reason
  // their history recorded ("reassigned from award <id> of entry <id>"), the earliest first; a
  // later copy of the same award, if a database holds one, stays a valid award with no link.
  (db) => {
    db.exec('ALTER TABLE awards ADD COLUMN reassigned_from TEXT REFERENCES awards (id)');
    const rows = db.prepare(`SELECT a.id, h.reason FROM awards a JOIN award_history h ON h.award_id = a.id AND h.from_status IS NULL
      WHERE a.source = 'reassign' ORDER BY a.created_at, a.rowid`).all() as Array<{ id: string; reason: string | null }>;
    const link = db.prepare('UPDATE awards SET reassigned_from = ? WHERE id = ?');
    const linked = new Set<string>();
    for (const { id, reason } of rows) {
      const from = /^reassigned from award (\S+) of entry /.exec(reason ?? '')?.[1];
      if (from === undefined || linked.has(from)) continue;
      linked.add(from);
      link.run(from, id);
    }
    db.exec('CREATE UNIQUE INDEX awards_reassigned_from ON awards (reassigned_from) WHERE reassigned_from IS NOT NULL');
  },
  // 5: the access keys used by entries move from an index on entries (entries_access_key) to a
  // table of their own that processing fills, in entry order, before its duplicate_receipt check
  // (src/pipeline/processing.repo.ts). Only that check reads them; as an index on entries, every
  // intake paid for a random insert into the largest index of the file (99 MB at a million
  // entries): a page of its own in every group commit's WAL writes, copied back by the
  // checkpoint to a random place in the file. `receipts_indexed` holds the rowid of entries up to
  // which `receipts` is complete. Existing entries are copied in, but for rejected ones (a
  // rejection is final, and the check ignores rejected entries).
  (db) => db.exec(`
    CREATE TABLE receipts (
      campaign_id TEXT NOT NULL,
      livemode    INTEGER NOT NULL,
      access_key  TEXT NOT NULL,
      entry_rowid INTEGER NOT NULL,
      PRIMARY KEY (campaign_id, livemode, access_key, entry_rowid)
    ) WITHOUT ROWID, STRICT;
    CREATE TABLE receipts_indexed (
      id            INTEGER PRIMARY KEY CHECK (id = 1),
      through_rowid INTEGER NOT NULL
    ) STRICT;
    INSERT INTO receipts (campaign_id, livemode, access_key, entry_rowid)
      SELECT campaign_id, livemode, access_key, rowid FROM entries WHERE status <> 'REJECTED' ORDER BY campaign_id, livemode, access_key, rowid;
    INSERT INTO receipts_indexed (id, through_rowid) VALUES (1, (SELECT coalesce(max(rowid), 0) FROM entries));
    DROP INDEX entries_access_key;
  `),
  // 6: no index on consents.enrollment_id. Only an LGPD request (export, anonymize) looks consents
  // up by enrollment, and it reaches them as fast through the enrollment's entries
  // (entries_enrollment, then the consent's unique entry_id). Every intake paid for the index,
  // and a participant's entry days after the previous one inserts at a random page of it.
  (db) => db.exec('DROP INDEX consents_enrollment'),
  // 7: emails are unique on enrollments.email_key, the email folded by src/entries/email-key.ts
  // (NFC, then JavaScript's toLowerCase), instead of on lower(email). SQLite's lower() folds only
  // A-Z, so `JOÃO@x.com` and `joão@x.com` could be held by two participants. An all-ASCII email
  // folds to what lower() gives, so those are keyed in SQL, and the old index guarantees their keys
  // are distinct; the others (GLOB '*[^ -~]*': a character outside printable ASCII), few, are
  // folded here one by one in the order the enrollments were created. Where the database already
  // holds emails that fold alike (they differ only in the case of a non-ASCII letter, or spell a
  // letter two ways), the first to get the key keeps it (an
  // all-ASCII email before any other, then the earlier enrollment) and the other enrollment keeps
  // its email as sent, with no key (UPDATE OR IGNORE): nothing is deleted or changed, and the
  // migration cannot fail on such data. (Keeping lower(email) as that row's key would not do:
  // lower('joão@x.com') is also the fold of an earlier 'JOÃO@x.com'.) An email without a key
  // blocks nobody; the one with the key still blocks every spelling of it.
  (db) => {
    db.exec(`
      DROP INDEX enrollments_email;
      ALTER TABLE enrollments ADD COLUMN email_key TEXT;
      UPDATE enrollments SET email_key = lower(email) WHERE email NOT GLOB '*[^ -~]*';
      CREATE UNIQUE INDEX enrollments_email_key ON enrollments (campaign_id, livemode, email_key) WHERE email_key IS NOT NULL;
    `);
    const rows = db.prepare(`SELECT rowid, email FROM enrollments WHERE email GLOB '*[^ -~]*' ORDER BY created_at, rowid`).all() as Array<{ rowid: number; email: string }>;
    const setKey = db.prepare('UPDATE OR IGNORE enrollments SET email_key = ? WHERE rowid = ?');
    for (const { rowid, email } of rows) setKey.run(foldEmail(email), rowid);
  },
  // 8: an Idempotency-Key is stored as the text the client sent (src/entries/idempotency-key.ts):
  // bytes that are valid UTF-8 are read as UTF-8. Until now a key was stored as Node reads a
  // header, one Latin-1 character per byte, so `é` sent by curl (bytes C3 A9) was stored as `Ã©`,
  // and intake now looks that request up as `é`: without a rewrite, its retry would be new.
  // Only keys with a character beyond ASCII are read, from the covering unique index. A rewrite
  // that would collide with a key already stored in the scope (another entry whose client sent
  // `é` as the one Latin-1 byte E9, which reads as the same text) leaves the row as it was.
  (db) => {
    const rows = db.prepare(`SELECT rowid, idempotency_key AS key FROM entries WHERE idempotency_key GLOB '*[^ -~]*'`).all() as Array<{ rowid: number; key: string }>;
    const setKey = db.prepare('UPDATE OR IGNORE entries SET idempotency_key = ? WHERE rowid = ?');
    for (const { rowid, key } of rows) {
      if (!LATIN1.test(key)) continue; // not a header as Node read it
      const text = decodeHeaderText(key);
      if (text !== key) setKey.run(text, rowid);
    }
  },
  // 9: the `ces serve` that has the database, so that a second one refuses to start beside it
  // (src/db/server-claim.ts): two servers would each lease and send the same webhooks.
  (db) => db.exec(`
    CREATE TABLE server_process (
      id         INTEGER PRIMARY KEY CHECK (id = 1),
      pid        INTEGER NOT NULL,
      host       TEXT NOT NULL,
      started_at TEXT NOT NULL
    ) STRICT;
  `),
  // 10: the delivery scheduler claims per campaign (src/webhooks/scheduler.ts: a limit per
  // endpoint, back-off of a failing one), so the due index leads with the campaign; and the
  // retention rule (CES_RETENTION_DAYS) finds delivered and skipped events by when they settled.
  (db) => db.exec(`
    CREATE INDEX webhook_deliveries_campaign_due ON webhook_deliveries (campaign_id, next_attempt_at, seq) WHERE status = 'pending';
    DROP INDEX webhook_deliveries_due;
    CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (coalesce(delivered_at, created_at)) WHERE status IN ('delivered', 'skipped');
  `),
  // 11 (hardening-audit): which API keys may change the campaign's webhook configuration through
  // PATCH /v1/webhook (src/webhooks/config.ts): any (SPEC's default), live keys only, or none (the
  // operator sets it with `ces webhook set`). A leaked test key must not point live events elsewhere.
  (db) => db.exec(`
    ALTER TABLE campaigns ADD COLUMN webhook_api TEXT NOT NULL DEFAULT 'any' CHECK (webhook_api IN ('any', 'live', 'none'));
  `),
  // 12 (hardening-audit): a secret rotated with a grace period (`ces webhook rotate-secret --grace`)
  // keeps signing beside the new one until previous_secret_expires_at, so a receiver can switch
  // without rejecting an event (src/webhooks/signing.ts). NULL both: one secret signs.
  (db) => db.exec(`
    ALTER TABLE webhook_configs ADD COLUMN previous_secret TEXT;
    ALTER TABLE webhook_configs ADD COLUMN previous_secret_expires_at TEXT;
  `),
  // 13 (hardening-audit): audit_log as CONTRACT names it, {id, at, actor, action, campaign_id,
  // details} (src/audit/audit.ts), indexed for newest-first listings by campaign (and action) and
  // by action. The v1 table held LGPD requests, backups and restores, with `subject` and `detail`:
  // they are carried over under the new action names; the campaign moves out of detail into its
  // column, the enrollment (`enrollment:<id>`) or the file (a backup's, a restore's) into details.
  // (A `campaign:<id>` subject is a record the audit repo wrote while the file was still v1.)
  (db) => db.exec(`
    CREATE TABLE audit_log_v13 (
      id          INTEGER PRIMARY KEY,
      at          TEXT NOT NULL,
      actor       TEXT NOT NULL,
      action      TEXT NOT NULL,
      campaign_id TEXT,
      details     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details) AND json_type(details) = 'object')
    ) STRICT;
    INSERT INTO audit_log_v13 (id, at, actor, action, campaign_id, details)
      SELECT id, at, actor,
        CASE action WHEN 'database.backup' THEN 'backup.created' WHEN 'database.restore' THEN 'database.restored'
          WHEN 'participant.export' THEN 'participant.exported' WHEN 'participant.anonymize' THEN 'participant.anonymized' ELSE action END,
        coalesce(iif(json_valid(detail) AND json_type(detail) = 'object', detail ->> '$.campaign_id'), iif(subject LIKE 'campaign:%', substr(subject, 10))),
        json_patch(
          iif(json_valid(detail) AND json_type(detail) = 'object', json_remove(detail, '$.campaign_id'), '{}'),
          CASE WHEN subject LIKE 'enrollment:%' THEN json_object('enrollment_id', substr(subject, 12))
            WHEN action = 'database.backup' THEN json_object('file', subject)
            WHEN action = 'database.restore' THEN json_object('database', subject)
            ELSE '{}' END)
      FROM audit_log ORDER BY id;
    DROP TABLE audit_log;
    ALTER TABLE audit_log_v13 RENAME TO audit_log;
    CREATE INDEX audit_log_campaign ON audit_log (campaign_id, action, id);
    CREATE INDEX audit_log_action ON audit_log (action, id);
  `),
];

const LATIN1 = /^[\x00-\xff]*$/;

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to `target` (the newest version unless a test asks for an older one). */
export function migrate(db: Database.Database, target = SCHEMA_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new AppError(422, 'not_a_ces_database', `${db.name} has schema version ${current}, newer than this ces (${SCHEMA_VERSION}); upgrade ces`);
  }
  for (let v = current; v < target; v++) {
    // IMMEDIATE takes the write lock up front, so two processes opening a new file do not both
    // try to create the tables; the loser re-reads the version after the winner commits.
    db.transaction(() => {
      const now = db.pragma('user_version', { simple: true }) as number;
      if (now > v) return;
      // Version 0 is an empty file: one holding tables belongs to something else, and ours would be
      // created among them.
      if (v === 0 && db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() !== 0) {
        throw new AppError(422, 'not_a_ces_database', `${db.name} is an SQLite database of something else (it has tables, and no ces schema version)`);
      }
      MIGRATIONS[v](db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
