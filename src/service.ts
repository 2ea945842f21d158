// The running service's state, shared by the HTTP app and the background tick: the context, the
// intake committer, and the set of Idempotency-Keys whose requests are being read right now.
import type { Ctx } from './context.ts';
import { createDirectCommitter, createGroupCommitter, type Committer } from './entries/committer.ts';

export interface Service {
  ctx: Ctx;
  committer: Committer;
  inflight: Set<string>;
}

export function createService(ctx: Ctx, options: { groupCommit?: boolean } = {}): Service {
  return {
    ctx,
    committer: options.groupCommit === false ? createDirectCommitter(ctx.db) : createGroupCommitter(ctx.db),
    inflight: new Set(),
  };
}
