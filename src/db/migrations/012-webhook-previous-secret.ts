// Schema version 12: a secret rotated with a grace period (`ces webhook rotate-secret --grace`)
// keeps signing beside the new one until previous_secret_expires_at, so a receiver can switch
// without rejecting an event (src/webhooks/signing.ts). NULL both: one secret signs.
import type { Migration } from './migration.ts';

export const migration012: Migration = (db) =>
  db.exec(`
  ALTER TABLE webhook_configs ADD COLUMN previous_secret TEXT;
  ALTER TABLE webhook_configs ADD COLUMN previous_secret_expires_at TEXT;
`);
