// Schema version 11: which API keys may change the campaign's webhook configuration through
// PATCH /v1/webhook (src/webhooks/webhook-config.ts): any (the default), live keys only, or none (the
// operator sets it with `ces webhook set`). A leaked test key must not point live events elsewhere.
import type { Migration } from './migration.ts';

export const migration011: Migration = (db) =>
  db.exec(`
  ALTER TABLE campaigns ADD COLUMN webhook_api TEXT NOT NULL DEFAULT 'any' CHECK (webhook_api IN ('any', 'live', 'none'));
`);
