// Schema version 10: the delivery scheduler claims per campaign (src/webhooks/scheduler.ts: a limit per
// endpoint, back-off of a failing one), so the due index leads with the campaign; and the
// retention rule (CES_RETENTION_DAYS) finds delivered and skipped events by when they settled.
import type { Migration } from './migration.ts';

export const migration010: Migration = (db) =>
  db.exec(`
  CREATE INDEX webhook_deliveries_campaign_due ON webhook_deliveries (campaign_id, next_attempt_at, seq) WHERE status = 'pending';
  DROP INDEX webhook_deliveries_due;
  CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (coalesce(delivered_at, created_at)) WHERE status IN ('delivered', 'skipped');
`);
