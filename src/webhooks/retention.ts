// The outbox's retention rule: delivered and skipped events, with their attempt records, are
// deleted once they settled more than CES_RETENTION_DAYS ago (0 keeps them for ever). Pending and
// failed events stay, whatever their age: one is still to be sent, the other may be redelivered.
// Entries, awards, lucky numbers, consents and the audit log are never pruned. The tick prunes a
// small batch at a time, so a first run on an old database spreads over many ticks. A webhook
// secret replaced with a grace period is forgotten once the grace has ended: it signs nothing more.
import { toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { hasSettledDeliveriesBefore, pruneSettledDeliveries } from './outbox.repo.ts';
import { clearExpiredPreviousSecrets, hasExpiredPreviousSecret } from './webhook-config.repo.ts';

/** Events deleted per tick at most: a few ms of work, thousands per second at the default tick. */
const PRUNE_BATCH = 200;

const DAY_MS = 24 * 3600 * 1000;

/** Deletes one batch of events past retention; how many. */
export function pruneOutbox(ctx: Ctx, limit = PRUNE_BATCH): number {
  if (ctx.config.retentionDays === 0) return 0;
  const before = toIso(ctx.clock.now() - ctx.config.retentionDays * DAY_MS);
  // Looked up first without the write lock: on most ticks there is nothing to delete.
  if (!hasSettledDeliveriesBefore(ctx.db, before)) return 0;
  return ctx.db.transaction(() => pruneSettledDeliveries(ctx.db, before, limit)).immediate();
}

/** Forgets the replaced webhook secrets whose grace period has ended; how many. */
export function forgetExpiredSecrets(ctx: Ctx): number {
  const now = toIso(ctx.clock.now());
  if (!hasExpiredPreviousSecret(ctx.db, now)) return 0;
  return ctx.db.transaction(() => clearExpiredPreviousSecrets(ctx.db, now)).immediate();
}
