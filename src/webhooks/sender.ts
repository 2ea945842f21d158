// Sending the outbox. Due deliveries are claimed (attempt counted, lease taken), POSTed in parallel
// outside any transaction (at most `deliveryConcurrency` at once), and their attempts and
// consequences recorded in short transactions that batch many outcomes: 2xx -> delivered; anything else, a timeout, a connection error or a refused target
// -> retried after CES_WEBHOOK_RETRY_SCHEDULE[n] seconds, and `failed` once the schedule is spent.
// The event id (envelope id, webhook-id header) never changes; the signature is computed at send
// time with the campaign's current secret, so a rotated secret applies to every later attempt
// (and during a rotation's grace period, with the secret it replaced too: signing.ts).
// A delivery whose campaign's delivery was paused after the event was queued is held (pending,
// never due: HELD_UNTIL_REACTIVATED) until it is switched back on; one with no configuration at
// send time is marked `skipped`, like an event that happened while paused.
import { createShutdownController } from '../tools/shutdown-signal.ts';
import http from 'node:http';
import https from 'node:https';
import { monotonicMs, toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import type { Config } from '../kernel/config.ts';
import { describeFetchError } from '../tools/fetch-error.ts';
import type { Db } from '../db/open.ts';
import {
  claimDeliveries,
  HELD_UNTIL_REACTIVATED,
  holdCampaignDeliveries,
  insertAttempt,
  listWebhookCampaignIds,
  settleDelivery,
  type DeliveryRow,
} from './outbox.repo.ts';
import {
  createUtilizationSampler,
  DEFAULT_SCHEDULER_SETTINGS,
  DeliveryScheduler,
  shareOut,
  type AttemptResult,
  type SchedulerSettings,
} from './scheduler.ts';
import { signDelivery, signingSecrets } from './signing.ts';
import { publicOnlyLookup, refuseAddressLiteral, refuseWebhookTarget } from './ssrf.ts';
import { maskUrlCredentials } from '../tools/url-credentials.ts';
import { USER_AGENT } from '../kernel/version.ts';
import { findWebhookConfig, findWebhookConfigCached } from './webhook-config.repo.ts';

export interface DeliveryStats {
  deliveriesAttempted: number;
  deliveriesDelivered: number;
  deliveriesRetrying: number;
  deliveriesFailed: number;
  deliveriesSkipped: number;
}

export const emptyDeliveryStats = (): DeliveryStats => ({
  deliveriesAttempted: 0,
  deliveriesDelivered: 0,
  deliveriesRetrying: 0,
  deliveriesFailed: 0,
  deliveriesSkipped: 0,
});

const EXCERPT_CHARS = 512;

export type Outcome =
  | { kind: 'skipped'; reason: string }
  /** Delivery is paused: nothing sent; the delivery waits for reactivation. */
  | { kind: 'paused' }
  | {
      kind: 'attempt';
      attemptedAt: string;
      url: string;
      ok: boolean;
      statusCode: number | null;
      latencyMs: number | null;
      error: string | null;
      excerpt: string | null;
    };

/** An attempt that reached (or tried to reach) the endpoint. */
export type Attempt = Extract<Outcome, { kind: 'attempt' }>;

/** Records one attempt of a delivery, as `ces webhook deliveries` and the metrics read it; in the caller's transaction. */
export function recordAttempt(db: Db, deliveryId: string, attempt: Attempt): void {
  insertAttempt(db, {
    delivery_id: deliveryId,
    attempted_at: attempt.attemptedAt,
    url: attempt.url,
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
    response_excerpt: attempt.excerpt,
  });
}

/** What the tick records: an Outcome, or a ping sent before whose outcome was never recorded (not sent again). */
export type ClaimedOutcome = Outcome | { kind: 'interrupted' };

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

/**
 * A delivery the tick claimed, sent. Except a ping claimed a second time since it was queued or
 * redelivered: it was sent (by `ces webhook test`, or by a server) and its outcome never recorded
 * (the process was killed; its lease expired). A ping is never retried: it is settled as failed.
 */
export function sendClaimed(ctx: Ctx, delivery: DeliveryRow, signal?: AbortSignal): Promise<ClaimedOutcome> {
  if (delivery.event_type === 'ping' && delivery.attempts > 1) return Promise.resolve({ kind: 'interrupted' });
  return attemptDelivery(ctx, delivery, signal);
}

/** One signed POST of a claimed delivery (also used by `ces webhook test`); records nothing. */
export async function attemptDelivery(ctx: Ctx, delivery: DeliveryRow, signal?: AbortSignal): Promise<Outcome> {
  // From the row memo: a secret rotated or a pause made by this process or the CLI is seen from the
  // next event-loop turn on.
  const config = findWebhookConfigCached(ctx.db, delivery.campaign_id);
  if (!config) return { kind: 'skipped', reason: 'no webhook configuration at send time' };
  if (config.is_active !== 1) return { kind: 'paused' };
  const attemptedMs = ctx.clock.now();
  // The attempt record names the URL without its password
  // (docs/api.md#delivery-retries-and-failure); the POST uses the real one.
  const base = { kind: 'attempt' as const, attemptedAt: toIso(attemptedMs), url: maskUrlCredentials(config.endpoint_url) };
  const refused = await refuseWebhookTarget(config.endpoint_url, ctx.config.allowPrivateWebhooks);
  if (refused) return { ...base, ok: false, statusCode: null, latencyMs: null, error: refused, excerpt: null };

  const headers = {
    ...signDelivery(signingSecrets(config, attemptedMs), delivery.id, attemptedMs, delivery.payload),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  // A duration, not a time of day: the monotonic clock is right even when tests fix ctx.clock.
  const started = monotonicMs();
  try {
    const res = await postWebhook(config.endpoint_url, delivery.payload, headers, {
      timeoutMs: ctx.config.webhookTimeoutMs,
      publicOnly: !ctx.config.allowPrivateWebhooks,
      agents: agentsFor(ctx.config),
      signal,
    });
    const latencyMs = Math.round(monotonicMs() - started);
    const ok = res.status >= 200 && res.status <= 299;
    const excerpt = res.body !== '' ? res.body.slice(0, EXCERPT_CHARS) : null;
    return { ...base, ok, statusCode: res.status, latencyMs, error: ok ? null : `HTTP ${res.status}`, excerpt };
  } catch (error) {
    const latencyMs = Math.round(monotonicMs() - started);
    return { ...base, ok: false, statusCode: null, latencyMs, error: describeFetchError(error), excerpt: null };
  }
}

/**
 * Keep-alive agents, one pair per configuration: each endpoint's connections are kept open and
 * reused (at most CES_DELIVERY_PER_ENDPOINT idle ones per host), a new connection to a host seen
 * before resumes its TLS session instead of a full handshake, and the process never holds more than
 * CES_DELIVERY_CONCURRENCY sockets. The scheduler keeps attempts within those numbers, so no
 * request waits inside an agent for a socket. Certificates are always checked
 * (README.md#configuration): said here, so that NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn it off.
 */
function agentsFor(config: Pick<Config, 'deliveryConcurrency' | 'deliveryPerEndpoint'>): { https: https.Agent; http: http.Agent } {
  const key = `${config.deliveryConcurrency}/${config.deliveryPerEndpoint}`;
  let pair = agentPairs.get(key);
  if (!pair) {
    const options = {
      keepAlive: true,
      keepAliveMsecs: 1_000,
      maxSockets: config.deliveryPerEndpoint,
      maxFreeSockets: config.deliveryPerEndpoint,
      maxTotalSockets: config.deliveryConcurrency,
      scheduling: 'lifo' as const,
    };
    pair = { https: new https.Agent({ ...options, rejectUnauthorized: true, maxCachedSessions: 256 }), http: new http.Agent(options) };
    agentPairs.set(key, pair);
  }
  return pair;
}
const agentPairs = new Map<string, { https: https.Agent; http: http.Agent }>();

const PUBLIC_ONLY = publicOnlyLookup();

/** Bytes of the answer kept (the excerpt is at most EXCERPT_CHARS characters). */
const MAX_BODY_BYTES = 4 * EXCERPT_CHARS;

/**
 * One POST with node:http(s) (not fetch: undici's web streams cost several times the CPU per
 * request, the largest item of a backlog drain's profile). A redirect is not followed: it could
 * lead anywhere, past the address check. Errors keep Node's codes (ECONNREFUSED, certificate
 * errors) for describeFetchError; the timeout covers the whole exchange and rejects with a
 * TimeoutError. With `publicOnly` the connection resolves the host itself through publicOnlyLookup
 * and refuses a non-public address, whatever the DNS answered a moment before.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: { timeoutMs: number; publicOnly: boolean; agents?: { https: https.Agent; http: http.Agent }; signal?: AbortSignal },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const isHttps = target.protocol === 'https:';
    if (!isHttps && target.protocol !== 'http:') {
      reject(new Error(`unsupported protocol ${target.protocol}`));
      return;
    }
    const literal = o.publicOnly ? refuseAddressLiteral(target.hostname) : null;
    if (literal) {
      reject(new Error(literal));
      return;
    }
    const payload = Buffer.from(body, 'utf8');
    const req = (isHttps ? https : http).request(target, {
      method: 'POST',
      agent: o.agents ? (isHttps ? o.agents.https : o.agents.http) : false,
      ...(o.publicOnly ? { lookup: PUBLIC_ONLY } : {}),
      headers: { ...headers, 'content-length': String(payload.length), accept: '*/*' },
    });
    const timer = setTimeout(() => {
      const error = new Error(`timed out after ${o.timeoutMs} ms`);
      error.name = 'TimeoutError';
      req.destroy(error);
    }, o.timeoutMs);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = (): void => {
      req.destroy(new Error('abandoned at shutdown'));
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (): void => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8') });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough for the excerpt: the rest of an endless or huge answer is not read (the
        // connection is closed, not reused).
        if (size >= MAX_BODY_BYTES) {
          answer();
          req.destroy();
        }
      });
      res.on('error', fail);
      res.on('end', answer);
    });
    req.end(payload);
  });
}

