// Draining the jobs table: claim a chunk, run each job in its own savepoint inside one short
// transaction (a failing job rolls back alone and is rescheduled with backoff), and do the only
// network step, the fiscal verifier, between two transactions while the job holds its lease.
import { createShutdownController } from '../tools/shutdown-signal.ts';
import type { Campaign } from '../campaigns/campaigns.ts';
import { findCampaignById, findCampaignByIdCached } from '../campaigns/campaigns.repo.ts';
import { monotonicMs, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Db } from '../db/open.ts';
import { perConnection } from '../db/per-connection.ts';
import { revalidateRows } from '../db/row-cache.ts';
import { findEntryById, type EntryRow } from '../entries/entries.repo.ts';
import { jobRetryDelayMs } from './backoff.ts';
import { runLocalChecks, type RejectionReason } from './checks.ts';
import { claimJobs, deferJob, deleteClaimedJob, insertFailedJob, insertJob, rescheduleJob, type JobRow } from './jobs.repo.ts';
import { newStepBudget, type StepBudget } from '../mechanics/lucky-numbers.ts';
import { approveEntry, evaluateEntry, rejectEntry } from './processing.ts';
import { callFiscalVerifier, VERIFIER_REJECTION_PREFIX, type VerifierAnswer } from './verifier.ts';

export interface JobStats {
  jobsClaimed: number;
  /** Jobs finished and deleted (including ones that found nothing left to do). */
  jobsProcessed: number;
  jobsRetried: number;
  entriesApproved: number;
  entriesRejected: number;
  entriesEvaluated: number;
  /** Evaluations put off to a later transaction: their lucky numbers spent the chunk's steps first. */
  evaluationsDeferred: number;
  verifierCalls: number;
}

export const emptyJobStats = (): JobStats => ({
  jobsClaimed: 0,
  jobsProcessed: 0,
  jobsRetried: 0,
  entriesApproved: 0,
  entriesRejected: 0,
  entriesEvaluated: 0,
  evaluationsDeferred: 0,
  verifierCalls: 0,
});

interface JobLimits {
  /** Most jobs one tick takes on. */
  maxJobs: number;
  /** Most jobs per transaction (a function: decided again for each chunk). */
  chunkSize: number | (() => number);
  /** Awaited between chunks (default: one event-loop turn); the timer tick paces itself with it. */
  pause?: (stepMs: number) => Promise<void>;
  /** True once the server is stopping: no further chunk is claimed. */
  halted?: () => boolean;
}

