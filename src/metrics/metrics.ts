// The metrics of one running server (GET /metrics). HTTP counters and latencies are kept in memory
// by the request hooks; database figures are read at scrape time with cheap counts; delivery
// attempts are tallied from webhook_attempts incrementally, so they include attempts made by any
// process on the same database file (the tick, `ces webhook test`) since this server started.
import type { Ctx } from '../kernel/context.ts';
import { droppedLogLines } from '../kernel/log.ts';
import { JOB_KINDS } from '../pipeline/jobs.repo.ts';
import type { DeliveryScheduler } from '../webhooks/scheduler.ts';
import { readWalBytes, type WalWatch } from '../db/wal-watch.ts';
import type { RuntimeVersions } from './versions.ts';
import { createRegistry, type Registry } from './registry.ts';
import {
  countEntriesByStatus,
  countJobs,
  countOutboxBacklog,
  countPendingErasures,
  countRetryingJobs,
  maxAttemptId,
  oldestJobCreatedAt,
  tallyAttemptsSince,
} from './metrics.repo.ts';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
/** The route label of a request that matched no route: raw paths would let clients mint series. */
export const UNMATCHED_ROUTE = 'unmatched';
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ATTEMPT_RESULTS = ['success', 'http_error', 'timeout', 'network_error'] as const;

export interface ServiceMetrics {
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** The exposition text; reads the database, so it may throw when the database is unusable. */
  render(): string;
}

export function createServiceMetrics(ctx: Ctx, versions: RuntimeVersions, deliveries?: DeliveryScheduler, wal?: WalWatch): ServiceMetrics {
  const registry: Registry = createRegistry();
  const requests = registry.counter('ces_http_requests_total', 'HTTP requests answered, by matched route pattern, method and status.');
  const durations = registry.histogram(
    'ces_http_request_duration_seconds',
    'Time from request to response head, by matched route pattern.',
    LATENCY_BUCKETS,
  );

  registry.gauge('ces_entries', 'Entries stored, by status and mode.', () =>
    countEntriesByStatus(ctx.db).map((r) => ({ labels: { status: r.status, livemode: r.livemode === 1 ? 'true' : 'false' }, value: r.n })),
  );
  registry.gauge('ces_jobs_backlog', 'Processing and evaluation jobs not yet done (due, scheduled for retry or running).', () => [
    { value: countJobs(ctx.db) },
  ]);
  // A job that keeps failing (a verifier that stays down, an evaluation that throws) is retried with
  // capped backoff for as long as it fails: these two show it without reading the logs.
  registry.gauge('ces_jobs_retrying', 'Jobs that failed at least once and wait for a retry, by kind (process, evaluate).', () => {
    const counts = new Map(countRetryingJobs(ctx.db).map((r) => [r.kind, r.n]));
    return JOB_KINDS.map((kind) => ({ labels: { kind }, value: counts.get(kind) ?? 0 }));
  });
  registry.gauge('ces_jobs_oldest_age_seconds', 'Seconds since the oldest job not yet done was queued; 0 with none.', () => {
    const oldest = oldestJobCreatedAt(ctx.db);
    return [{ value: oldest === null ? 0 : Math.max(0, Math.round((ctx.clock.now() - Date.parse(oldest)) / 1000)) }];
  });
  registry.gauge(
    'ces_outbox_backlog',
    'Webhook deliveries waiting: pending (due or awaiting a retry) and failed (retries exhausted, awaiting redeliver).',
    () => {
      const backlog = countOutboxBacklog(ctx.db);
      return [
        { labels: { status: 'pending' }, value: backlog.pending },
        { labels: { status: 'failed' }, value: backlog.failed },
      ];
    },
  );

  if (deliveries) {
    registry.gauge(
      'ces_webhook_deliveries_in_flight',
      'Webhook attempts this server has in flight (sent, answer not yet recorded).',
      () => [{ value: deliveries.inFlight() }],
    );
    registry.gauge(
      'ces_webhook_endpoints_backed_off',
      'Campaign webhook endpoints backed off after failing attempts in a row (one probe at a time until one succeeds).',
      () => [{ value: deliveries.view().filter((e) => e.backedOff).length }],
    );
  }

  const attempts = registry.counter(
    'ces_webhook_delivery_attempts_total',
    'Webhook delivery attempts since this server started, by result (success = 2xx).',
  );
  for (const result of ATTEMPT_RESULTS) attempts.inc({ result }, 0);
  let attemptWatermark = maxAttemptId(ctx.db);
  const collectAttempts = (): void => {
    for (const tally of tallyAttemptsSince(ctx.db, attemptWatermark)) {
      attempts.inc({ result: tally.result }, tally.n);
      attemptWatermark = Math.max(attemptWatermark, tally.last_id);
    }
  };

  // The one place a lost log shows when stderr went with it (`ces serve 2>&1 | shipper`).
  const logLinesDropped = registry.counter(
    'ces_log_lines_dropped_total',
    'Log lines not written because the log output (stdout) failed, e.g. its reader left; the server goes on serving.',
  );
  logLinesDropped.inc({}, 0);
  let droppedSeen = 0;
  const collectDroppedLogLines = (): void => {
    const dropped = droppedLogLines(ctx.log);
    logLinesDropped.inc({}, dropped - droppedSeen);
    droppedSeen = dropped;
  };

  // With CES_CHECKPOINTS=external the one sign, besides /healthz, that Litestream stopped checkpointing.
  registry.gauge(
    'ces_wal_bytes',
    "Size of the database's -wal file in bytes (its high-water mark: SQLite reuses it from the start after a checkpoint).",
    () => [{ value: wal ? wal.read().bytes : readWalBytes(ctx.config.dbPath) }],
  );

  // An anonymisation whose older page images wait in the file for a reader to end (src/participants/erasure.ts).
  registry.gauge(
    'ces_erasures_pending',
    'Anonymisations whose older page images are still in the database files, waiting for a reader holding a snapshot to end.',
    () => [{ value: countPendingErasures(ctx.db).n }],
  );

  registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => [{ value: process.memoryUsage.rss() }]);
  registry.gauge('nodejs_heap_used_bytes', 'V8 heap in use, in bytes.', () => [{ value: process.memoryUsage().heapUsed }]);
  registry.gauge('process_uptime_seconds', 'Seconds since the process started.', () => [
    { value: Math.round(process.uptime() * 1000) / 1000 },
  ]);
  // An info metric, always 1: the versions are its labels, so a query can join them to any other
  // series (which release a latency came from) and an upgrade shows as one series ending.
  const buildLabels = { ...versions, binary: String(versions.binary) };
  registry.gauge('ces_build_info', 'The versions this server runs on, as its labels; always 1.', () => [{ labels: buildLabels, value: 1 }]);

  return {
    observeRequest(route, method, status, seconds) {
      const m = KNOWN_METHODS.has(method) ? method : 'OTHER';
      requests.inc({ route, method: m, status: String(status) });
      durations.observe({ route }, seconds);
    },
    render() {
      collectAttempts();
      collectDroppedLogLines();
      return registry.render();
    },
  };
}
