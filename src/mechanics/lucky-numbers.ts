// Lucky numbers (docs/api.md#mechanics-lucky-numbers-and-instant-prizes).
// Automatic: pairs drawn uniformly among the free pairs of the campaign and mode with a lazy
// Fisher-Yates shuffle stored in lucky_pools/lucky_pool_swaps, so a draw costs O(1) SQL statements
// at any fill. Manual: the integrator submits exactly `quantity` pairs once; the primary key of
// lucky_numbers, not a prior check, decides whether a pair is free.
//
// Pairs held outside the pool (manual numbers from before a switch to auto, pairs kept from before
// series_count was lowered) are skipped when drawn, once each for good. On a nearly full campaign
// that can be millions of skips before one free pair comes up, so the skips (and the rebuild of a
// pool after series_count was lowered) are spent from a budget per transaction: when it runs out,
// the work done so far is kept, the pairs drawn for the entry go back into the pool, and the
// evaluation is deferred to a later transaction (the pipeline's next chunk), so jobs of other
// campaigns, HTTP requests and a shutdown are never held behind the walk.
import { monotonicMs } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { PAIRS_PER_SERIES } from './lucky-pairs.ts';
import {
  deleteLuckyNumbersOfEntry,
  deleteLuckyPoolSwaps,
  deleteSwap,
  findLuckyPool,
  findSwap,
  insertLuckyNumberIfFree,
  insertLuckyPool,
  listLuckyNumbersForEntry,
  updateLuckyPool,
  upsertSwap,
  type LuckyPoolRow,
} from './lucky-numbers.repo.ts';

interface Pair {
  series: number;
  order_number: number;
}

/**
 * Skips of held pairs and deletions of an old pool's swaps one transaction may make: some ms of
 * SQL, an event-loop turn of the order of an intake batch. Shared by every allocation of the
 * transaction (the pipeline hands one to each chunk of jobs).
 */
const STEPS_PER_TRANSACTION = 500;

/**
 * And the time a transaction may spend skipping. A skip is a lookup in lucky_numbers: microseconds
 * from the page cache, but a disk read when the file is not in memory, and 500 of those stalled
 * the event loop for 680 ms on a 25 GB file (the bench's work at size). At least one skip is made
 * per transaction, so the walk always moves on.
 */
const SKIP_MS_PER_TRANSACTION = 20;

/** What is left of a transaction's steps and time; see STEPS_PER_TRANSACTION. */
export interface StepBudget {
  left: number;
  /** monotonicMs() past which no further skip is made. */
  until: number;
}

export const newStepBudget = (): StepBudget => ({ left: STEPS_PER_TRANSACTION, until: monotonicMs() + SKIP_MS_PER_TRANSACTION });

type AllocationResult = { ok: true; pairs: Pair[] } | { ok: false; available: number } | { ok: false; deferred: true };

const DEFERRED = { ok: false, deferred: true } as const;

/**
 * Allocates `quantity` pairs to the entry, all or nothing. Must run inside a transaction (the
 * evaluation job's). When the pool runs out, or `steps` does first (deferred: call again in a later
 * transaction), the pairs drawn for the entry go back into the pool and the skips made are kept.
 * An entry that already holds numbers gets them back unchanged (a re-run evaluation never draws
 * twice).
 */
export function allocateLuckyNumbers(
  ctx: Ctx,
  input: { campaignId: string; livemode: number; seriesCount: number; entryId: string; quantity: number; now: string },
  steps: StepBudget = newStepBudget(),
): AllocationResult {
  const held = listLuckyNumbersForEntry(ctx.db, input.entryId);
  if (held.length > 0) return { ok: true, pairs: held };
  return ctx.db.transaction((): AllocationResult => {
    const pool = loadPool(ctx, input.campaignId, input.livemode, input.seriesCount, steps);
    if (pool === null) return DEFERRED;
    const out: Pair[] = [];
    while (out.length < input.quantity) {
      const value = drawValue(ctx, pool);
      if (value === null) {
        giveBack(ctx, pool, input.entryId, out);
        return { ok: false, available: out.length };
      }
      const pair = { series: Math.floor(value / PAIRS_PER_SERIES), order_number: value % PAIRS_PER_SERIES };
      // A pair taken outside the pool (manual numbers from an earlier manual phase, or a pair
      // kept from before a series_count change) is skipped; it has left the pool for good, so
      // the skips over a campaign's life add up to at most the number of such pairs.
      const free =
        pair.series < input.seriesCount &&
        insertLuckyNumberIfFree(ctx.db, {
          campaign_id: input.campaignId,
          livemode: input.livemode,
          series: pair.series,
          order_number: pair.order_number,
          entry_id: input.entryId,
          source: 'auto',
          created_at: input.now,
        });
      if (free) out.push(pair);
      else if (--steps.left < 0 || monotonicMs() > steps.until) {
        giveBack(ctx, pool, input.entryId, out);
        return DEFERRED;
      }
    }
    updateLuckyPool(ctx.db, pool);
    return { ok: true, pairs: out };
  })();
}

