// Which webhook attempts may start now. Three rules, each a few lines of state and no I/O, so
// that tests drive them with a fake clock:
//
// - Endpoints: a campaign's webhook configuration is one endpoint. It has at most `perEndpoint`
//   attempts in flight (CES_DELIVERY_PER_ENDPOINT), and every endpoint together at most
//   `maxInFlight` (CES_DELIVERY_CONCURRENCY, the sockets the process may hold). Free slots are
//   shared out evenly between the endpoints that want them, so one campaign's backlog cannot take
//   every slot.
// - Back-off: after `failuresBeforeBackoff` attempts in a row that failed (not 2xx, timed out,
//   refused), an endpoint starts nothing for a cool-down (1 s, doubling to 5 min), then one probe
//   at a time. A 2xx ends the back-off. Its deliveries stay due and keep their place; they are
//   not attempted, so they do not spend their retry schedule while the receiver is down. The
//   state lives in memory; a restarted server replays the failures recorded lately
//   (replayFailures, restore), so it does not start by hammering an endpoint that is down.
// - CPU: an attempt in flight is waiting on the network and costs nothing, but starting one,
//   parsing its answer and recording it run on the event loop that serves intake. While HTTP
//   requests are being served, deliveries spend a budget that refills with wall time and is spent
//   by the measured time of each step. It refills at the share of the event loop that was idle
//   lately (event-loop utilisation), and at least `minCpuShare`: deliveries take what intake
//   leaves, and when intake saturates the loop they still go on, slowly. Idle (no request), there
//   is no bound (nothing to protect).
//
// Times are durations on the injected monotonic clock (ms).
import { performance } from 'node:perf_hooks';

export interface SchedulerSettings {
  maxInFlight: number;
  perEndpoint: number;
  /** Least share of the event loop deliveries get while HTTP requests are served, the loop saturated. */
  minCpuShare: number;
  /** Largest CPU budget saved up while deliveries had nothing to do, in ms. */
  cpuBurstMs: number;
  failuresBeforeBackoff: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_SCHEDULER_SETTINGS: Omit<SchedulerSettings, 'maxInFlight' | 'perEndpoint'> = {
  minCpuShare: 1 / 20,
  cpuBurstMs: 5,
  failuresBeforeBackoff: 5,
  backoffBaseMs: 1_000,
  backoffMaxMs: 300_000,
};

/** What a finished claim turned out to be: a 2xx, any failed attempt, or nothing sent (skipped, paused). */
export type AttemptResult = 'ok' | 'failed' | 'none';

interface Endpoint {
  inFlight: number;
  failuresInARow: number;
  /** Backed off: nothing starts before this instant; then one probe at a time. */
  backedOffUntil: number | null;
  /** How many cool-downs in a row (the next one is twice as long). */
  backoffStep: number;
}

interface EndpointView {
  key: string;
  inFlight: number;
  failuresInARow: number;
  backedOff: boolean;
  backedOffForMs: number;
}

/** First estimate of one attempt's CPU cost (start, answer, record), before any is measured. */
const INITIAL_COST_MS = 0.5;
/** Weight of the newest measurement in the cost estimate. */
const COST_SMOOTHING = 0.2;

export class DeliveryScheduler {
  private readonly endpoints = new Map<string, Endpoint>();
  private total = 0;
  private budgetMs: number;
  private refilledAt: number;
  private costMs = INITIAL_COST_MS;
  /** Rotates which endpoint is served first when slots are short. */
  private turn = 0;

  readonly settings: SchedulerSettings;
  private readonly now: () => number;
  private readonly utilization: () => number;

  /** `utilization`: the event loop's recent utilisation, 0 to 1 (1 when not given: the least share). */
  constructor(settings: SchedulerSettings, now: () => number, utilization: () => number = () => 1) {
    this.settings = settings;
    this.now = now;
    this.utilization = utilization;
    this.budgetMs = settings.cpuBurstMs;
    this.refilledAt = now();
  }

