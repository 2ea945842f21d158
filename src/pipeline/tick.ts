// The tick: one bounded pass over the jobs table and the webhook outbox. Bounded (at most
// MAX_JOBS jobs in transactions of CHUNK_SIZE, at most MAX_DELIVERIES deliveries) and yielding to
// the event loop between chunks, so that a backlog of thousands of entries drains over several
// ticks without holding up HTTP requests. The ticker runs it on a timer; ticks never overlap. When
// a timer tick used its whole job budget (a backlog), the next one starts on the next event-loop
// turn instead of tickMs later; webhook attempts are not bound to ticks at all (the delivery pool
// refills itself as attempts finish, see webhooks/sender.ts).
import { monotonicMs } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { createDeliveryPool, drainDeliveries, MAX_DELIVERIES_PER_CLAIM, type DeliveryPool } from '../webhooks/sender.ts';
import { emptyDeliveryStats, type DeliveryStats } from '../webhooks/outcomes.ts';
import { releaseDeliveryLeases } from '../webhooks/outbox.repo.ts';
import { forgetExpiredSecrets, pruneOutbox } from '../webhooks/retention.ts';
import type { DeliveryScheduler } from '../webhooks/scheduler.ts';
import type { WalWatch } from '../db/wal-watch.ts';
import { createVerifierPool, drainJobs, emptyJobStats, VERIFIER_CALLS_IN_FLIGHT, type JobStats, type VerifierPool } from './jobs.ts';
import { releaseJobLeases } from './jobs.repo.ts';
import { pipelineRestMs } from './pacing.ts';

const MAX_JOBS_PER_TICK = 200;
const JOB_CHUNK_SIZE = 25;
/** Timer ticks while no HTTP request is in progress: larger chunks, fewer commits (fsyncs). */
const IDLE_JOB_CHUNK_SIZE = 100;

export interface TickReport extends JobStats, DeliveryStats {
  /** Delivered and skipped events deleted by the retention rule (CES_RETENTION_DAYS). */
  deliveriesPruned: number;
  durationMs: number;
}

interface TickPools {
  deliveries: DeliveryPool;
  verifier: VerifierPool;
  /** Between two job chunks (the last took `stepMs`): see pipelineRestMs. */
  pause: (stepMs: number) => Promise<void>;
  /** Jobs per transaction: JOB_CHUNK_SIZE while HTTP requests are being served, else IDLE_JOB_CHUNK_SIZE. */
  chunkSize: () => number;
  /** True once the ticker is stopping: the tick in progress claims no further chunk of jobs. */
  halted: () => boolean;
}

/**
 * One tick. With pools (the server's timer) webhook attempts and fiscal verifier calls are started
 * and left to finish on their own; without them (tests, RunningServer.tick()) the tick waits for
 * them, so its report says what happened to everything it took.
 */
/**
 * Housekeeping of other areas that the tick runs after its own (the dashboard's sign-in link
 * retention): handed in by the composition root, since those areas sit above the pipeline.
 */
export type TickChore = (ctx: Ctx) => unknown;

async function runTick(ctx: Ctx, pools?: TickPools, chores: readonly TickChore[] = []): Promise<TickReport> {
  const started = monotonicMs();
  const jobs = emptyJobStats();
  const deliveries = emptyDeliveryStats();
  await drainJobs(
    ctx,
    jobs,
    { maxJobs: MAX_JOBS_PER_TICK, chunkSize: pools?.chunkSize ?? JOB_CHUNK_SIZE, pause: pools?.pause, halted: pools?.halted },
    pools?.verifier,
  );
  await drainDeliveries(ctx, deliveries, MAX_DELIVERIES_PER_CLAIM, pools?.deliveries);
  const deliveriesPruned = pruneOutbox(ctx);
  forgetExpiredSecrets(ctx);
  for (const chore of chores) chore(ctx);
  return { ...jobs, ...deliveries, deliveriesPruned, durationMs: Math.round(monotonicMs() - started) };
}

