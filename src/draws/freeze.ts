// The freeze: the numbers eligible at the draw's cut-off, read in one snapshot, so that what it
// reads cannot change while it reads, and the writer (intake, the tick) never waits for it. From a
// file, the scan, the canonical list's SHA-256 and the encoding of the set as draw_numbers stores
// it run on a thread of their own, at the lowest priority, with their own read-only connection
// (scan-thread.ts): 20 million numbers are seconds of CPU that a freeze started from the dashboard
// would otherwise take from the server's event loop, which is left the save of a few hundred KB.
import type { Ctx } from '../kernel/context.ts';
import type { Db } from '../db/open.ts';
import { AppError } from '../kernel/errors.ts';
import { iterateEligibleNumbers, saveFrozenSet, type DrawRow, type EligibleNumbersParams } from './draws.repo.ts';
import { ELEMENTS_PER_SERIES } from './formation.ts';
import { canonicalSha256, NumberSet, type EncodedSeries } from './number-set.ts';
import { scanEligibleNumbersOnThread } from './scan-thread.ts';

export interface FrozenSet {
  count: number;
  sha256: string;
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
  const { parts, count, sha256 } = ctx.db.memory
    ? hereEncoded(scanHere(ctx.db, params, row.series_count))
    : await scanOnThread(ctx.db.name, params, row.series_count, ctx.config.checkpoints === 'internal');
  const frozenAt = new Date(ctx.clock.now()).toISOString();
  return {
    count,
    sha256,
    // The parts are encoded already: the write lock is held for the inserts alone.
    save: () => saveFrozenSet(ctx.db, row.id, parts, { eligible_count: count, numbers_sha256: sha256, frozen_at: frozenAt, ...record }),
  };
}

interface Scanned {
  parts: EncodedSeries[];
  count: number;
  sha256: string;
}

async function scanOnThread(path: string, params: EligibleNumbersParams, seriesCount: number, checkpointAfter: boolean): Promise<Scanned> {
  const { parts, count, outside, sha256 } = await scanEligibleNumbersOnThread(path, params, seriesCount, checkpointAfter);
  if (outside !== null) throw outsideSeries(outside, seriesCount);
  return { parts, count, sha256 };
}

function hereEncoded(set: NumberSet): Scanned {
  return { parts: set.encode(), count: set.count, sha256: canonicalSha256(set) };
}

/** An in-memory database (tests) has no file another connection could open: scanned on the caller's connection. */
function scanHere(db: Db, params: EligibleNumbersParams, seriesCount: number): NumberSet {
  const set = new NumberSet(seriesCount);
  for (const n of iterateEligibleNumbers(db, params)) {
    if (n >= seriesCount * ELEMENTS_PER_SERIES) throw outsideSeries(n, seriesCount);
    set.add(Math.floor(n / ELEMENTS_PER_SERIES), n % ELEMENTS_PER_SERIES);
  }
  return set;
}

function outsideSeries(n: number, seriesCount: number): AppError {
  const series = Math.floor(n / ELEMENTS_PER_SERIES);
  return new AppError(
    409,
    'lucky_number_outside_series',
    `Lucky number ${series}/${n % ELEMENTS_PER_SERIES} lies outside the draw's ${seriesCount} series: the campaign's series count changed after numbers were given.`,
  );
}
