// The running service's state, shared by the HTTP app and the background tick: the context, the
// intake committer, the set of Idempotency-Keys whose requests are being read right now, and when
// the tick last ran.
import type { Ctx } from './context.ts';
import { createDirectCommitter, createGroupCommitter, type Committer } from './entries/committer.ts';

export interface Service {
  ctx: Ctx;
  committer: Committer;
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
    committer: options.groupCommit === false ? createDirectCommitter(ctx.db) : createGroupCommitter(ctx.db),
    inflight: new Set(),
    tick: { startedAt: ctx.clock.now(), lastTickAt: null },
  };
}
