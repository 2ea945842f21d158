// SQL of webhook_configs: one row per campaign, shared by live and test mode.
import type { Db } from '../db/open.ts';
import { cachedRow, invalidateRows } from '../db/row-cache.ts';
import { prepare } from '../db/statements.ts';

export interface WebhookConfigRow {
  campaign_id: string;
  endpoint_url: string;
  is_active: number;
  secret: string;
  /** The secret a rotation with a grace period replaced; it signs beside `secret` until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export function findWebhookConfig(db: Db, campaignId: string): WebhookConfigRow | undefined {
  return prepare<[string], WebhookConfigRow>(
    db,
    `SELECT campaign_id, endpoint_url, is_active, secret, previous_secret, previous_secret_expires_at, created_at, updated_at
    FROM webhook_configs WHERE campaign_id = ?`,
  ).get(campaignId);
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
  prepare(
    db,
    `INSERT INTO webhook_configs (campaign_id, endpoint_url, is_active, secret, previous_secret, previous_secret_expires_at, created_at, updated_at)
    VALUES (@campaign_id, @endpoint_url, @is_active, @secret, @previous_secret, @previous_secret_expires_at, @created_at, @updated_at)`,
  ).run(row);
  invalidateRows(db);
}

export function updateWebhookConfig(
  db: Db,
  row: Pick<WebhookConfigRow, 'campaign_id' | 'endpoint_url' | 'is_active' | 'updated_at'>,
): void {
  prepare(
    db,
    `UPDATE webhook_configs SET endpoint_url = @endpoint_url, is_active = @is_active, updated_at = @updated_at
    WHERE campaign_id = @campaign_id`,
  ).run(row);
  invalidateRows(db);
}

/** A new secret; the one it replaces keeps signing until `previousExpiresAt` (null: not at all). */
export function updateWebhookSecret(db: Db, campaignId: string, secret: string, previousExpiresAt: string | null, updatedAt: string): void {
  prepare(
    db,
    `UPDATE webhook_configs SET previous_secret = iif(@expires IS NULL, NULL, secret), previous_secret_expires_at = @expires,
    secret = @secret, updated_at = @updated_at WHERE campaign_id = @campaign_id`,
  ).run({ campaign_id: campaignId, secret, expires: previousExpiresAt, updated_at: updatedAt });
  invalidateRows(db);
}

/** Forgets previous secrets whose grace period has ended (they sign nothing any more); how many. */
export function clearExpiredPreviousSecrets(db: Db, now: string): number {
  const changes = prepare(
    db,
    `UPDATE webhook_configs SET previous_secret = NULL, previous_secret_expires_at = NULL
    WHERE previous_secret_expires_at IS NOT NULL AND previous_secret_expires_at <= ?`,
  ).run(now).changes;
  if (changes > 0) invalidateRows(db);
  return changes;
}

/** Whether some previous secret's grace period has ended (read without the write lock). */
export function hasExpiredPreviousSecret(db: Db, now: string): boolean {
  return (
    prepare<[string], number>(
      db,
      `SELECT EXISTS (SELECT 1 FROM webhook_configs WHERE previous_secret_expires_at IS NOT NULL AND previous_secret_expires_at <= ?)`,
    )
      .pluck()
      .get(now) === 1
  );
}
