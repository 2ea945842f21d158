// SQL of webhook_configs: one row per campaign, shared by live and test mode.
import type { Db } from '../db/open.ts';
import { cachedRow, invalidateRows } from '../db/row-cache.ts';
import { prepare } from '../db/statements.ts';

export interface WebhookConfigRow {
  campaign_id: string;
  endpoint_url: string;
  is_active: number;
  secret: string;
  created_at: string;
  updated_at: string;
}

export function findWebhookConfig(db: Db, campaignId: string): WebhookConfigRow | undefined {
  return prepare<[string], WebhookConfigRow>(db, `SELECT campaign_id, endpoint_url, is_active, secret, created_at, updated_at
    FROM webhook_configs WHERE campaign_id = ?`).get(campaignId);
}

/**
 * findWebhookConfig through the row memo (db/row-cache.ts), for enqueueing events: every entry
 * queues two or three. A write transaction that uses it calls revalidateRows first.
 */
export function findWebhookConfigCached(db: Db, campaignId: string): Readonly<WebhookConfigRow> | undefined {
  return cachedRow(db, 'webhook_configs', campaignId, () => {
    const row = findWebhookConfig(db, campaignId);
    return row && Object.freeze(row);
  });
}

export function insertWebhookConfig(db: Db, row: WebhookConfigRow): void {
  prepare(db, `INSERT INTO webhook_configs (campaign_id, endpoint_url, is_active, secret, created_at, updated_at)
    VALUES (@campaign_id, @endpoint_url, @is_active, @secret, @created_at, @updated_at)`).run(row);
  invalidateRows(db);
}

export function updateWebhookConfig(db: Db, row: Pick<WebhookConfigRow, 'campaign_id' | 'endpoint_url' | 'is_active' | 'updated_at'>): void {
  prepare(db, `UPDATE webhook_configs SET endpoint_url = @endpoint_url, is_active = @is_active, updated_at = @updated_at
    WHERE campaign_id = @campaign_id`).run(row);
  invalidateRows(db);
}

export function updateWebhookSecret(db: Db, campaignId: string, secret: string, updatedAt: string): void {
  prepare(db, `UPDATE webhook_configs SET secret = ?, updated_at = ? WHERE campaign_id = ?`).run(secret, updatedAt, campaignId);
  invalidateRows(db);
}
