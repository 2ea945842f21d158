// The running service's state, shared by the HTTP app and the background tick: the context, the
// intake writer, the set of Idempotency-Keys whose requests are being read right now, when the
// tick last ran, and the watch on the WAL's size.
import type { Ctx } from '../kernel/context.ts';
import { createInlineWriter, type EntryWriter } from '../intake/entry-writer.ts';
import { worthReadingAhead } from '../intake/read-ahead.ts';
import { statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { monotonicMs } from '../kernel/clock.ts';
import { runPassiveCheckpoint } from '../db/checkpointer.ts';
import { createWalWatch, type WalWatch } from '../db/wal-watch.ts';
import type { IntegrityStatus } from '../db/integrity-status.ts';
import { pruneSignInLinks } from '../dashboard/link-retention.ts';
import type { TickChore, TickState } from '../pipeline/tick.ts';
import { prescribeDue } from '../winners/winners.ts';
import { retryPendingErasures } from '../participants/erasure.ts';
import { restoreEndpointBackoffs } from '../webhooks/endpoint-health.ts';
import { schedulerSettings } from '../webhooks/sender.ts';
import { createUtilizationSampler, DeliveryScheduler } from '../webhooks/scheduler.ts';

export interface Service {
  ctx: Ctx;
  writer: EntryWriter;
  inflight: Set<string>;
  /** When the background tick last finished (ctx.clock ms), for GET /healthz; set by the ticker. */
  tick: TickState;
  /** Which webhook attempts may start (the timer's delivery pool); read by GET /metrics. */
  deliveries: DeliveryScheduler;
  /** The -wal file's size against CES_WAL_ALARM_MB (GET /healthz, /metrics; checked by the tick). */
  wal: WalWatch;
  /** What the tick also does for the areas above the pipeline (createTicker's chores). */
  chores: readonly TickChore[];
  /** The full check of a file this server had not opened before, run after start (GET /healthz). */
  integrity: IntegrityStatus;
}

interface ServiceOptions {
  /** One transaction per request instead of group commit (the comparison the bench and tests make). */
  groupCommit?: boolean;
  /** The delivery scheduler's monotonic clock in ms (cool-downs of a failing endpoint); tests move one by hand. */
  deliveryClock?: () => number;
}

/** A server on a file larger than half the memory reads ahead of intake's writes (src/intake/read-ahead.ts). */
function readsAhead(ctx: Ctx): boolean {
  if (ctx.db.memory) return false;
  const fileBytes = statSync(ctx.db.name).size;
  const memoryBytes = totalmem();
  if (!worthReadingAhead(fileBytes, memoryBytes)) return false;
  const gb = (bytes: number): string => (bytes / 1e9).toFixed(1);
  ctx.log.info({
    message: `intake reads ahead on other threads: the database (${gb(fileBytes)} GB) is larger than half the memory (${gb(memoryBytes)} GB)`,
  });
  return true;
}

export function createService(ctx: Ctx, options: ServiceOptions = {}): Service {
  const groupCommit = options.groupCommit ?? true;
  const deliveries = new DeliveryScheduler(
    schedulerSettings(ctx.config),
    options.deliveryClock ?? monotonicMs,
    createUtilizationSampler(monotonicMs),
  );
  // An endpoint that was failing when the last server stopped starts backed off, as it was.
  for (const campaignId of restoreEndpointBackoffs(ctx, deliveries)) {
    ctx.log.warn({
      message: `the webhook endpoint of campaign ${campaignId} was failing when the last server stopped: it starts backed off, one attempt at a time once its cool-down ends`,
      campaign_id: campaignId,
    });
  }
  return {
    ctx,
    writer: createInlineWriter(ctx, { groupCommit, readAhead: readsAhead(ctx) }),
    inflight: new Set(),
    tick: { startedAt: ctx.clock.now(), lastTickAt: null, lastError: null },
    deliveries,
    wal: createWalWatch(ctx.config, ctx.clock, ctx.log, runPassiveCheckpoint),
    // Prizes past their 180 days are prescribed as the days pass, with winner.updated, not only when someone looks.
    // An anonymisation's erasure that waited for a reader is completed once the reader has ended.
    chores: [pruneSignInLinks, (ctx) => prescribeDue(ctx), retryPendingErasures],
    integrity: { state: 'not_needed', reason: null },
  };
}
