// SQL read by /metrics and /healthz: counts only, each answered from an index or a small table.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';

/** From entry_counts (trigger-maintained, migration 2): a few rows whatever the number of entries. */
export function countEntriesByStatus(db: Db): Array<{ status: string; livemode: number; n: number }> {
  return prepare<[], { status: string; livemode: number; n: number }>(
    db,
    `SELECT status, livemode, SUM(n) AS n FROM entry_counts
    GROUP BY status, livemode ORDER BY status, livemode`,
  ).all();
}

/**
 * Where the backlog counts stop: a count walks its index, and a backlog after an outage (a webhook
 * endpoint down for a day) can hold millions of rows that /healthz, polled every few seconds, and
 * /metrics would walk on the event loop each time. Up to here a count is exact; this figure
 * itself means "at least this many". Walking it takes a few ms.
 */
export const BACKLOG_COUNT_CAP = 100_000;

/** Jobs rows exist only while work is due or running: few, but many after an outage (capped). */
export function countJobs(db: Db): number {
  return prepare<[number], { n: number }>(db, `SELECT COUNT(*) AS n FROM (SELECT 1 FROM jobs LIMIT ?)`).get(BACKLOG_COUNT_CAP)!.n;
}

/** Jobs that failed at least once and wait for (or are in) a retry: a retried job keeps its last error. */
export function countRetryingJobs(db: Db): Array<{ kind: string; n: number }> {
  return prepare<[], { kind: string; n: number }>(
    db,
    `SELECT kind, COUNT(*) AS n FROM jobs WHERE last_error IS NOT NULL GROUP BY kind`,
  ).all();
}

/** created_at of the oldest job not yet done, or null when there is none. */
export function oldestJobCreatedAt(db: Db): string | null {
  return prepare<[], { at: string | null }>(db, `SELECT MIN(created_at) AS at FROM jobs`).get()!.at;
}

/**
 * Pending deliveries come from the partial index; failed ones (retries spent, awaiting redeliver)
 * from a range of the (campaign_id, status) index per campaign, never a scan of the whole outbox.
 * Each count stops at BACKLOG_COUNT_CAP. CROSS JOIN keeps campaigns outside: the planner would
 * otherwise walk the whole (campaign_id, status) index, every settled delivery included.
 */
export function countOutboxBacklog(db: Db): { pending: number; failed: number } {
  const pending = prepare<[number], { n: number }>(
    db,
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' LIMIT ?)`,
  ).get(BACKLOG_COUNT_CAP)!.n;
  const failed = prepare<[number], { n: number }>(
    db,
    `SELECT COUNT(*) AS n FROM (
      SELECT 1 FROM campaigns c CROSS JOIN webhook_deliveries d ON d.campaign_id = c.id AND d.status = 'failed' LIMIT ?
    )`,
  ).get(BACKLOG_COUNT_CAP)!.n;
  return { pending, failed };
}

export function maxAttemptId(db: Db): number {
  return prepare<[], { id: number | null }>(db, `SELECT MAX(id) AS id FROM webhook_attempts`).get()!.id ?? 0;
}

interface AttemptTally {
  result: string;
  n: number;
  last_id: number;
}

/**
 * Delivery attempts recorded after `afterId`, by result. Reading only the new rows keeps each
 * scrape proportional to the attempts since the previous one, however long the history grows.
 */
export function tallyAttemptsSince(db: Db, afterId: number): AttemptTally[] {
  return prepare<[number], AttemptTally>(
    db,
    `SELECT
      CASE
        WHEN status_code BETWEEN 200 AND 299 THEN 'success'
        WHEN status_code IS NOT NULL THEN 'http_error'
        WHEN error LIKE '%timeout%' OR error LIKE '%timed out%' THEN 'timeout'
        ELSE 'network_error'
      END AS result,
      COUNT(*) AS n, MAX(id) AS last_id
    FROM webhook_attempts WHERE id > ? GROUP BY result`,
  ).all(afterId);
}

/** Anonymisations whose erasure from the file waits for a reader (a partial index holds only those), and the oldest's time. */
export function countPendingErasures(db: Db): { n: number; oldest: string | null } {
  return prepare<[], { n: number; oldest: string | null }>(
    db,
    `SELECT COUNT(*) AS n, MIN(anonymized_at) AS oldest FROM pending_erasures WHERE erased_at IS NULL`,
  ).get()!;
}