  /**
   * How many attempts each endpoint may start now (only endpoints with room are listed), in the
   * order they should be served. `busy`: HTTP requests are being served, so the CPU bound applies.
   */
  plan(keys: readonly string[], busy: boolean): Array<{ key: string; room: number }> {
    let free = this.settings.maxInFlight - this.total;
    if (busy) free = Math.min(free, Math.floor(this.refill() / this.costMs));
    else this.budgetMs = this.settings.cpuBurstMs;
    if (free <= 0 || keys.length === 0) return [];
    const now = this.now();
    const start = this.turn++ % keys.length;
    const wanting: Array<{ key: string; room: number }> = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(start + i) % keys.length];
      const room = this.roomOf(this.endpoints.get(key), now);
      if (room > 0) wanting.push({ key, room });
    }
    return shareOut(wanting, free);
  }

  /** An attempt to `key` started. */
  started(key: string): void {
    this.endpoint(key).inFlight++;
    this.total++;
  }

  /**
   * An attempt to `key` finished (its outcome recorded, its slot free). Returns the length of the
   * cool-down this failure began, in ms, or 0.
   */
  finished(key: string, result: AttemptResult): number {
    let coolDownMs = 0;
    const e = this.endpoint(key);
    e.inFlight = Math.max(0, e.inFlight - 1);
    this.total = Math.max(0, this.total - 1);
    if (result === 'ok') {
      e.failuresInARow = 0;
      e.backedOffUntil = null;
      e.backoffStep = 0;
    } else if (result === 'failed') {
      coolDownMs = recordFailure(e, this.now(), this.settings);
    }
    if (e.inFlight === 0 && e.failuresInARow === 0) this.endpoints.delete(key);
    return coolDownMs;
  }

  /**
   * Takes an endpoint's failures in a row as the attempts recorded before a restart show them
   * (replayFailures), its cool-down measured on the wall clock: `wallNowMs` is that clock now.
   */
  restore(key: string, state: ReplayedEndpoint, wallNowMs: number): void {
    if (state.failuresInARow === 0) return;
    const e = this.endpoint(key);
    e.failuresInARow = state.failuresInARow;
    e.backoffStep = state.backoffStep;
    e.backedOffUntil = state.backedOffUntilMs === null ? null : this.now() + Math.max(0, state.backedOffUntilMs - wallNowMs);
  }

  /** Forgets an endpoint's failures (its URL changed, or the operator switched delivery back on). */
  reset(key: string): void {
    const e = this.endpoints.get(key);
    if (!e) return;
    e.failuresInARow = 0;
    e.backedOffUntil = null;
    e.backoffStep = 0;
  }

  /**
   * Spends the measured CPU time of a step (`ms`) that started or recorded `attempts` attempts,
   * and updates the estimate of one attempt's cost.
   */
  chargeCpu(ms: number, attempts: number): void {
    this.budgetMs -= ms;
    // A step's measurement counts at most a full budget per attempt, so the estimate never
    // exceeds what the budget can hold. A step held up by a cold start (the first TLS context,
    // code not yet compiled), a GC pause or the machine's other processes measures wall time far
    // above the CPU an attempt costs; an estimate above the burst could never be paid for while
    // requests are served, so no attempt would start, nothing would be measured again, and every
    // endpoint would wait until an idle moment or a flush of failures (a hanging endpoint's
    // timeouts, 15 s later) brought the estimate down.
    if (attempts > 0) this.costMs += COST_SMOOTHING * (Math.min(ms / attempts, this.settings.cpuBurstMs) - this.costMs);
  }

  /** Milliseconds until the CPU budget pays for one attempt (0 when it does now). */
  cpuWaitMs(): number {
    const missing = this.costMs - this.refill();
    return missing <= 0 ? 0 : Math.ceil(missing / this.share());
  }

  /** The share of wall time the budget refills at now. */
  share(): number {
    return Math.min(1, Math.max(this.settings.minCpuShare, 1 - this.utilization()));
  }

  inFlight(): number {
    return this.total;
  }

  /** Estimated CPU cost of one attempt, in ms. */
  attemptCostMs(): number {
    return this.costMs;
  }

  /** Endpoints with attempts in flight or failures on record. */
  view(): EndpointView[] {
    const now = this.now();
    return [...this.endpoints].map(([key, e]) => ({
      key,
      inFlight: e.inFlight,
      failuresInARow: e.failuresInARow,
      backedOff: e.backedOffUntil !== null,
      backedOffForMs: e.backedOffUntil === null ? 0 : Math.max(0, e.backedOffUntil - now),
    }));
  }

  private roomOf(e: Endpoint | undefined, now: number): number {
    if (!e) return this.settings.perEndpoint;
    if (e.backedOffUntil === null) return this.settings.perEndpoint - e.inFlight;
    return now >= e.backedOffUntil ? 1 - e.inFlight : 0;
  }

  private endpoint(key: string): Endpoint {
    let e = this.endpoints.get(key);
    if (!e) {
      e = { inFlight: 0, failuresInARow: 0, backedOffUntil: null, backoffStep: 0 };
      this.endpoints.set(key, e);
    }
    return e;
  }

  private refill(): number {
    const now = this.now();
    this.budgetMs = Math.min(this.settings.cpuBurstMs, this.budgetMs + (now - this.refilledAt) * this.share());
    this.refilledAt = now;
    return this.budgetMs;
  }
}

