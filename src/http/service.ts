// The running service's state, shared by the HTTP app and the background tick: the context, the
// intake writer, the set of Idempotency-Keys whose requests are being read right now, and when
// the tick last ran.
import type { Ctx } from '../context.ts';
import { createInlineWriter, type EntryWriter } from '../intake/entry-writer.ts';
import { monotonicMs } from '../clock.ts';
import type { TickState } from '../pipeline/tick.ts';
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
}

export interface ServiceOptions {
  /** One transaction per request instead of group commit (the comparison the bench and tests make). */
  groupCommit?: boolean;
  /** The delivery scheduler's monotonic clock in ms (cool-downs of a failing endpoint); tests move one by hand. */
  deliveryClock?: () => number;
}

export function createService(ctx: Ctx, options: ServiceOptions = {}): Service {
  const groupCommit = options.groupCommit ?? true;
  return {
    ctx,
    writer: createInlineWriter(ctx, { groupCommit }),
    inflight: new Set(),
    tick: { startedAt: ctx.clock.now(), lastTickAt: null, lastError: null },
    deliveries: new DeliveryScheduler(
      schedulerSettings(ctx.config),
      options.deliveryClock ?? monotonicMs,
      createUtilizationSampler(monotonicMs),
    ),
  };
}