/** Waits for `promise` at most `ms`; true when it settled in time. */
export async function finishesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  if (!Number.isFinite(ms)) {
    await promise;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when the tick used its whole job budget: more jobs are probably due right now. */
function tickWasFull(report: TickReport): boolean {
  return report.jobsClaimed >= MAX_JOBS_PER_TICK;
}

/** True when the tick did anything at all (claimed a job or settled a delivery). */
export function tickDidWork(report: TickReport): boolean {
  return report.jobsClaimed > 0 || report.deliveriesAttempted > 0 || report.deliveriesSkipped > 0 || report.deliveriesPruned > 0;
}

interface Ticker {
  /** Runs one tick now, after the one in progress (if any) finishes, waiting for its deliveries. */
  tick(): Promise<TickReport>;
  /** Starts the timer: a tick every `intervalMs` after the previous one ends. */
  start(intervalMs: number): void;
  /**
   * Stops the timer and resolves once the tick in progress and the outgoing calls in flight
   * (webhook attempts, verifier calls) have finished, or after `timeoutMs`: those still in flight
   * then are abandoned, unrecorded; their leases are released by the next start.
   */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * At start-up this server is the only one working on the database file, so leases left by a
 * process that died (SIGKILL, power loss) are released at once instead of waiting for them to
 * expire: interrupted jobs and deliveries are picked up again by the first tick.
 */
export function releaseStaleLeases(ctx: Ctx): { jobs: number; deliveries: number } {
  return ctx.db.transaction(() => ({ jobs: releaseJobLeases(ctx.db), deliveries: releaseDeliveryLeases(ctx.db) })).immediate();
}

/** How the tick is doing, for GET /healthz: the ticker updates it after every run. */
export interface TickState {
  /** When the service started: the tick is judged from here until its first run. */
  startedAt: number;
  /** When the last tick that completed without an error ended. */
  lastTickAt: number | null;
  /** The error of the last tick, if it failed; null once one completes. */
  lastError: string | null;
}

/**
 * `state` (GET /healthz) records when each tick that completed ended, and the error of one that
 * failed, whether it ran by timer or by hand.
 * `httpBusy` tells whether HTTP requests are in progress (the timer tick then rests between chunks).
 * `scheduler` decides which webhook attempts the timer's pool may start (made from ctx.config if not given).
 * `wal` is looked at before every tick: its alarm and its last-resort checkpoint (src/db/wal-watch.ts).
 * `chores` run at the end of every tick (TickChore).
 */
export function createTicker(
  ctx: Ctx,
  state?: TickState,
  httpBusy: () => boolean = () => false,
  scheduler?: DeliveryScheduler,
  wal?: WalWatch,
  chores: readonly TickChore[] = [],
): Ticker {
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  // Verifier calls in flight: a few times the delivery concurrency, then jobs wait their turn.
  const pools: TickPools = {
    deliveries: createDeliveryPool(httpBusy, scheduler ?? null),
    verifier: createVerifierPool(VERIFIER_CALLS_IN_FLIGHT),
    pause: (stepMs) =>
      new Promise((resolve) => {
        const rest = pipelineRestMs(stepMs, httpBusy());
        if (rest > 0) setTimeout(resolve, rest);
        else setImmediate(resolve);
      }),
    chunkSize: () => (httpBusy() ? JOB_CHUNK_SIZE : IDLE_JOB_CHUNK_SIZE),
    // A shutdown waits for the tick in progress: it ends after the chunk it is in, not MAX_JOBS_PER_TICK later.
    halted: () => stopped,
  };

  // A WAL that cannot be looked at (its folder unreadable) is logged; the tick still runs.
  const watchWal = (): void => {
    try {
      wal?.check();
    } catch (error) {
      ctx.log.error({ message: 'could not read the size of the WAL', error: error instanceof Error ? error.message : String(error) });
    }
  };

  const tick = (detached = false): Promise<TickReport> => {
    const run = chain
      .then(() => {
        watchWal();
        return runTick(ctx, detached ? pools : undefined, chores);
      })
      .then(
        (report) => {
          if (state) {
            state.lastTickAt = ctx.clock.now();
            state.lastError = null;
          }
          return report;
        },
        (error: unknown) => {
          if (state) state.lastError = error instanceof Error ? error.message : String(error);
          throw error;
        },
      );
    chain = run.catch(() => undefined);
    return run;
  };

  const schedule = (intervalMs: number, delayMs = intervalMs): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      let full = false;
      tick(true)
        .then(
          (report) => {
            full = tickWasFull(report);
            if (tickDidWork(report)) ctx.log.debug({ message: 'tick', ...report });
          },
          (error: unknown) =>
            ctx.log.error({
              message: 'tick failed',
              error: error instanceof Error ? error.message : String(error),
              stack: (error as Error)?.stack,
            }),
        )
        .finally(() => schedule(intervalMs, full ? 0 : intervalMs));
    }, delayMs);
  };

  return {
    tick: () => tick(false),
    start: (intervalMs) => {
      stopped = false;
      pools.deliveries.closed = false;
      schedule(intervalMs);
    },
    stop: async (timeoutMs = Number.POSITIVE_INFINITY) => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const settle = async (): Promise<void> => {
        await chain;
        pools.deliveries.closed = true;
        if (pools.deliveries.retryTimer) clearTimeout(pools.deliveries.retryTimer);
        pools.deliveries.retryTimer = null;
        while (pools.deliveries.running.size > 0 || pools.verifier.running.size > 0)
          await Promise.all([...pools.deliveries.running, ...pools.verifier.running]);
      };
      const settled = settle();
      if (await finishesWithin(settled, timeoutMs)) return;
      const abandoned = pools.deliveries.running.size + pools.verifier.calls;
      ctx.log.warn({
        message: `shutdown: ${abandoned} outgoing calls still in flight after ${timeoutMs} ms are abandoned; the next start makes them again`,
        abandoned,
      });
      pools.deliveries.closed = true;
      pools.deliveries.abort.abort();
      pools.verifier.abort.abort();
      // Aborted calls end at once and record nothing; a tick stuck on the database is not waited for.
      await finishesWithin(settled, 1_000);
    },
  };
}
