// Sending the outbox. Due deliveries are claimed (attempt counted, lease taken), attempted in
// parallel outside any transaction (at most `deliveryConcurrency` at once: attempt.ts), and their
// outcomes recorded in short transactions that batch many (outcomes.ts). The event id (envelope id,
// webhook-id header) never changes; the signature is computed at send time with the campaign's
// current secret, so a rotated secret applies to every later attempt. This file is the
// orchestration: the pool of attempts in flight, claiming for its free slots, and the flush.
import { createShutdownController } from '../tools/shutdown-signal.ts';
import { monotonicMs, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Config } from '../kernel/config.ts';
import { sendClaimed, type ClaimedOutcome } from './attempt.ts';
import { claimDeliveries, listWebhookCampaignIds, type DeliveryRow } from './outbox.repo.ts';
import { emptyDeliveryStats, recordOutcome, type DeliveryStats } from './outcomes.ts';
import {
  createUtilizationSampler,
  DEFAULT_SCHEDULER_SETTINGS,
  DeliveryScheduler,
  shareOut,
  type AttemptResult,
  type SchedulerSettings,
} from './scheduler.ts';
import { findWebhookConfigCached } from './webhook-config.repo.ts';

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The server timer's delivery pump: attempts run in the background of the tick, as many at once as
 * the scheduler allows (scheduler.ts: per endpoint, in total, and by CPU while intake is served).
 * Each finished attempt is buffered; one flush (a few ms later) records every buffered outcome and
 * claims due deliveries for the slots they freed in ONE transaction, then starts those. So the
 * pool refills as attempts finish instead of once per tick, and a backlog drains at the speed of
 * the endpoint, not of the timer; a slow endpoint that hangs until its timeout holds its own
 * slots, not the tick nor another campaign's.
 */
export interface DeliveryPool {
  /** One promise per attempt, settled once its outcome is recorded (graceful close waits on these). */
  running: Set<Promise<void>>;
  /** Outcomes waiting for the next flush. */
  finished: Array<{ delivery: DeliveryRow; lease: string; outcome: ClaimedOutcome; done: () => void }>;
  flushScheduled: boolean;
  /** Set on close: attempts in flight are recorded, no new ones start. */
  closed: boolean;
  stats: DeliveryStats;
  /** HTTP requests in progress: deliveries keep to their CPU share, flushes wait longer (fewer, larger commits). */
  busy: () => boolean;
  /** Made from the configuration at the first claim, unless given. */
  scheduler: DeliveryScheduler | null;
  /** A claim the CPU budget cut short is tried again by this timer. */
  retryTimer: NodeJS.Timeout | null;
  /** Each campaign's endpoint URL as last seen, to notice a change. */
  endpointUrls: Map<string, string>;
  /** Aborted when the server stops: attempts in flight end, unrecorded (their leases go at the next start). */
  abort: AbortController;
}

export const createDeliveryPool = (busy: () => boolean = () => false, scheduler: DeliveryScheduler | null = null): DeliveryPool => ({
  running: new Set(),
  finished: [],
  flushScheduled: false,
  closed: false,
  stats: emptyDeliveryStats(),
  busy,
  scheduler,
  retryTimer: null,
  endpointUrls: new Map(),
  abort: createShutdownController(),
});

/** The scheduler settings of a configuration. */
export function schedulerSettings(config: Config): SchedulerSettings {
  return { ...DEFAULT_SCHEDULER_SETTINGS, maxInFlight: config.deliveryConcurrency, perEndpoint: config.deliveryPerEndpoint };
}

/**
 * Most outcomes one flush records, so a flush stays a short synchronous step: while HTTP requests
 * are served, 16 (a wave of a hanging endpoint's timeouts is recorded over several flushes, each a
 * few ms, instead of one that holds intake up); idle, 128.
 */
const MAX_RECORDS_PER_FLUSH = 128;
const BUSY_MAX_RECORDS_PER_FLUSH = 16;

/**
 * Claims due deliveries and attempts them. Without a pool (tests, `tick()` by hand) it waits for
 * each round and records the outcomes in one transaction, up to `maxDeliveries`, within the limits
 * per endpoint and in total (no back-off or CPU bound: nothing else runs); with a pool it fills
 * the free slots and returns (the pool refills itself as attempts finish).
 */