/**
 * Undoes the draws of `pairs` (free pairs this allocation drew for the entry), last first: each goes
 * back just in front of the boundary, which is undrawn again, so the pool holds exactly the values
 * it held before them and later draws stay uniform. The skips drawn meanwhile stay drawn.
 */
function giveBack(ctx: Ctx, pool: LuckyPoolRow, entryId: string, pairs: Pair[]): void {
  if (pairs.length > 0) deleteLuckyNumbersOfEntry(ctx.db, entryId);
  for (let i = pairs.length - 1; i >= 0; i--) {
    pool.drawn -= 1;
    // Position `drawn` lost its swap row when it was drawn: it reads as itself unless set here.
    const value = pairs[i].series * PAIRS_PER_SERIES + pairs[i].order_number;
    if (value !== pool.drawn) upsertSwap(ctx.db, pool.campaign_id, pool.livemode, pool.drawn, value);
  }
  updateLuckyPool(ctx.db, pool);
}

/**
 * The pool of the campaign and mode, created on first use. Its size follows series_count: a larger
 * count just extends the unshuffled tail (the lazy shuffle stays uniform over the undrawn values);
 * a smaller count rebuilds the pool from scratch, and pairs already held are skipped when drawn.
 * A rebuild deletes the old pool's swaps within `steps`, over as many transactions as it takes,
 * with size 0 marking the pool meanwhile; null while it is not done (the allocation is deferred).
 */
function loadPool(ctx: Ctx, campaignId: string, livemode: number, seriesCount: number, steps: StepBudget): LuckyPoolRow | null {
  const size = seriesCount * PAIRS_PER_SERIES;
  const pool = findLuckyPool(ctx.db, campaignId, livemode);
  if (!pool) {
    const created = { campaign_id: campaignId, livemode, size, drawn: 0 };
    insertLuckyPool(ctx.db, created);
    return created;
  }
  if (pool.size !== 0 && size >= pool.size) {
    pool.size = size;
    return pool;
  }
  // Rebuilding: none of the old swaps may be read by the new pool.
  pool.size = 0;
  pool.drawn = 0;
  const limit = Math.max(0, steps.left);
  const deleted = limit > 0 ? deleteLuckyPoolSwaps(ctx.db, campaignId, livemode, limit) : 0;
  steps.left -= deleted;
  if (limit === 0 || deleted === limit) {
    updateLuckyPool(ctx.db, pool);
    return null;
  }
  pool.size = size;
  return pool;
}

/**
 * One step of the lazy Fisher-Yates shuffle: picks a uniform position among the undrawn ones,
 * returns the value there and moves the value at the boundary into its place. null when empty.
 */
function drawValue(ctx: Ctx, pool: LuckyPoolRow): number | null {
  if (pool.drawn >= pool.size) return null;
  const { campaign_id: c, livemode: m, drawn } = pool;
  const r = drawn + ctx.random.int(pool.size - drawn);
  const value = findSwap(ctx.db, c, m, r) ?? r;
  if (r !== drawn) upsertSwap(ctx.db, c, m, r, findSwap(ctx.db, c, m, drawn) ?? drawn);
  // Position `drawn` is now behind the boundary and never read again.
  deleteSwap(ctx.db, c, m, drawn);
  pool.drawn = drawn + 1;
  return value;
}
