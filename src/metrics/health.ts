// GET /healthz: is this server able to do its work? The database answers a read (and passed the full
// check of a file this server had not opened before), and the
// background tick has run recently (it drains jobs and the webhook outbox; a stuck tick means
// entries stay PENDING and webhooks stop, while intake still looks fine from outside). Degraded,
// still 200: it works, but with CES_CHECKPOINTS=external its WAL is past CES_WAL_ALARM_MB, so
// nothing (Litestream) is checkpointing it (src/db/wal-watch.ts). A load balancer must not take a
// server out for that: it is for a person to look at, and intake goes on.
import { toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import type { TickState } from '../pipeline/tick.ts';
import type { WalStatus, WalWatch } from '../db/wal-watch.ts';
import { countJobs, countOutboxBacklog, countPendingErasures } from './metrics.repo.ts';
import type { IntegrityStatus } from '../db/integrity-status.ts';

/** The tick is considered dead after this many intervals without a run that completed. */
const TICK_STALE_INTERVALS = 10;

interface Health {
  status: 'ok' | 'degraded' | 'unavailable';
  db: 'ok' | 'error';
  tick: { last_tick_at: string | null; alive: boolean; interval_ms: number; last_error: string | null };
  backlog: { jobs: number; deliveries_pending: number; deliveries_failed: number } | null;
  /** The -wal file: its size, the alarm (CES_WAL_ALARM_MB in bytes), whether it is over (external mode only). */
  wal: WalStatus | null;
  /**
   * Anonymisations whose older page images are still in the file, waiting for a reader to end
   * (src/participants/erasure.ts), and when the oldest was done. Informative: intake is unaffected.
   */
  erasures: { pending: number; oldest_anonymized_at: string | null } | null;
  /** The full check of a file this server had not opened before (src/db/integrity-child.ts). */
  integrity: IntegrityStatus;
}

export function checkHealth(ctx: Ctx, tick: TickState, walWatch: WalWatch, integrity: IntegrityStatus): Health {
  let backlog: Health['backlog'] = null;
  let erasures: Health['erasures'] = null;
  try {
    const outbox = countOutboxBacklog(ctx.db);
    backlog = { jobs: countJobs(ctx.db), deliveries_pending: outbox.pending, deliveries_failed: outbox.failed };
    const pending = countPendingErasures(ctx.db);
    erasures = { pending: pending.n, oldest_anonymized_at: pending.oldest };
  } catch (error) {
    ctx.log.error('health check: database read failed', { error: error instanceof Error ? error.message : String(error) });
  }
  const intervalMs = ctx.config.tickMs;
  const { startedAt, lastTickAt, lastError } = tick;
  const alive = ctx.clock.now() - (lastTickAt ?? startedAt) <= TICK_STALE_INTERVALS * intervalMs;
  const db = backlog ? 'ok' : 'error';
  let wal: WalStatus | null = null;
  try {
    wal = walWatch.read();
  } catch (error) {
    ctx.log.error('health check: could not read the size of the WAL', { error: error instanceof Error ? error.message : String(error) });
  }
  // A file that failed its full check must not be served: the load balancer takes this server out.
  let status: Health['status'] = db === 'ok' && alive && integrity.state !== 'failed' ? 'ok' : 'unavailable';
  if (status === 'ok' && wal?.over_alarm) status = 'degraded';
  return {
    status,
    db,
    tick: { last_tick_at: lastTickAt === null ? null : toIso(lastTickAt), alive, interval_ms: intervalMs, last_error: lastError },
    backlog,
    wal,
    erasures,
    integrity: { ...integrity },
  };
}