interface VerifierWork {
  job: JobRow;
  entry: EntryRow;
  url: string;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The lease outlives the slowest verifier call by a margin, so a live job is never taken twice. */
const leaseMs = (ctx: Ctx): number => ctx.config.verifierTimeoutMs + 60_000;

/**
 * Verifier calls still running after the tick that started them returned (server timer only), so
 * that a verifier hanging until its timeout holds neither the tick nor other campaigns' entries.
 * At most `maxCalls` run at once; a job that would exceed it is put back, due again after one
 * verifier timeout, without counting an attempt.
 */
export interface VerifierPool {
  running: Set<Promise<void>>;
  calls: number;
  maxCalls: number;
  /** Calls in flight per campaign: one campaign's slow verifier cannot take every call. */
  callsByCampaign: Map<string, number>;
  /** Aborted when the server stops: calls in flight end, and their jobs are left to the next start. */
  abort: AbortController;
}

/** Verifier calls at once for one hand-run chunk, in flight from the timer's pool, and per campaign. */
const VERIFIER_CALLS_PER_CHUNK = 64;
export const VERIFIER_CALLS_IN_FLIGHT = 256;
const VERIFIER_CALLS_PER_CAMPAIGN = 64;

export const createVerifierPool = (maxCalls: number): VerifierPool => ({
  running: new Set(),
  calls: 0,
  maxCalls,
  callsByCampaign: new Map(),
  abort: createShutdownController(),
});

/** Whether the pool has room for one more call to `campaignId`'s verifier, counting `pending` ones about to start. */
function verifierHasRoom(pool: VerifierPool, campaignId: string, pending: VerifierWork[]): boolean {
  if (pool.calls + pending.length >= pool.maxCalls) return false;
  const mine = (pool.callsByCampaign.get(campaignId) ?? 0) + pending.filter((w) => w.entry.campaign_id === campaignId).length;
  return mine < VERIFIER_CALLS_PER_CAMPAIGN;
}

function countCalls(pool: VerifierPool, work: VerifierWork[], delta: 1 | -1): void {
  pool.calls += delta * work.length;
  for (const { entry } of work) {
    const n = (pool.callsByCampaign.get(entry.campaign_id) ?? 0) + delta;
    if (n <= 0) pool.callsByCampaign.delete(entry.campaign_id);
    else pool.callsByCampaign.set(entry.campaign_id, n);
  }
}

/**
 * Claims and runs due jobs, chunk by chunk. Without a pool (tests, `tick()` by hand) it waits for
 * the verifier calls of each chunk; with one it starts them and goes on.
 */
export async function drainJobs(ctx: Ctx, stats: JobStats, limits: JobLimits, pool?: VerifierPool): Promise<void> {
  let budget = limits.maxJobs;
  while (budget > 0 && !limits.halted?.()) {
    const stepStarted = monotonicMs();
    const nowMs = ctx.clock.now();
    const now = toIso(nowMs);
    const lease = toIso(nowMs + leaseMs(ctx));
    const size = Math.min(typeof limits.chunkSize === 'number' ? limits.chunkSize : limits.chunkSize(), budget);
    // Claim and run in one transaction: local decisions commit with the claim; jobs that need the
    // verifier leave it holding their lease.
    const verifierWork = ctx.db
      .transaction(() => {
        revalidateRows(ctx.db); // events below read the memoized webhook configuration
        const jobs = claimJobs(ctx.db, now, lease, size);
        stats.jobsClaimed += jobs.length;
        const work: VerifierWork[] = [];
        // Shared by the chunk's jobs: work that grows with the data stays bounded per transaction.
        const steps = newStepBudget();
        for (const job of jobs) {
          try {
            const w = inSavepoint(ctx.db, runJob)(ctx, job, now, lease, stats, steps);
            if (w && pool && !verifierHasRoom(pool, w.entry.campaign_id, work))
              deferJob(ctx.db, job.id, lease, toIso(nowMs + ctx.config.verifierTimeoutMs));
            else if (w) work.push(w);
          } catch (error) {
            retryJob(ctx, job, lease, nowMs, error, stats);
          }
        }
        return { jobs: jobs.length, work };
      })
      .immediate();
    const stepMs = monotonicMs() - stepStarted;
    if (verifierWork.jobs === 0) break;
    budget -= verifierWork.jobs;
    const { work } = verifierWork;
    if (work.length > 0 && pool) {
      countCalls(pool, work, 1);
      const run: Promise<void> = finishWithVerifier(ctx, work, lease, stats, pool.abort.signal)
        .catch((error: unknown) =>
          ctx.log.error({
            message: 'recording fiscal verifier answers failed; the jobs are retried after their lease',
            error: String(error),
          }),
        )
        .finally(() => {
          countCalls(pool, work, -1);
          pool.running.delete(run);
        });
      pool.running.add(run);
    } else if (work.length > 0) {
      await finishWithVerifier(ctx, work, lease, stats);
    }
    await (limits.pause ?? yieldToEventLoop)(stepMs);
  }
}

/**
 * `fn` in its own savepoint (a nested better-sqlite3 transaction), so a failure rolls back only its
 * own writes. Built once per connection and function: db.transaction() makes several functions.
 */
const savepoints = perConnection('savepoint functions', () => new Map<Function, Function>());
function inSavepoint<F extends (...args: never[]) => unknown>(db: Db, fn: F): F {
  const forDb = savepoints(db);
  let wrapped = forDb.get(fn);
  if (!wrapped) {
    wrapped = db.transaction(fn as unknown as (...args: unknown[]) => unknown);
    forDb.set(fn, wrapped);
  }
  return wrapped as F;
}

/** Runs one claimed job; returns work for the verifier when the decision needs it. */
function runJob(ctx: Ctx, job: JobRow, now: string, lease: string, stats: JobStats, steps: StepBudget): VerifierWork | null {
  const entry = findEntryById(ctx.db, job.entry_id);
  // The campaign from the row memo: revalidated at the start of this chunk's transaction.
  const campaign = entry && findCampaignByIdCached(ctx.db, entry.campaign_id);
  if (entry && campaign && job.kind === 'process' && entry.status === 'PENDING') {
    const reasons = runLocalChecks(ctx.db, campaign, entry, Date.parse(now));
    if (reasons.length === 0 && campaign.fiscal_verifier_url) return { job, entry, url: campaign.fiscal_verifier_url };
    decideEntry(ctx, campaign, entry, reasons, now, stats, steps);
  } else if (entry && campaign && job.kind === 'evaluate') {
    const evaluated = evaluateEntry(ctx, campaign, entry, now, steps);
    if (evaluated === 'deferred') {
      // Due again at once, without counting an attempt: the next chunk goes on where this one stopped.
      deferJob(ctx.db, job.id, lease, now);
      stats.evaluationsDeferred++;
      return null;
    }
    if (evaluated) stats.entriesEvaluated++;
  }
  // Anything else (entry already decided, already evaluated) has nothing left to do.
  completeJob(ctx, job, lease, stats);
  return null;
}

/** The processing verdict for a PENDING entry: rejected with its reasons, or approved and evaluated. */
function decideEntry(
  ctx: Ctx,
  campaign: Campaign,
  entry: EntryRow,
  reasons: RejectionReason[],
  now: string,
  stats: JobStats,
  steps: StepBudget = newStepBudget(),
): void {
  if (reasons.length > 0) {
    if (rejectEntry(ctx, entry, reasons, now)) stats.entriesRejected++;
  } else if (approveEntry(ctx, entry, now, false)) {
    stats.entriesApproved++;
    evaluateApproved(ctx, campaign, entry, now, stats, steps);
  }
}

/**
 * Evaluates an entry right after approving it, in the approving job's transaction: one job per
 * entry instead of a `process` job and then an `evaluate` job, so a backlog's drain claims and
 * deletes half as many jobs. The evaluation runs in its own savepoint; if it
 * throws, only it is rolled back, and an `evaluate` job retries it after a backoff, as if an
 * evaluate job had failed its first attempt.
 */
function evaluateApproved(ctx: Ctx, campaign: Campaign, entry: EntryRow, now: string, stats: JobStats, steps: StepBudget): void {
  const approved: EntryRow = { ...entry, status: 'APPROVED', rejection_reasons: '[]', processed_at: now };
  try {
    const evaluated = inSavepoint(ctx.db, evaluateEntry)(ctx, campaign, approved, now, steps);
    if (evaluated === 'deferred') {
      // The lucky numbers spent this chunk's steps: an evaluate job goes on in a later one.
      insertJob(ctx.db, { kind: 'evaluate', entry_id: entry.id, run_at: now, created_at: now });
      stats.evaluationsDeferred++;
    } else if (evaluated) stats.entriesEvaluated++;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const delay = jobRetryDelayMs(1, ctx.random);
    insertFailedJob(ctx.db, {
      kind: 'evaluate',
      entry_id: entry.id,
      run_at: toIso(Date.parse(now) + delay),
      created_at: now,
      last_error: message,
    });
    stats.jobsRetried++;
    ctx.log.warn({
      message: `evaluating entry ${entry.id} failed; retrying in ${Math.round(delay / 1000)} s: ${message}`,
      entry_id: entry.id,
    });
  }
}

function completeJob(ctx: Ctx, job: JobRow, lease: string, stats: JobStats): void {
  // Lost lease: another worker took the job after ours expired; roll this savepoint back.
  if (!deleteClaimedJob(ctx.db, job.id, lease)) throw new Error(`job ${job.id} lease lost`);
  stats.jobsProcessed++;
}

function retryJob(ctx: Ctx, job: JobRow, lease: string, nowMs: number, error: unknown, stats: JobStats): void {
  const message = error instanceof Error ? error.message : String(error);
  const delay = jobRetryDelayMs(job.attempts, ctx.random);
  if (!rescheduleJob(ctx.db, job.id, lease, toIso(nowMs + delay), message)) return;
  stats.jobsRetried++;
  ctx.log.warn({
    message: `job ${job.kind} for entry ${job.entry_id} failed (attempt ${job.attempts}); retrying in ${Math.round(delay / 1000)} s: ${message}`,
    job_id: job.id,
    entry_id: job.entry_id,
  });
}

/**
 * Calls the verifier for each job of a chunk (at most VERIFIER_CALLS_PER_CHUNK at once) and records
 * each verdict in its own transaction as soon as its call ends, so one slow call (one campaign's
 * verifier that hangs until the timeout) never holds back the verdicts of the others. A call ended
 * by `signal` (shutdown) records nothing: its job keeps its lease, released by the next start.
 */
async function finishWithVerifier(ctx: Ctx, work: VerifierWork[], lease: string, stats: JobStats, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < work.length) {
      const { job, entry, url } = work[next++];
      stats.verifierCalls++;
      const answer = await callFiscalVerifier(
        url,
        { access_key: entry.access_key, entry_id: entry.id, livemode: entry.livemode === 1 },
        ctx.config.verifierTimeoutMs,
        signal,
      );
      if (signal?.aborted) continue;
      ctx.db
        .transaction(() => {
          revalidateRows(ctx.db);
          recordVerifierAnswer(ctx, job, lease, answer, stats);
        })
        .immediate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(VERIFIER_CALLS_PER_CHUNK, work.length) }, worker));
}

