// The running service's state, shared by the HTTP app and the background tick: the context, the
// intake writer, the set of Idempotency-Keys whose requests are being read right now, and when
// the tick last ran.
import type { Ctx } from './context.ts';
import { createInlineWriter, type EntryWriter } from './entries/writer.ts';

export interface Service {
  ctx: Ctx;
  writer: EntryWriter;
  inflight: Set<string>;
  /** When the background tick last finished (ctx.clock ms), for GET /healthz; set by the ticker. */
  tick: TickState;
}

export interface TickState {
  /** When the service started: the tick is judged from here until its first run. */
  startedAt: number;
  lastTickAt: number | null;
}

export function createService(ctx: Ctx, options: { groupCommit?: boolean } = {}): Service {
  return {
    ctx,
    writer: createInlineWriter(ctx, { groupCommit: options.groupCommit ?? true }),
    inflight: new Set(),
    tick: { startedAt: ctx.clock.now(), lastTickAt: null },
  };
}
