// Schema version 7: emails are unique on enrollments.email_key, the email folded as
// src/entries/email-key.ts folded it when this migration was written (NFC, then JavaScript's
// toLowerCase), instead of on lower(email). SQLite's lower() folds only A-Z, so `JOÃO@x.com` and `joão@x.com` could be held by two participants. An all-ASCII email
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
import type { Migration } from './migration.ts';

/**
 * The fold of version 7, frozen here: a migration is history and must key the rows it converts as
 * intake keyed them then, whatever src/entries/email-key.ts does later.
 */
function foldEmailV7(email: string): string {
  return email.normalize('NFC').toLowerCase();
}

export const migration007: Migration = (db) => {
  db.exec(`
    DROP INDEX enrollments_email;
    ALTER TABLE enrollments ADD COLUMN email_key TEXT;
    UPDATE enrollments SET email_key = lower(email) WHERE email NOT GLOB '*[^ -~]*';
    CREATE UNIQUE INDEX enrollments_email_key ON enrollments (campaign_id, livemode, email_key) WHERE email_key IS NOT NULL;
  `);
  const rows = db.prepare(`SELECT rowid, email FROM enrollments WHERE email GLOB '*[^ -~]*' ORDER BY created_at, rowid`).all() as Array<{
    rowid: number;
    email: string;
  }>;
  const setKey = db.prepare('UPDATE OR IGNORE enrollments SET email_key = ? WHERE rowid = ?');
  for (const { rowid, email } of rows) setKey.run(foldEmailV7(email), rowid);
};