const INTERRUPTED_PING = 'interrupted before its outcome was recorded (ces webhook test killed?); a ping is never retried';

function recordOutcome(ctx: Ctx, delivery: DeliveryRow, lease: string, outcome: ClaimedOutcome, stats: DeliveryStats): void {
  if (outcome.kind === 'paused') {
    // Claimed as delivery was paused (the pause held the unclaimed ones): held too, and so is
    // anything of the campaign that became due since (not an attempt: the count is taken back).
    // Unless delivery was turned back on since the attempt looked: that reactivation released
    // nothing of this claimed row, and holding now would keep the campaign's events back while
    // delivery is on. Read from the table, not the memo: this transaction holds the write lock.
    const stillPaused = findWebhookConfig(ctx.db, delivery.campaign_id)?.is_active === 0;
    const nextAttemptAt = stillPaused ? HELD_UNTIL_REACTIVATED : toIso(ctx.clock.now());
    settleDelivery(ctx.db, {
      id: delivery.id,
      locked_until: lease,
      status: 'pending',
      next_attempt_at: nextAttemptAt,
      last_error: delivery.last_error,
      last_status_code: delivery.last_status_code,
      delivered_at: null,
      attempts_delta: -1,
    });
    if (stillPaused) holdCampaignDeliveries(ctx.db, delivery.campaign_id);
    return;
  }
  if (outcome.kind === 'skipped') {
    // Not an attempt: nothing was sent, so the claim's count is taken back.
    if (
      settleDelivery(ctx.db, {
        id: delivery.id,
        locked_until: lease,
        status: 'skipped',
        next_attempt_at: null,
        last_error: outcome.reason,
        last_status_code: delivery.last_status_code,
        delivered_at: null,
        attempts_delta: -1,
      })
    ) {
      stats.deliveriesSkipped++;
    }
    return;
  }
  if (outcome.kind === 'interrupted') {
    // The attempt that was sent is counted already; this claim is not one.
    if (
      settleDelivery(ctx.db, {
        id: delivery.id,
        locked_until: lease,
        status: 'failed',
        next_attempt_at: null,
        last_error: INTERRUPTED_PING,
        last_status_code: delivery.last_status_code,
        delivered_at: null,
        attempts_delta: -1,
      })
    ) {
      stats.deliveriesFailed++;
    }
    return;
  }
  stats.deliveriesAttempted++;
  recordAttempt(ctx.db, delivery.id, outcome);
  const nowMs = ctx.clock.now();
  if (outcome.ok) {
    if (
      settleDelivery(ctx.db, {
        id: delivery.id,
        locked_until: lease,
        status: 'delivered',
        next_attempt_at: null,
        last_error: null,
        last_status_code: outcome.statusCode,
        delivered_at: toIso(nowMs),
        attempts_delta: 0,
      })
    ) {
      stats.deliveriesDelivered++;
    }
    return;
  }
  // delivery.attempts already counts this attempt; schedule[k] is the wait before retry k + 1.
  // A ping (one redelivered by the operator) is never retried, as `ces webhook test` never retries it.
  const schedule = ctx.config.webhookRetrySchedule;
  const retryIndex = delivery.attempts - 1;
  const retry = retryIndex < schedule.length && delivery.event_type !== 'ping';
  const settled = settleDelivery(ctx.db, {
    id: delivery.id,
    locked_until: lease,
    status: retry ? 'pending' : 'failed',
    next_attempt_at: retry ? toIso(nowMs + schedule[retryIndex] * 1000) : null,
    last_error: outcome.error,
    last_status_code: outcome.statusCode,
    delivered_at: null,
    attempts_delta: 0,
  });
  if (!settled) return;
  if (retry) stats.deliveriesRetrying++;
  else {
    stats.deliveriesFailed++;
    ctx.log.warn({
      message: `webhook delivery ${delivery.id} (${delivery.event_type}) failed after ${delivery.attempts} attempts: ${outcome.error}`,
      delivery_id: delivery.id,
      campaign_id: delivery.campaign_id,
    });
  }
}