export async function drainDeliveries(ctx: Ctx, stats: DeliveryStats, maxDeliveries: number, pool?: DeliveryPool): Promise<void> {
  if (pool) {
    const stepStarted = monotonicMs();
    const started = ctx.db.transaction(() => claimForPool(ctx, pool, maxDeliveries)).immediate();
    const claimedAt = monotonicMs();
    startAttempts(ctx, pool, started.claimed, started.lease);
    schedulerOf(ctx, pool).chargeCpu(claimedAt - stepStarted + 2 * (monotonicMs() - claimedAt), started.claimed.length);
    return;
  }
  let budget = maxDeliveries;
  while (budget > 0) {
    const nowMs = ctx.clock.now();
    const lease = toIso(nowMs + ctx.config.webhookTimeoutMs + 60_000);
    const wanting = listWebhookCampaignIds(ctx.db).map((key) => ({ key, room: ctx.config.deliveryPerEndpoint }));
    const claimed = claimDeliveries(ctx.db, toIso(nowMs), lease, shareOut(wanting, Math.min(ctx.config.deliveryConcurrency, budget)));
    if (claimed.length === 0) break;
    budget -= claimed.length;
    const outcomes = await Promise.all(claimed.map((d) => sendClaimed(ctx, d)));
    ctx.db
      .transaction(() => {
        claimed.forEach((delivery, i) => recordOutcome(ctx, delivery, lease, outcomes[i], stats));
      })
      .immediate();
    await yieldToEventLoop();
  }
}

function schedulerOf(ctx: Ctx, pool: DeliveryPool): DeliveryScheduler {
  pool.scheduler ??= new DeliveryScheduler(schedulerSettings(ctx.config), monotonicMs, createUtilizationSampler(monotonicMs));
  return pool.scheduler;
}

/** Claims due deliveries for the slots the scheduler gives now, inside the caller's transaction. */
function claimForPool(ctx: Ctx, pool: DeliveryPool, max = Number.POSITIVE_INFINITY): { claimed: DeliveryRow[]; lease: string } {
  const nowMs = ctx.clock.now();
  const lease = toIso(nowMs + ctx.config.webhookTimeoutMs + 60_000);
  if (pool.closed) return { claimed: [], lease };
  const scheduler = schedulerOf(ctx, pool);
  const busy = pool.busy();
  const campaigns = listWebhookCampaignIds(ctx.db);
  // A campaign whose endpoint URL changed (the operator or the integrator fixed it) starts afresh.
  for (const id of campaigns) {
    const url = findWebhookConfigCached(ctx.db, id)?.endpoint_url;
    if (url === undefined || pool.endpointUrls.get(id) === url) continue;
    if (pool.endpointUrls.has(id)) scheduler.reset(id);
    pool.endpointUrls.set(id, url);
  }
  let plan = scheduler.plan(campaigns, busy);
  let left = max;
  plan = plan.map(({ key, room }) => {
    const take = Math.min(room, left);
    left -= take;
    return { key, room: take };
  });
  const claimed = claimDeliveries(ctx.db, toIso(nowMs), lease, plan);
  for (const delivery of claimed) scheduler.started(delivery.campaign_id);
  // Cut short by the CPU budget: the next flush may be far off (only attempts to a slow or hanging
  // endpoint in flight), so a timer claims again once the budget pays for an attempt.
  if (busy && pool.retryTimer === null) {
    const wait = scheduler.cpuWaitMs();
    if (wait > 0) {
      pool.retryTimer = setTimeout(() => {
        pool.retryTimer = null;
        void drainDeliveries(ctx, pool.stats, MAX_DELIVERIES_PER_CLAIM, pool).catch((error: unknown) =>
          ctx.log.error({ message: 'claiming webhook deliveries failed', error: String(error) }),
        );
      }, wait);
      pool.retryTimer.unref();
    }
  }
  return { claimed, lease };
}

/** Most deliveries one claim outside a flush takes: the tick's (a hand-run tick's too) and the retry timer's. */
export const MAX_DELIVERIES_PER_CLAIM = 100;

