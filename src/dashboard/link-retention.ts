// How long a one-time sign-in link is kept. A link signs in once and for at most a day
// (MAX_LINK_TTL_MINUTES); after that its row only lets a second click say "used" or "expired"
// rather than "unknown". A week past its expiry it is deleted by the tick, used or not: the audit
// log keeps who made it and who signed in with it (dashboard.link_created, dashboard.signed_in).
import { toIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { deleteLinksExpiredBefore, hasLinksExpiredBefore } from './sessions.repo.ts';

export const LINK_RETENTION_DAYS = 7;

const DAY_MS = 24 * 3600 * 1000;

/** Deletes the sign-in links that expired more than LINK_RETENTION_DAYS ago; how many. */
export function pruneSignInLinks(ctx: Ctx): number {
  const before = toIso(ctx.clock.now() - LINK_RETENTION_DAYS * DAY_MS);
  // Looked up first without the write lock: on most ticks there is nothing to delete.
  if (!hasLinksExpiredBefore(ctx.db, before)) return 0;
  return ctx.db.transaction(() => deleteLinksExpiredBefore(ctx.db, before)).immediate();
}
