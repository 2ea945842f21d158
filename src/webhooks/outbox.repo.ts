// SQL of the webhook outbox (webhook_deliveries) and its attempts.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

export interface DeliveryRow {
  seq: number;
  id: string;
  campaign_id: string;
  livemode: number;
  entry_id: string | null;
  event_type: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  last_error: string | null;
  last_status_code: number | null;
  created_at: string;
  delivered_at: string | null;
}

export function insertDelivery(db: Db, row: Pick<DeliveryRow, 'id' | 'campaign_id' | 'livemode' | 'entry_id' | 'event_type' | 'payload' | 'status' | 'next_attempt_at' | 'last_error' | 'created_at'>): void {
  prepare(db, `INSERT INTO webhook_deliveries (id, campaign_id, livemode, entry_id, event_type, payload, status, next_attempt_at, last_error, created_at)
    VALUES (@id, @campaign_id, @livemode, @entry_id, @event_type, @payload, @status, @next_attempt_at, @last_error, @created_at)`).run(row);
}
