// Figures that would count a large range on every 5 s refresh, kept in memory per database
// connection (two slots of src/db/per-connection.ts). Entries per hour and status over the last 24
// hours (the live chart and "entries today"): one count over a range of entries_campaign_status
// per hour and status; an hour's counts are counted again when the hour is the current one, or
// when they are more than a minute old, so a refreshed page counts the current hour's entries, and
// the whole day once a minute, rather than a launch day's entries on every view. Counts of earlier
// hours change only as pending entries are processed, which the next recount (at most a minute
// later) shows. The lucky-number fill (countedLately) is counted once a minute.
import type { Ctx } from '../kernel/context.ts';
import { perConnection } from '../db/per-connection.ts';
import { toIso } from '../kernel/clock.ts';
import { countEntriesBetween, type Scope } from './figures.repo.ts';

const HOUR_MS = 3_600_000;
/** Counts of a past hour are reused for this long. */
const RECOUNT_AFTER_MS = 60_000;
const STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

export type StatusCounts = Record<(typeof STATUSES)[number], number>;

export interface HourBar extends StatusCounts {
  /** The hour's start (UTC ISO). */
  start: string;
}

interface Counted {
  counts: StatusCounts;
  /** ctx.clock time of the count. */
  at: number;
}

const hours = perConnection('hourly counts', () => new Map<string, Counted>());

/** The 24 hours up to now, oldest first, the current hour last. */
export function lastDayByHour(ctx: Ctx, scope: Scope): HourBar[] {
  const counted = hours(ctx.db);
  const now = ctx.clock.now();
  const first = Math.floor(now / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
  // Forget hours that have left the window.
  for (const [key, value] of counted) if (value.at < now - 25 * HOUR_MS) counted.delete(key);
  return Array.from({ length: 24 }, (_, i) => {
    const from = first + i * HOUR_MS;
    const key = `${scope.campaign_id}|${scope.livemode}|${from}`;
    let hour = counted.get(key);
    // Reused only when counted after the hour ended (nothing more can arrive in it) and recently.
    if (!hour || hour.at < from + HOUR_MS || now - hour.at >= RECOUNT_AFTER_MS) {
      const range = { ...scope, from: toIso(from), to: toIso(from + HOUR_MS) };
      const counts = { PENDING: 0, APPROVED: 0, REJECTED: 0 };
      for (const status of STATUSES) counts[status] = countEntriesBetween(ctx.db, { ...range, status });
      hour = { counts, at: now };
      counted.set(key, hour);
    }
    return { start: toIso(from), ...hour.counts };
  });
}

const slow = perConnection('slow figures', () => new Map<string, { value: number; at: number }>());

/**
 * A figure that takes a count over a campaign's whole history (lucky numbers held: one per entry
 * or more), computed again once it is a minute old rather than on every 5 s refresh.
 */
export function countedLately(ctx: Ctx, key: string, count: () => number): number {
  const values = slow(ctx.db);
  const now = ctx.clock.now();
  const known = values.get(key);
  if (known && now - known.at < RECOUNT_AFTER_MS && now >= known.at) return known.value;
  const value = count();
  values.set(key, { value, at: now });
  return value;
}
