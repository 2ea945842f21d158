// Schema version 5: the access keys used by entries move from an index on entries (entries_access_key) to a
// table of their own that processing fills, in entry order, before its duplicate_receipt check
// (src/pipeline/processing.repo.ts). Only that check reads them; as an index on entries, every
// intake paid for a random insert into the largest index of the file: a page of its own in every group commit's WAL writes, copied back by the
// checkpoint to a random place in the file. `receipts_indexed` holds the rowid of entries up to
// which `receipts` is complete. Existing entries are copied in, but for rejected ones (a
// rejection is final, and the check ignores rejected entries).
import type { Migration } from './migration.ts';

export const migration005: Migration = (db) =>
  db.exec(`
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
`);