/** Decides the entry on the verifier's verdict (its local checks run again first), or retries the job without one. */
function recordVerifierAnswer(ctx: Ctx, job: JobRow, lease: string, answer: VerifierAnswer, stats: JobStats): void {
  const nowMs = ctx.clock.now();
  const now = toIso(nowMs);
  if (answer.kind === 'unavailable') {
    retryJob(ctx, job, lease, nowMs, new Error(answer.error), stats);
    return;
  }
  try {
    ctx.db.transaction(() => {
      const entry = findEntryById(ctx.db, job.entry_id);
      const campaign = entry && findCampaignById(ctx.db, entry.campaign_id);
      if (entry && campaign && entry.status === 'PENDING') {
        // Checked again: the verdict took time, and the local rules still come first.
        const reasons = runLocalChecks(ctx.db, campaign, entry, nowMs);
        if (reasons.length === 0 && !answer.valid) {
          reasons.push({
            code: 'fiscal_verifier_rejected',
            message: answer.reason ? `${VERIFIER_REJECTION_PREFIX}${answer.reason}` : 'The fiscal verifier rejected the access key.',
          });
        }
        decideEntry(ctx, campaign, entry, reasons, now, stats);
      }
      completeJob(ctx, job, lease, stats);
    })();
  } catch (error) {
    retryJob(ctx, job, lease, nowMs, error, stats);
  }
}
