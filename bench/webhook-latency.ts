// Webhook delivery at internet latency: a partner's endpoint that answers in ~200 ms, under a
// steady open-loop intake, as a campaign on air would see it. Phases:
// - steady: R entries/s for a warm-up then a window W; lag p99 (202 -> entry.received arrived),
//   events delivered per second in the window against events required (queued in the window),
//   the backlog at the end, intake p99;
// - the same with a second campaign whose endpoint never answers (each attempt ends at the
//   timeout) on the same receiver (one host and port, another path), on a freshly started server, both intakes at the same rate starting together and
//   no warm-up left out: the healthy campaign's figures over the whole run and over its first
//   15 s (the first timeout), when the hanging endpoint's first attempts are all in flight;
// - a backlog of N entries drained with no intake: events delivered per second.
// The baseline for intake p99 is the same open-loop rate with no webhook configured, in the same run.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Child } from './children.ts';
import { createBenchCampaign, openLoopIntake, type BenchCampaign } from './data.ts';
import type { LoadResult } from './load.ts';
import { latencyPercentiles, percentile, type OpenLoopResult } from './open-loop.ts';

export interface LatencyReceiver {
  child: Child;
  /** The secret requests to `path` (default /hooks) are verified with. */
  setSecret(secret: string, path?: string): Promise<void>;
  arrivals(): Promise<{ arrivals: number[]; received: Array<[string, number]> }>;
}

export interface WebhookBenchDeps {
  work: string;
  yymm: string;
  progress(line: string): void;
  startCes(dbPath: string, o?: { tickMs?: string }): Promise<Child>;
  stop(child: Child, role: string): Promise<void>;
  startReceiver(env: Record<string, string>): Promise<LatencyReceiver>;
  /** Points the campaign's webhook at `path` of the receiver (default /hooks). */
  configureWebhook(
    ces: Child,
    campaign: BenchCampaign,
    receiver: { child: Child; setSecret(secret: string, path?: string): Promise<void> },
    path?: string,
  ): Promise<void>;
  intakeLoad(child: Child, campaign: BenchCampaign, o: { amount: number }): Promise<LoadResult>;
}

export interface SteadyFigures {
  entries_per_s: number;
  receiver_delay_ms: number;
  webhook_lag_p99_ms: number;
  webhook_lag_p50_ms: number;
  delivered_per_s: number;
  required_per_s: number;
  delivered_ratio: number;
  backlog_at_end: number;
  backlog_at_end_s: number;
  intake_p99_ms: number;
  intake_p50_ms: number;
  non_202: number;
}

let phase = 0;

/** Open-loop intake against one campaign, each call with its own numbers. */
function steadyIntake(
  deps: WebhookBenchDeps,
  ces: Child,
  campaign: BenchCampaign,
  ratePerS: number,
  durationS: number,
): Promise<OpenLoopResult> {
  const n = ++phase;
  const options = { tag: `hook-${n}-${Date.now().toString(36)}`, offset: 500_000_000 + n * 10_000_000, yymm: deps.yymm };
  return openLoopIntake(ces.url, campaign, options, ratePerS, durationS);
}

