// A frozen draw's eligible numbers as stored (draw_numbers): read back and checked against their
// SHA-256 before they decide anything, and written out as the canonical list that SHA-256 is of,
// or as the holders list (holders.ts) with the holder indexes the freeze stored beside them.
import { createHash } from 'node:crypto';
import { AppError } from '../kernel/errors.ts';
import type { Ctx } from '../kernel/context.ts';
import { findNumberHolder, listFrozenHolders, listFrozenSeries, type DrawRow } from './draws.repo.ts';
import { decodeHolderRuns, holdersSeriesChunks } from './holders.ts';
import { findDraw } from './model.ts';
import { canonicalChunks, canonicalPrefix, canonicalSha256, LINES_PER_CHUNK, NumberSet } from './number-set.ts';
import { canonicalSha256OnThread } from './scan-thread.ts';
import { assertFrozen } from './status.ts';
import type { DrawNumber, Holder } from './winners.ts';

/** The frozen set, checked against its SHA-256: a set that changed in storage never decides a draw. */
export function loadFrozenSet(ctx: Ctx, row: DrawRow): NumberSet {
  const set = NumberSet.decode(row.series_count, listFrozenSeries(ctx.db, row.id));
  return checkedFrozenSet(set, canonicalSha256(set), row);
}

/**
 * loadFrozenSet with the SHA-256 computed on a thread when the database is a file: for a run, which
 * the dashboard starts on the server, 20 million numbers are a second or two of hashing.
 */
export async function loadFrozenSetOffLoop(ctx: Ctx, row: DrawRow): Promise<NumberSet> {
  const set = NumberSet.decode(row.series_count, listFrozenSeries(ctx.db, row.id));
  return checkedFrozenSet(set, ctx.db.memory ? canonicalSha256(set) : await canonicalSha256OnThread(set), row);
}

function checkedFrozenSet(set: NumberSet, sha256: string, row: DrawRow): NumberSet {
  if (set.count !== row.eligible_count || sha256 !== row.numbers_sha256)
    throw new AppError(
      409,
      'draw_numbers_damaged',
      `The draw's frozen numbers no longer match their SHA-256 ${row.numbers_sha256}: restore the database from a backup.`,
    );
  return set;
}

/** Who holds a number of the draw's frozen set: every one of them has a holder. */
export function holderLookup(ctx: Ctx, row: DrawRow): (n: DrawNumber) => Holder {
  return (n) => {
    const holder = findNumberHolder(ctx.db, row.campaign_id, row.livemode, n.series, n.element);
    if (holder === undefined) throw new Error(`lucky number ${n.series}/${n.element} of draw ${row.id} has no holder`);
    return holder;
  };
}

/** The frozen canonical list (docs/operations.md#the-steps), in chunks: what numbers_sha256 is the SHA-256 of. */
export function frozenNumbersText(ctx: Ctx, id: string): Generator<Buffer> {
  const row = findDraw(ctx, id);
  assertFrozen(row.status);
  return canonicalChunks(loadFrozenSet(ctx, row));
}

/**
 * The frozen holders list (holders.ts), in chunks: `S/EEEEE;H` a line, H as the freeze numbered
 * the holders, whatever happened to the participants since. Checked against holders_sha256 first:
 * a list that changed in storage is never handed out as the draw's.
 */
export function frozenHoldersText(ctx: Ctx, id: string): Generator<Buffer> {
  const row = findDraw(ctx, id);
  assertFrozen(row.status);
  const set = loadFrozenSet(ctx, row);
  const stored = listFrozenHolders(ctx.db, row.id);
  if (row.holders_sha256 === null || stored.some((s) => s.holders === null))
    throw new AppError(
      409,
      'draw_holders_not_recorded',
      'This draw was frozen before ces recorded who holds each number: its holders list does not exist.',
    );
  const series = stored.map((s) => ({ series: s.series, indexes: decodeHolderRuns(s.holders!, s.count, s.series) }));
  const hash = createHash('sha256');
  for (const chunk of holdersChunks(set, series)) hash.update(chunk);
  if (hash.digest('hex') !== row.holders_sha256)
    throw new AppError(
      409,
      'draw_numbers_damaged',
      `The draw's frozen holders no longer match their SHA-256 ${row.holders_sha256}: restore the database from a backup.`,
    );
  return holdersChunks(set, series);
}

function* holdersChunks(set: NumberSet, series: Array<{ series: number; indexes: Uint32Array }>): Generator<Buffer> {
  for (const { series: s, indexes } of series) {
    const bits = set.bitmapOf(s);
    if (bits === undefined) throw new Error(`series ${s} has holders but no numbers`);
    const prefix = Buffer.from(canonicalPrefix(s, set.seriesCount), 'latin1');
    for (const chunk of holdersSeriesChunks(prefix, bits, indexes, LINES_PER_CHUNK))
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}
