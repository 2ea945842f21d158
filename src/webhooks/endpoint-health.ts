// An endpoint's back-off (scheduler.ts) survives a restart: the scheduler keeps it in memory, and a
// server that starts again rebuilds it from the attempts recorded lately, so it does not greet an
// endpoint that is down with CES_DELIVERY_PER_ENDPOINT attempts at once, then more after each
// timeout, as if nothing had happened. The attempts say everything needed: which endpoint
// (campaign), when each ended (started + latency, or + the timeout), and whether it was a 2xx.
import type { Ctx } from '../kernel/context.ts';
import { iterateAttemptsNewestFirst } from './outbox.repo.ts';
import { replayFailures, type DeliveryScheduler } from './scheduler.ts';

/** How far back the recorded attempts are read: twelve cool-downs of the longest kind. */
const LOOK_BACK_MS = 3600 * 1000;
/** Attempts read at most, whatever their age: a start stays quick on a busy outbox. */
const MAX_ATTEMPTS_READ = 100_000;
/** Failures in a row replayed per endpoint at most (the newest): enough to reach the longest cool-down. */
const MAX_FAILURES_REPLAYED = 64;

/**
 * Gives `scheduler` each endpoint's latest failures in a row, read from the attempts of the last
 * hour; returns the campaigns whose endpoint starts backed off.
 */
export function restoreEndpointBackoffs(ctx: Ctx, scheduler: DeliveryScheduler): string[] {
  const now = ctx.clock.now();
  const since = now - LOOK_BACK_MS;
  /** Per campaign: when its failed attempts ended, newest first; null once a success ends the run. */
  const runs = new Map<string, { endedAt: number[]; closed: boolean }>();
  let read = 0;
  for (const a of iterateAttemptsNewestFirst(ctx.db)) {
    const startedAt = Date.parse(a.attempted_at);
    if (startedAt < since || ++read > MAX_ATTEMPTS_READ) break;
    let run = runs.get(a.campaign_id);
    if (!run) runs.set(a.campaign_id, (run = { endedAt: [], closed: false }));
    if (run.closed) continue;
    if (a.status_code !== null && a.status_code >= 200 && a.status_code < 300) run.closed = true;
    else {
      run.endedAt.push(startedAt + (a.latency_ms ?? ctx.config.webhookTimeoutMs));
      if (run.endedAt.length >= MAX_FAILURES_REPLAYED) run.closed = true;
    }
  }
  const backedOff: string[] = [];
  for (const [campaignId, run] of runs) {
    const state = replayFailures(run.endedAt.reverse(), scheduler.settings);
    scheduler.restore(campaignId, state, now);
    if (state.backedOffUntilMs !== null) backedOff.push(campaignId);
  }
  return backedOff;
}