function startAttempts(ctx: Ctx, pool: DeliveryPool, claimed: DeliveryRow[], lease: string): void {
  for (const delivery of claimed) {
    const run = new Promise<void>((done) => {
      sendClaimed(ctx, delivery, pool.abort.signal).then(
        (outcome) => {
          if (pool.abort.signal.aborted) {
            // Shutting down past its deadline: nothing is recorded; the next start sends it again.
            schedulerOf(ctx, pool).finished(delivery.campaign_id, 'none');
            done();
            return;
          }
          pool.finished.push({ delivery, lease, outcome, done });
          scheduleFlush(ctx, pool);
        },
        (error: unknown) => {
          // attemptDelivery catches network errors; this is a bug or a database error.
          ctx.log.error({
            message: `webhook delivery ${delivery.id}: the attempt failed unexpectedly; retried after its lease`,
            error: String(error),
          });
          schedulerOf(ctx, pool).finished(delivery.campaign_id, 'none');
          done();
        },
      );
    }).finally(() => pool.running.delete(run));
    pool.running.add(run);
  }
}

/**
 * Outcomes are recorded a few milliseconds after the first one arrives, so one commit (one fsync
 * with synchronous=FULL) holds the outcomes of many attempts instead of one each. Idle, 2 ms: a
 * freed slot waits for the flush before it is refilled, and on the 20,000-entry bench 8 ms left
 * the process idle a sixth of the drain. While HTTP requests are served, 16 ms: fewer commits
 * beside intake's.
 */
const FLUSH_DELAY_MS = 2;
const BUSY_FLUSH_DELAY_MS = 16;

function scheduleFlush(ctx: Ctx, pool: DeliveryPool): void {
  if (pool.flushScheduled) return;
  pool.flushScheduled = true;
  // Closing: record at once, nothing new starts anyway.
  if (pool.closed) setImmediate(() => flushPool(ctx, pool));
  else setTimeout(() => flushPool(ctx, pool), pool.busy() ? BUSY_FLUSH_DELAY_MS : FLUSH_DELAY_MS);
}

/** What a recorded outcome tells the scheduler about its endpoint. */
function resultOf(outcome: ClaimedOutcome): AttemptResult {
  return outcome.kind === 'attempt' ? (outcome.ok ? 'ok' : 'failed') : 'none';
}

/**
 * Records buffered outcomes and refills the freed slots, in one transaction; then starts the new
 * attempts. The step's measured time is charged to the CPU budget: recording and claiming once,
 * sending twice, for the answers of the POSTs it started, which are read later, outside it (in the
 * profiles, sending and receiving cost about the same).
 */
function flushPool(ctx: Ctx, pool: DeliveryPool): void {
  const started = monotonicMs();
  const scheduler = schedulerOf(ctx, pool);
  pool.flushScheduled = false;
  const batch = pool.finished.splice(0, pool.busy() ? BUSY_MAX_RECORDS_PER_FLUSH : MAX_RECORDS_PER_FLUSH);
  let next: { claimed: DeliveryRow[]; lease: string } = { claimed: [], lease: '' };
  try {
    next = ctx.db
      .transaction(() => {
        for (const { delivery, lease, outcome } of batch) {
          recordOutcome(ctx, delivery, lease, outcome, pool.stats);
          // Free once recorded: the claim below, in this same transaction, may refill the slot.
          const coolDownMs = scheduler.finished(delivery.campaign_id, resultOf(outcome));
          if (coolDownMs > 0) {
            ctx.log.warn({
              message: `the webhook endpoint of campaign ${delivery.campaign_id} failed ${scheduler.settings.failuresBeforeBackoff} or more attempts in a row; nothing is sent to it for ${Math.round(coolDownMs / 1000)} s, then one attempt at a time until one succeeds`,
              campaign_id: delivery.campaign_id,
              cool_down_ms: coolDownMs,
            });
          }
        }
        return claimForPool(ctx, pool);
      })
      .immediate();
  } catch (error) {
    ctx.log.error({
      message: `recording ${batch.length} webhook attempts failed; they are retried after their lease`,
      error: String(error),
    });
  }
  for (const { done } of batch) done();
  const recorded = monotonicMs();
  startAttempts(ctx, pool, next.claimed, next.lease);
  const sent = monotonicMs();
  // Recording and claiming once; sending twice: the answers are read later, outside this step, and
  // cost about what sending did (in the profiles). Per attempt: its share of both.
  const cost = recorded - started + 2 * (sent - recorded);
  scheduler.chargeCpu(cost, Math.max(batch.length, next.claimed.length));
  if (pool.finished.length > 0) scheduleFlush(ctx, pool);
}
