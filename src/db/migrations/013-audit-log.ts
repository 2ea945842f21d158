// Schema version 13: audit_log as docs/operations.md#audit-log-ces-audit-list names it, {id, at,
// actor, action, campaign_id, details} (src/audit/audit.ts), indexed for newest-first listings by
// campaign (and action) and by action. The v1 table held LGPD requests, backups and restores, with
// `subject` and `detail`: they are carried over under the new action names; the campaign moves out
// of detail into its column, the enrollment (`enrollment:<id>`) or the file (a backup's, a
// restore's) into details. (A `campaign:<id>` subject is a record the audit repo wrote while the
// file was still v1.)
import type { Migration } from './migration.ts';

export const migration013: Migration = (db) =>
  db.exec(`
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
`);
