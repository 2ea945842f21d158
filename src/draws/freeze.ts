// The freeze: the numbers eligible at the draw's cut-off, read in one snapshot on a read-only
// connection of its own, so that the writer (intake, the tick) never waits for it and what it
// reads cannot change while it reads. Reading 20 million numbers takes seconds: the scan gives
// the event loop back every few milliseconds, so a freeze started from the dashboard does not
// stall the server's requests.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { monotonicMs } from '../clock.ts';
import type { Ctx } from '../context.ts';
import { openDatabase, type Db } from '../db/open.ts';
import { AppError } from '../errors.ts';
import { iterateEligibleNumbers, saveFrozenSet, type DrawRow } from './draws.repo.ts';
import { ELEMENTS_PER_SERIES } from './formation.ts';
import { canonicalChunks, NumberSet } from './number-set.ts';
import { createHash } from 'node:crypto';

/**
 * How long the scan keeps the event loop before it gives it back, in ms. By time, not by rows: a
 * row costs from under 1 µs to tens of µs with the machine's load and the file's cache, and 4,096
 * rows at a time held a busy server's loop for 40 ms a slice, its intake p99 sixteen times idle.
 */
const SLICE_MS = 5;
/** Rows between two looks at the time. */
const ROWS_PER_CHECK = 256;

export interface FrozenSet {
  set: NumberSet;
  count: number;
  sha256: string;
  /** Stores the set on ctx.db; call inside a transaction. False when the draw was frozen meanwhile. */
  save(): boolean;
}

export async function freezeDrawSet(ctx: Ctx, row: DrawRow): Promise<FrozenSet> {
  const set = new NumberSet(row.series_count);
  const path = ctx.db.name;
  const own: Db | null = ctx.db.memory ? null : openDatabase(path, { readonly: true });
  const db = own ?? ctx.db;
  try {
    // One read transaction: every slice of the scan sees the database as it was at its first read.
    if (own) own.exec('BEGIN');
    let rows = 0;
    let sliceStarted = monotonicMs();
    for (const n of iterateEligibleNumbers(db, row.campaign_id, row.livemode, row.cutoff)) {
      const series = Math.floor(n / ELEMENTS_PER_SERIES);
      const element = n - series * ELEMENTS_PER_SERIES;
      if (series >= row.series_count)
        throw new AppError(
          409,
          'lucky_number_outside_series',
          `Lucky number ${series}/${element} lies outside the draw's ${row.series_count} series: the campaign's series count changed after numbers were given.`,
        );
      set.add(series, element);
      if (own && ++rows % ROWS_PER_CHECK === 0 && monotonicMs() - sliceStarted >= SLICE_MS) {
        await yieldToEventLoop();
        sliceStarted = monotonicMs();
      }
    }
    if (own) own.exec('COMMIT');
  } finally {
    own?.close();
  }
  const hash = createHash('sha256');
  for (const chunk of canonicalChunks(set)) {
    hash.update(chunk);
    if (own) await yieldToEventLoop();
  }
  const sha256 = hash.digest('hex');
  const frozenAt = new Date(ctx.clock.now()).toISOString();
  return {
    set,
    count: set.count,
    sha256,
    save: () => saveFrozenSet(ctx.db, row.id, set.encode(), { eligible_count: set.count, numbers_sha256: sha256, frozen_at: frozenAt }),
  };
}
