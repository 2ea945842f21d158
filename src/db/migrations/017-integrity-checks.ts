// Schema version 17: which database file `ces serve` last found sound
// (docs/operations.md#backups-ces-backup-and-ces-restore, Checking a restored file). A restore
// (`ces restore`, `litestream restore`, a copied backup) is a new file, with another inode: ces
// serve runs the integrity and foreign-key checks on a file it has not seen before, and records the
// file it checked here.
import type { Migration } from './migration.ts';

export const migration017: Migration = (db) =>
  db.exec(`
  CREATE TABLE integrity_checks (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    file       TEXT NOT NULL,      -- 'device:inode' of the database file that passed
    checked_at TEXT NOT NULL
  ) STRICT;
`);
