// Schema version 16: GET /v1/events lists a campaign's events of one mode newest first, from the
// webhook outbox (docs/api.md#listing-events-get-v1events); this index serves that listing and its
// pages without reading the other mode's or other statuses' rows.
import type { Migration } from './migration.ts';

export const migration016: Migration = (db) =>
  db.exec(`CREATE INDEX webhook_deliveries_events ON webhook_deliveries (campaign_id, livemode, seq);`);