/** An endpoint's back-off as replayFailures rebuilds it; `backedOffUntilMs` on the wall clock. */
interface ReplayedEndpoint {
  failuresInARow: number;
  backoffStep: number;
  backedOffUntilMs: number | null;
}

/**
 * The back-off that `finished` would have reached after the failed attempts of an endpoint's
 * latest run of failures, given when each ended (wall ms, oldest first): a failure at or past the
 * threshold begins a cool-down unless one is still running, each one twice as long as the last.
 */
export function replayFailures(endedAtMs: readonly number[], settings: BackoffSettings): ReplayedEndpoint {
  const state: BackoffState = { failuresInARow: 0, backoffStep: 0, backedOffUntil: null };
  for (const at of endedAtMs) recordFailure(state, at, settings);
  return { failuresInARow: state.failuresInARow, backoffStep: state.backoffStep, backedOffUntilMs: state.backedOffUntil };
}

type BackoffSettings = Pick<SchedulerSettings, 'failuresBeforeBackoff' | 'backoffBaseMs' | 'backoffMaxMs'>;

interface BackoffState {
  failuresInARow: number;
  backoffStep: number;
  backedOffUntil: number | null;
}

/**
 * One more failed attempt of an endpoint, ended at `at` (the scheduler's clock live, the wall clock
 * in a replay): `state` moved on; returns the length of the cool-down it began, in ms, or 0.
 */
function recordFailure(state: BackoffState, at: number, settings: BackoffSettings): number {
  state.failuresInARow++;
  // Failures of attempts that were in flight when the back-off began do not lengthen it; a
  // failed probe (or a failure after the cool-down) does.
  const coolingDown = state.backedOffUntil !== null && at < state.backedOffUntil;
  if (state.failuresInARow < settings.failuresBeforeBackoff || coolingDown) return 0;
  const coolDownMs = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** state.backoffStep);
  state.backedOffUntil = at + coolDownMs;
  state.backoffStep++;
  return coolDownMs;
}

/**
 * Shares `free` slots between endpoints that have room: each first gets an even share (at most its
 * room), then what is left goes, in order, to those that want more.
 */
export function shareOut(wanting: Array<{ key: string; room: number }>, free: number): Array<{ key: string; room: number }> {
  const given = wanting.map((w) => ({ key: w.key, room: 0 }));
  let left = free;
  let open = wanting.length;
  // Rounds of an even share; an endpoint whose room is smaller than the share leaves the rest to others.
  while (left > 0 && open > 0) {
    const share = Math.max(1, Math.floor(left / open));
    open = 0;
    for (let i = 0; i < wanting.length && left > 0; i++) {
      const more = Math.min(share, wanting[i].room - given[i].room, left);
      if (more <= 0) continue;
      given[i].room += more;
      left -= more;
      if (given[i].room < wanting[i].room) open++;
    }
  }
  return given.filter((g) => g.room > 0);
}

/**
 * The event loop's utilisation over the last `windowMs` or so (Node's eventLoopUtilization), for
 * the scheduler's CPU budget: sampled when asked, a new window begun once the last is that old.
 */
export function createUtilizationSampler(now: () => number, windowMs = 200): () => number {
  let mark = performance.eventLoopUtilization();
  let markedAt = now();
  let last = 0;
  return () => {
    const at = now();
    if (at - markedAt < windowMs) return last;
    const current = performance.eventLoopUtilization();
    last = performance.eventLoopUtilization(current, mark).utilization;
    mark = current;
    markedAt = at;
    return last;
  };
}
