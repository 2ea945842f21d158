// GET /healthz: is this server able to do its work? The database answers a read, and the
// background tick has run recently (it drains jobs and the webhook outbox; a stuck tick means
// entries stay PENDING and webhooks stop, while intake still looks fine from outside).
import { toIso } from '../clock.ts';
import type { Ctx } from '../context.ts';
import type { TickState } from '../pipeline/tick.ts';
import { countJobs, countOutboxBacklog } from './metrics.repo.ts';

/** The tick is considered dead after this many intervals without a run that completed. */
export const TICK_STALE_INTERVALS = 10;

export interface Health {
  status: 'ok' | 'unavailable';
  db: 'ok' | 'error';
  tick: { last_tick_at: string | null; alive: boolean; interval_ms: number; last_error: string | null };
  backlog: { jobs: number; deliveries_pending: number; deliveries_failed: number } | null;
}

export function checkHealth(ctx: Ctx, tick: TickState): Health {
  let backlog: Health['backlog'] = null;
  try {
    const outbox = countOutboxBacklog(ctx.db);
    backlog = { jobs: countJobs(ctx.db), deliveries_pending: outbox.pending, deliveries_failed: outbox.failed };
  } catch (error) {
    ctx.log.error('health check: database read failed', { error: error instanceof Error ? error.message : String(error) });
  }
  const intervalMs = ctx.config.tickMs;
  const { startedAt, lastTickAt, lastError } = tick;
  const alive = ctx.clock.now() - (lastTickAt ?? startedAt) <= TICK_STALE_INTERVALS * intervalMs;
  const db = backlog ? 'ok' : 'error';
  return {
    status: db === 'ok' && alive ? 'ok' : 'unavailable',
    db,
    tick: { last_tick_at: lastTickAt === null ? null : toIso(lastTickAt), alive, interval_ms: intervalMs, last_error: lastError },
    backlog,
  };
}