function readOnly<T>(dbPath: string, read: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
const round = (x: number, digits = 0): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** Intake p99 at `ratePerS` with no webhook configured: the baseline of the phases below. */
export async function measureIdleIntakeAtRate(
  deps: WebhookBenchDeps,
  ratePerS: number,
  o: { warmupS: number; windowS: number },
): Promise<{ p50: number; p99: number }> {
  const dbPath = join(deps.work, `hooks-idle-${ratePerS}.db`);
  const campaign = createBenchCampaign(dbPath);
  const ces = await deps.startCes(dbPath, { tickMs: '200' });
  try {
    const load = await steadyIntake(deps, ces, campaign, ratePerS, o.warmupS + o.windowS);
    const from = Math.min(...load.requests.map((r) => r.dueAt)) + o.warmupS * 1000;
    const { p50, p99 } = latencyPercentiles(load.requests, from);
    return { p50, p99 };
  } finally {
    await deps.stop(ces, 'hooks_idle');
  }
}

/** The path of the hanging neighbour's endpoint, on the measured campaign's receiver. */
const HANG_PATH = '/hang';

/** Seconds at the start of a run reported apart: the webhook timeout, while a hanging endpoint's first attempts are in flight. */
const FIRST_S = 15;

/**
 * One steady run: `ratePerS` entries/s to a campaign whose endpoint answers after `delayMs`; with
 * `hangingNeighbour`, a second campaign at the same rate whose endpoint, another path of the same
 * receiver (one host and port), never answers. Figures
 * from `warmupS` on (0: from the first request).
 */
export async function measureSteady(
  deps: WebhookBenchDeps,
  o: { ratePerS: number; delayMs: number; warmupS: number; windowS: number; hangingNeighbour?: boolean },
): Promise<
  SteadyFigures & {
    neighbour_attempts?: number;
    first_15_s?: {
      webhook_lag_p99_ms: number;
      webhook_lag_p50_ms: number;
      events_arrived_in_first_10_s: number;
      events_queued_in_first_10_s: number;
    };
  }
> {
  const dbPath = join(deps.work, `hooks-${o.ratePerS}-${o.hangingNeighbour ? 'hang' : 'alone'}.db`);
  const campaign = createBenchCampaign(dbPath);
  const neighbour = o.hangingNeighbour ? createBenchCampaign(dbPath) : null;
  const receiver = await deps.startReceiver({
    BENCH_RECEIVER_DELAY_MS: String(o.delayMs),
    ...(neighbour ? { BENCH_RECEIVER_HANG_PATH: HANG_PATH } : {}),
  });
  const ces = await deps.startCes(dbPath, { tickMs: '200' });
  try {
    await deps.configureWebhook(ces, campaign, receiver);
    if (neighbour) await deps.configureWebhook(ces, neighbour, receiver, HANG_PATH);
    const durationS = o.warmupS + o.windowS;
    const started = Date.now();
    const [load] = await Promise.all([
      steadyIntake(deps, ces, campaign, o.ratePerS, durationS),
      neighbour ? steadyIntake(deps, ces, neighbour, o.ratePerS, durationS) : Promise.resolve(null),
    ]);
    const from = started + o.warmupS * 1000;
    const to = started + durationS * 1000;
    // The backlog as the intake stops: pending events of the measured campaign.
    const backlog = readOnly(
      dbPath,
      (db) =>
        (
          db
            .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE campaign_id = ? AND status = 'pending'`)
            .get(campaign.campaignId) as { n: number }
        ).n,
    );
    // Entries accepted at the end of the window still get their entry.received: wait for it (at most 10 s).
    const accepted = load.requests.filter((r) => r.entryId !== null && r.dueAt >= from && r.dueAt < to);
    let got = await receiver.arrivals();
    for (let i = 0; i < 40; i++) {
      const received = new Map(got.received);
      if (accepted.every((r) => received.has(r.entryId!))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
      got = await receiver.arrivals();
    }
    const received = new Map(got.received);
    const gaveUpAt = Date.now();
    // An entry whose event never came counts with the whole wait: the figure cannot flatter.
    const lagOf = (r: (typeof accepted)[number]): number => (received.get(r.entryId!) ?? gaveUpAt) - r.answeredAt;
    const lags = accepted.map(lagOf).sort((a, b) => a - b);
    const early = accepted.filter((r) => r.dueAt < started + FIRST_S * 1000);
    const earlyLags = early.map(lagOf).sort((a, b) => a - b);
    const delivered = got.arrivals.filter((at) => at >= from && at < to).length;
    const required = readOnly(
      dbPath,
      (db) =>
        (
          db
            .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE campaign_id = ? AND created_at >= ? AND created_at < ?`)
            .get(campaign.campaignId, iso(from), iso(to)) as { n: number }
        ).n,
    );
    const neighbourAttempts = neighbour
      ? readOnly(
          dbPath,
          (db) =>
            (
              db
                .prepare(
                  `SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.campaign_id = ?`,
                )
                .get(neighbour.campaignId) as { n: number }
            ).n,
        )
      : undefined;
    const intake = latencyPercentiles(load.requests, from, to);
    const requiredPerS = required / o.windowS;
    return {
      entries_per_s: o.ratePerS,
      receiver_delay_ms: o.delayMs,
      webhook_lag_p99_ms: percentile(lags, 0.99),
      webhook_lag_p50_ms: percentile(lags, 0.5),
      delivered_per_s: round(delivered / o.windowS, 1),
      required_per_s: round(requiredPerS, 1),
      delivered_ratio: required === 0 ? 0 : round(delivered / required, 3),
      backlog_at_end: backlog,
      backlog_at_end_s: requiredPerS === 0 ? 0 : round(backlog / requiredPerS, 2),
      intake_p99_ms: intake.p99,
      intake_p50_ms: intake.p50,
      non_202: load.requests.filter((r) => r.status !== 202).length,
      ...(neighbourAttempts !== undefined ? { neighbour_attempts: neighbourAttempts } : {}),
      ...(o.warmupS === 0
        ? {
            first_15_s: {
              webhook_lag_p99_ms: percentile(earlyLags, 0.99),
              webhook_lag_p50_ms: percentile(earlyLags, 0.5),
              events_arrived_in_first_10_s: got.arrivals.filter((at) => at < started + 10_000).length,
              events_queued_in_first_10_s: readOnly(
                dbPath,
                (db) =>
                  (
                    db
                      .prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE campaign_id = ? AND created_at < ?`)
                      .get(campaign.campaignId, iso(started + 10_000)) as { n: number }
                  ).n,
              ),
            },
          }
        : {}),
    };
  } finally {
    await deps.stop(ces, 'hooks_steady');
    await receiver.child.stop();
  }
}

/** A backlog of `entries` accepted entries (tick stopped), then drained to a `delayMs` endpoint with no intake. */
export async function measureBacklogDrain(
  deps: WebhookBenchDeps,
  o: { entries: number; delayMs: number; timeoutMs: number },
): Promise<{ entries: number; events: number; events_per_s: number; drain_s: number; complete: boolean }> {
  const dbPath = join(deps.work, 'hooks-drain.db');
  const campaign = createBenchCampaign(dbPath);
  const receiver = await deps.startReceiver({ BENCH_RECEIVER_DELAY_MS: String(o.delayMs) });
  try {
    const filling = await deps.startCes(dbPath);
    try {
      await deps.configureWebhook(filling, campaign, receiver);
      const r = await deps.intakeLoad(filling, campaign, { amount: o.entries });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`backlog fill: ${r.non2xx} non-2xx, ${r.errors} errors`);
    } finally {
      await deps.stop(filling, 'hooks_fill');
    }
    const expected = o.entries * 3;
    deps.progress(`draining ${o.entries} entries (${expected} events) to a ${o.delayMs} ms endpoint`);
    const ces = await deps.startCes(dbPath, { tickMs: '200' });
    const started = Date.now();
    let got = await receiver.arrivals();
    try {
      while (got.arrivals.length < expected && Date.now() - started < o.timeoutMs) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        got = await receiver.arrivals();
      }
    } finally {
      await deps.stop(ces, 'hooks_drain');
    }
    const complete = got.arrivals.length >= expected;
    const last = complete ? got.arrivals.reduce((a, b) => Math.max(a, b), 0) : Date.now();
    const drainS = (last - started) / 1000;
    return {
      entries: o.entries,
      events: got.arrivals.length,
      events_per_s: round(got.arrivals.length / drainS, 1),
      drain_s: round(drainS, 1),
      complete,
    };
  } finally {
    await receiver.child.stop();
  }
}
