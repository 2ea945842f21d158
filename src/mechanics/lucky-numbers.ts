// Lucky numbers (docs/api.md#mechanics-lucky-numbers-and-instant-prizes).
// Automatic: pairs drawn uniformly among the free pairs of the campaign and mode with a lazy
// Fisher-Yates shuffle stored in lucky_pools/lucky_pool_swaps, so a draw costs O(1) SQL statements
// at any fill. Manual: the integrator submits exactly `quantity` pairs once; the primary key of
// lucky_numbers, not a prior check, decides whether a pair is free.
import type { Ctx } from '../kernel/context.ts';
import { PAIRS_PER_SERIES } from './lucky-pairs.ts';
import {
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

/** Thrown inside the allocation savepoint to undo a partial allocation. */
class PoolExhausted extends Error {
  readonly available: number;
  constructor(available: number) {
    super('lucky-number pool exhausted');
    this.available = available;
  }
}

type AllocationResult = { ok: true; pairs: Pair[] } | { ok: false; available: number };

/**
 * Allocates `quantity` pairs to the entry, all or nothing. Must run inside a transaction (the
 * evaluation job's); the draws happen in a savepoint so that a pool that runs out mid-way leaves
 * no partial allocation behind. An entry that already holds numbers gets them back unchanged (a
 * re-run evaluation never draws twice).
 */
export function allocateLuckyNumbers(
  ctx: Ctx,
  input: { campaignId: string; livemode: number; seriesCount: number; entryId: string; quantity: number; now: string },
): AllocationResult {
  const held = listLuckyNumbersForEntry(ctx.db, input.entryId);
  if (held.length > 0) return { ok: true, pairs: held };
  try {
    const pairs = ctx.db.transaction(() => {
      const pool = loadPool(ctx, input.campaignId, input.livemode, input.seriesCount);
      const out: Pair[] = [];
      while (out.length < input.quantity) {
        const value = drawValue(ctx, pool);
        if (value === null) throw new PoolExhausted(out.length);
        const pair = { series: Math.floor(value / PAIRS_PER_SERIES), order_number: value % PAIRS_PER_SERIES };
        // A pair taken outside the pool (manual numbers from an earlier manual phase, or a pair
        // kept from before a series_count change) is skipped; it has left the pool for good, so
        // the skips over a campaign's life add up to at most the number of such pairs.
        if (pair.series >= input.seriesCount) continue;
        const free = insertLuckyNumberIfFree(ctx.db, {
          campaign_id: input.campaignId,
          livemode: input.livemode,
          series: pair.series,
          order_number: pair.order_number,
          entry_id: input.entryId,
          source: 'auto',
          created_at: input.now,
        });
        if (free) out.push(pair);
      }
      updateLuckyPool(ctx.db, pool);
      return out;
    })();
    return { ok: true, pairs };
  } catch (error) {
    if (error instanceof PoolExhausted) return { ok: false, available: error.available };
    throw error;
  }
}

/**
 * The pool of the campaign and mode, created on first use. Its size follows series_count: a larger
 * count just extends the unshuffled tail (the lazy shuffle stays uniform over the undrawn values);
 * a smaller count rebuilds the pool from scratch, and pairs already held are skipped when drawn.
 */
function loadPool(ctx: Ctx, campaignId: string, livemode: number, seriesCount: number): LuckyPoolRow {
  const size = seriesCount * PAIRS_PER_SERIES;
  const pool = findLuckyPool(ctx.db, campaignId, livemode);
  if (!pool) {
    const created = { campaign_id: campaignId, livemode, size, drawn: 0 };
    insertLuckyPool(ctx.db, created);
    return created;
  }
  if (size > pool.size) pool.size = size;
  else if (size < pool.size) {
    deleteLuckyPoolSwaps(ctx.db, campaignId, livemode);
    pool.size = size;
    pool.drawn = 0;
  }
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
