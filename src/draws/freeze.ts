// The freeze: the numbers eligible at the draw's cut-off, read in one snapshot, so that what it
// reads cannot change while it reads, and the writer (intake, the tick) never waits for it. From a
// file, the scan, the canonical list's SHA-256 and the encoding of the set as draw_numbers stores
// it run on a thread of their own, at the lowest priority, with their own read-only connection
// (scan-thread.ts): 20 million numbers are seconds of CPU that a freeze started from the dashboard
// would otherwise take from the server's event loop, which is left the save of a few hundred KB.
import type { Ctx } from '../kernel/context.ts';
import type { Db } from '../db/open.ts';
import { AppError } from '../kernel/errors.ts';
import { createHash } from 'node:crypto';
import { iterateEligibleHoldings, saveFrozenSet, type DrawRow, type EligibleNumbersParams } from './draws.repo.ts';
import { ELEMENTS_PER_SERIES } from './formation.ts';
import { addHeld, encodeHolderRuns, holdersSeriesChunks, indexHolders, keysInOrder, type HeldSeries } from './holders.ts';
import { canonicalPrefix, canonicalSeriesChunks, encodeBitmap, LINES_PER_CHUNK, type EncodedSeries } from './number-set.ts';
import { scanEligibleNumbersOnThread } from './scan-thread.ts';
import { holdLongRead } from '../db/long-reads.ts';

interface FrozenSet {
  count: number;
  sha256: string;
  holdersSha256: string;
  /** Stores the set on ctx.db; call inside a transaction. False when the draw was frozen meanwhile. */
  save(): boolean;
}

/** Who froze the draw (an audit actor) and what was pending then: stored with the set. */
interface FreezeRecord {
  frozen_by: string;
  pending_at_freeze: number;
  freeze_reason: string | null;
}

export async function freezeDrawSet(ctx: Ctx, row: DrawRow, record: FreezeRecord): Promise<FrozenSet> {
  const params = { campaign_id: row.campaign_id, livemode: row.livemode, cutoff: row.cutoff };
  const { parts, count, sha256, holders, holdersSha256 } = ctx.db.memory
    ? scanHere(ctx.db, params, row.series_count)
    : await scanOnThread(ctx.db.name, params, row.series_count, ctx.config.checkpoints === 'internal', row.id);
  const frozenAt = new Date(ctx.clock.now()).toISOString();
  return {
    count,
    sha256,
    holdersSha256,
    // The parts are encoded already: the write lock is held for the inserts alone.
    save: () =>
      saveFrozenSet(ctx.db, row.id, parts, holders, {
        eligible_count: count,
        numbers_sha256: sha256,
        holders_sha256: holdersSha256,
        frozen_at: frozenAt,
        ...record,
      }),
  };
}

interface Scanned {
  parts: EncodedSeries[];
  count: number;
  sha256: string;
  holders: Uint8Array[];
  holdersSha256: string;
}

async function scanOnThread(
  path: string,
  params: EligibleNumbersParams,
  seriesCount: number,
  checkpointAfter: boolean,
  drawId: string,
): Promise<Scanned> {
  // The scan holds a read snapshot for its whole run: an anonymisation's erasure waits for it and names it.
  const release = holdLongRead(path, `draw freeze (draw ${drawId}, this process)`);
  try {
    const { outside, ...scanned } = await scanEligibleNumbersOnThread(path, params, seriesCount, checkpointAfter);
    if (outside !== null) throw outsideSeries(outside, seriesCount);
    return scanned;
  } finally {
    release();
  }
}

/** An in-memory database (tests) has no file another connection could open: scanned on the caller's connection. */
function scanHere(db: Db, params: EligibleNumbersParams, seriesCount: number): Scanned {
  const bySeries = new Map<number, HeldSeries>();
  let minKey = Infinity;
  let maxKey = 0;
  for (const [n, key] of iterateEligibleHoldings(db, params)) {
    if (n >= seriesCount * ELEMENTS_PER_SERIES) throw outsideSeries(n, seriesCount);
    const series = Math.floor(n / ELEMENTS_PER_SERIES);
    let s = bySeries.get(series);
    if (s === undefined) {
      s = { series, count: 0, data: new Uint8Array(ELEMENTS_PER_SERIES / 8), dense: null, els: null, keys: null, len: 0 };
      bySeries.set(series, s);
    }
    const e = n % ELEMENTS_PER_SERIES;
    if ((s.data[e >> 3]! & (1 << (e & 7))) !== 0) continue;
    s.data[e >> 3]! |= 1 << (e & 7);
    s.count++;
    addHeld(s, e, key, ELEMENTS_PER_SERIES);
    minKey = Math.min(minKey, key);
    maxKey = Math.max(maxKey, key);
  }
  return encodeHeld(
    [...bySeries.values()].sort((a, b) => a.series - b.series),
    minKey,
    maxKey,
    seriesCount,
  );
}

/**
 * Series of numbers and their holders' keys, ascending, as the freeze stores them, with both
 * SHA-256: what the scan thread does after its read, on the caller's thread. Also how a test
 * builds a frozen set's holders list from numbers it made up.
 */
export function encodeHeld(series: HeldSeries[], minKey: number, maxKey: number, seriesCount: number): Scanned {
  const numbersHash = createHash('sha256');
  const holdersHash = createHash('sha256');
  const indexOf = new Uint32Array(series.length === 0 ? 0 : maxKey - minKey + 1);
  const state = { next: 0 };
  const holders: Uint8Array[] = [];
  let count = 0;
  const parts = series.map((s): EncodedSeries => {
    const prefix = Buffer.from(canonicalPrefix(s.series, seriesCount), 'latin1');
    for (const chunk of canonicalSeriesChunks(prefix, s.data, LINES_PER_CHUNK)) numbersHash.update(chunk);
    const indexes = indexHolders(keysInOrder(s), indexOf, minKey, state);
    for (const chunk of holdersSeriesChunks(prefix, s.data, indexes, LINES_PER_CHUNK)) holdersHash.update(chunk);
    holders.push(encodeHolderRuns(indexes));
    count += s.count;
    return { series: s.series, ...encodeBitmap(s.data) };
  });
  return { parts, count, sha256: numbersHash.digest('hex'), holders, holdersSha256: holdersHash.digest('hex') };
}

function outsideSeries(n: number, seriesCount: number): AppError {
  const series = Math.floor(n / ELEMENTS_PER_SERIES);
  return new AppError(
    409,
    'lucky_number_outside_series',
    `Lucky number ${series}/${n % ELEMENTS_PER_SERIES} lies outside the draw's ${seriesCount} series: the campaign's series count changed after numbers were given.`,
  );
}
