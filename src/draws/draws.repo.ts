// SQL of draws, their frozen sets and their winners, and the two reads a draw makes of the rest
// of the database: the eligible numbers at the cut-off (the freeze) and the holder of a number.
import type { Db } from '../db/open.ts';
import { prepare } from '../db/statements.ts';
import type { EncodedSeries } from './number-set.ts';
import type { DrawStatus } from './status.ts';
import type { Approximation, EmptySeriesRule } from './winners.ts';

export interface DrawRow {
  id: string;
  campaign_id: string;
  livemode: number;
  name: string;
  cutoff: string;
  extraction_date: string | null;
  status: DrawStatus;
  winners_count: number;
  series_count: number;
  series_digits: string;
  element_digits: string;
  approximation: Approximation;
  one_win_per_document: number;
  eligible_count: number | null;
  numbers_sha256: string | null;
  frozen_at: string | null;
  extraction_number: number | null;
  extraction_held_on: string | null;
  extraction_prizes: string | null;
  extraction_source: 'typed' | 'caixa' | null;
  results_recorded_at: string | null;
  formed: string | null;
  drawn_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** SHA-256 of the holders list, fixed at the freeze (null for a draw frozen before schema 24). */
  holders_sha256: string | null;
  /** SHA-256 of the Markdown record stored at publication (draw_records). */
  record_sha256: string | null;
  /** Where the apuração happens. */
  place: string | null;
  /** JSON array of DrawPrize, one per position; null when none was given. */
  prizes: string | null;
  empty_series: EmptySeriesRule;
  /** Schema 23: who created and froze the draw (audit actors), the freeze's pending count and reason, the voiding. */
  created_by?: string | null;
  frozen_by?: string | null;
  pending_at_freeze?: number | null;
  freeze_reason?: string | null;
  voided_at?: string | null;
  voided_by?: string | null;
  void_reason?: string | null;
}

export interface DrawWinnerRow {
  id: number;
  draw_id: string;
  position: number;
  series: number;
  element: number;
  entry_id: string;
  enrollment_id: string;
  steps: string;
  picked_at: string;
  disqualified_at: string | null;
  disqualified_reason: string | null;
}

export function insertDraw(db: Db, row: DrawRow): void {
  prepare(
    db,
    `INSERT INTO draws (id, campaign_id, livemode, name, cutoff, extraction_date, status, winners_count, series_count, series_digits,
      element_digits, approximation, one_win_per_document, eligible_count, numbers_sha256, frozen_at, extraction_number,
      extraction_held_on, extraction_prizes, extraction_source, results_recorded_at, formed, drawn_at, published_at, created_at, updated_at,
      place, prizes, empty_series)
    VALUES (@id, @campaign_id, @livemode, @name, @cutoff, @extraction_date, @status, @winners_count, @series_count, @series_digits,
      @element_digits, @approximation, @one_win_per_document, @eligible_count, @numbers_sha256, @frozen_at, @extraction_number,
      @extraction_held_on, @extraction_prizes, @extraction_source, @results_recorded_at, @formed, @drawn_at, @published_at, @created_at, @updated_at,
      @place, @prizes, @empty_series)`,
  ).run(row);
}

export function findDrawRow(db: Db, id: string): DrawRow | undefined {
  return prepare<[string], DrawRow>(db, `SELECT * FROM draws WHERE id = ?`).get(id);
}

export function listDrawRows(db: Db, campaignId: string): DrawRow[] {
  return prepare<[string], DrawRow>(db, `SELECT * FROM draws WHERE campaign_id = ? ORDER BY created_at DESC, id DESC`).all(campaignId);
}

/** Records the frozen set; false when the draw was frozen meanwhile (by another process). */
export function saveFrozenSet(
  db: Db,
  drawId: string,
  parts: readonly EncodedSeries[],
  holders: readonly Uint8Array[],
  summary: {
    eligible_count: number;
    numbers_sha256: string;
    holders_sha256: string;
    frozen_at: string;
    frozen_by: string;
    pending_at_freeze: number;
    freeze_reason: string | null;
  },
): boolean {
  const changed = prepare(
    db,
    `UPDATE draws SET status = 'frozen', eligible_count = @eligible_count, numbers_sha256 = @numbers_sha256,
      holders_sha256 = @holders_sha256, frozen_at = @frozen_at, frozen_by = @frozen_by, pending_at_freeze = @pending_at_freeze,
      freeze_reason = @freeze_reason, updated_at = @frozen_at
    WHERE id = @id AND status = 'created'`,
  ).run({ id: drawId, ...summary }).changes;
  if (changed === 0) return false;
  const insert = prepare(db, `INSERT INTO draw_numbers (draw_id, series, encoding, count, data, holders) VALUES (?, ?, ?, ?, ?, ?)`);
  parts.forEach((p, i) => {
    const h = holders[i]!;
    insert.run(
      drawId,
      p.series,
      p.encoding,
      p.count,
      Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength),
      Buffer.from(h.buffer, h.byteOffset, h.byteLength),
    );
  });
  return true;
}

/** Each frozen series' holder runs (src/draws/holders.ts), ascending; null in a draw frozen before schema 24. */
export function listFrozenHolders(db: Db, drawId: string): Array<{ series: number; count: number; holders: Buffer | null }> {
  return prepare<[string], { series: number; count: number; holders: Buffer | null }>(
    db,
    `SELECT series, count, holders FROM draw_numbers WHERE draw_id = ? ORDER BY series`,
  ).all(drawId);
}

export function listFrozenSeries(db: Db, drawId: string): EncodedSeries[] {
  return prepare<[string], { series: number; encoding: EncodedSeries['encoding']; count: number; data: Buffer }>(
    db,
    `SELECT series, encoding, count, data FROM draw_numbers WHERE draw_id = ? ORDER BY series`,
  )
    .all(drawId)
    .map((r) => ({ series: r.series, encoding: r.encoding, count: r.count, data: r.data }));
}

/** Bytes the frozen set takes in draw_numbers (its blobs). */
export function frozenSetBytes(db: Db, drawId: string): number {
  return (
    prepare<[string], { n: number | null }>(db, `SELECT sum(length(data)) AS n FROM draw_numbers WHERE draw_id = ?`).get(drawId)?.n ?? 0
  );
}

export function saveResults(
  db: Db,
  row: Pick<DrawRow, 'id' | 'extraction_number' | 'extraction_held_on' | 'extraction_prizes' | 'extraction_source' | 'results_recorded_at'>,
): boolean {
  return (
    prepare(
      db,
      `UPDATE draws SET extraction_number = @extraction_number, extraction_held_on = @extraction_held_on,
        extraction_prizes = @extraction_prizes, extraction_source = @extraction_source, results_recorded_at = @results_recorded_at,
        updated_at = @results_recorded_at
      WHERE id = @id AND status IN ('created', 'frozen')`,
    ).run(row).changes === 1
  );
}

export function saveRun(db: Db, drawId: string, formed: string, drawnAt: string): boolean {
  return (
    prepare(db, `UPDATE draws SET status = 'drawn', formed = ?, drawn_at = ?, updated_at = ? WHERE id = ? AND status = 'frozen'`).run(
      formed,
      drawnAt,
      drawnAt,
      drawId,
    ).changes === 1
  );
}

export function savePublished(db: Db, drawId: string, at: string): boolean {
  return (
    prepare(db, `UPDATE draws SET status = 'published', published_at = ?, updated_at = ? WHERE id = ? AND status = 'drawn'`).run(
      at,
      at,
      drawId,
    ).changes === 1
  );
}

export function insertWinner(db: Db, row: Omit<DrawWinnerRow, 'id' | 'disqualified_at' | 'disqualified_reason'>): void {
  prepare(
    db,
    `INSERT INTO draw_winners (draw_id, position, series, element, entry_id, enrollment_id, steps, picked_at)
    VALUES (@draw_id, @position, @series, @element, @entry_id, @enrollment_id, @steps, @picked_at)`,
  ).run(row);
}

/** Every winner row of the draw, disqualified ones included, in the order they were picked. */
export function listWinnerRows(db: Db, drawId: string): DrawWinnerRow[] {
  return prepare<[string], DrawWinnerRow>(db, `SELECT * FROM draw_winners WHERE draw_id = ? ORDER BY id`).all(drawId);
}

export function markWinnerDisqualified(db: Db, drawId: string, position: number, reason: string, at: string): boolean {
  return (
    prepare(
      db,
      `UPDATE draw_winners SET disqualified_at = ?, disqualified_reason = ?
      WHERE draw_id = ? AND position = ? AND disqualified_at IS NULL`,
    ).run(at, reason, drawId, position).changes === 1
  );
}

/** Who holds a lucky number: its entry and the entry's participant. Lucky numbers are never deleted or moved. */
export function findNumberHolder(
  db: Db,
  campaignId: string,
  livemode: number,
  series: number,
  element: number,
): { entry_id: string; enrollment_id: string } | undefined {
  return prepare<[string, number, number, number], { entry_id: string; enrollment_id: string }>(
    db,
    `SELECT ln.entry_id, e.enrollment_id FROM lucky_numbers ln JOIN entries e ON e.id = ln.entry_id
    WHERE ln.campaign_id = ? AND ln.livemode = ? AND ln.series = ? AND ln.order_number = ?`,
  ).get(campaignId, livemode, series, element);
}

/**
 * The numbers eligible at the cut-off (docs/operations.md#the-rules-as-ces-applies-them): held by
 * an entry of the campaign and mode that is APPROVED, whose participant is not anonymised,
 * allocated at or before the cut-off. Each number as one integer, series × 100,000 + element (the
 * address NumberSet uses), in no particular order, with its holder (below).
 *
 * Read entry by entry, not number by number: the campaign's approved entries on
 * entries_campaign_status, each one's participant, then its numbers on lucky_numbers_entry. A
 * campaign's numbers are allocated as its entries are evaluated, so both walks go through their
 * tables nearly in file order. Walked in (series, element) order on the primary key instead, each
 * number was a jump to a random page of lucky_numbers, of entries and of enrollments: 11 µs a
 * number at a million, minutes at 20 million once the file outgrows the page cache. CROSS JOIN
 * keeps SQLite to that order, INDEXED BY to that index (it would otherwise search each entry's
 * numbers on the primary key, by campaign and mode only).
 */
const ELIGIBLE_FROM = `FROM entries e
      CROSS JOIN enrollments en ON en.id = e.enrollment_id
      CROSS JOIN lucky_numbers ln INDEXED BY lucky_numbers_entry ON ln.entry_id = e.id
    WHERE e.campaign_id = @campaign_id AND e.livemode = @livemode AND e.status = 'APPROVED' AND en.anonymized_at IS NULL
      AND ln.campaign_id = @campaign_id AND ln.livemode = @livemode AND ln.created_at <= @cutoff`;

/**
 * Each eligible number with its holder (the participant's enrollment rowid: one document, one
 * key), as one integer, key × @span + series × 100,000 + element, @span being @series_count ×
 * 100,000 (a row of two columns costs an array a number); a number in a series at or beyond
 * @series_count as −1 − (series × 100,000 + element), so that it is told apart and named. Used while
 * the largest such integer stays a safe one (holdingsArePacked); ELIGIBLE_HOLDINGS_SQL otherwise.
 */
export const ELIGIBLE_HOLDINGS_PACKED_SQL = `SELECT CASE WHEN ln.series < @series_count
      THEN en.rowid * @span + ln.series * 100000 + ln.order_number
      ELSE -1 - (ln.series * 100000 + ln.order_number) END ${ELIGIBLE_FROM}`;

/** Each eligible number (series × 100,000 + element) and its holder's key, as a row of two. */
export const ELIGIBLE_HOLDINGS_SQL = `SELECT ln.series * 100000 + ln.order_number, en.rowid ${ELIGIBLE_FROM}`;

/** The largest enrollment rowid: what bounds the holder keys of a scan (read in its snapshot). */
export const MAX_HOLDER_KEY_SQL = `SELECT coalesce(max(rowid), 0) FROM enrollments`;

export interface EligibleNumbersParams {
  campaign_id: string;
  livemode: number;
  cutoff: string;
}

/** Whether key × span + n stays a safe integer for every key up to maxKey (n < span). */
export function holdingsArePacked(maxKey: number, span: number): boolean {
  return (maxKey + 1) * span <= Number.MAX_SAFE_INTEGER;
}

/**
 * The eligible numbers and their holders on `db`, as [n, key] rows (freeze.ts runs the same read
 * on a thread of its own when the database is a file).
 */
export function iterateEligibleHoldings(db: Db, params: EligibleNumbersParams): IterableIterator<[number, number]> {
  return prepare<[EligibleNumbersParams], [number, number]>(db, ELIGIBLE_HOLDINGS_SQL).raw(true).iterate(params) as IterableIterator<
    [number, number]
  >;
}

/** What the apuração record shows of a winner: the participant's document and name (masked by the caller). */
export function findEntryParticipant(
  db: Db,
  entryId: string,
): { document_type: string; document_number: string; full_name: string | null; anonymized_at: string | null } | undefined {
  return prepare<[string], { document_type: string; document_number: string; full_name: string | null; anonymized_at: string | null }>(
    db,
    `SELECT en.document_type, en.document_number, en.full_name, en.anonymized_at
    FROM entries e JOIN enrollments en ON en.id = e.enrollment_id WHERE e.id = ?`,
  ).get(entryId);
}

/**
 * The campaign and mode's lucky numbers with their holder's name, in (series, element) order: the
 * participant list (participant-list.ts) keeps those of the frozen set.
 */
export function iterateNumberNames(
  db: Db,
  campaignId: string,
  livemode: number,
): IterableIterator<{ series: number; element: number; full_name: string | null; anonymized_at: string | null }> {
  return prepare<[string, number], { series: number; element: number; full_name: string | null; anonymized_at: string | null }>(
    db,
    `SELECT ln.series, ln.order_number AS element, en.full_name, en.anonymized_at
    FROM lucky_numbers ln JOIN entries e ON e.id = ln.entry_id JOIN enrollments en ON en.id = e.enrollment_id
    WHERE ln.campaign_id = ? AND ln.livemode = ? ORDER BY ln.series, ln.order_number`,
  ).iterate(campaignId, livemode);
}

/** Where a winner lives, as enrolled: city and UF (null once anonymised, or when not given). */
export function findEntryPlace(db: Db, entryId: string): { city: string | null; state: string | null } | undefined {
  return prepare<[string], { city: string | null; state: string | null }>(
    db,
    `SELECT en.city, en.state FROM entries e JOIN enrollments en ON en.id = e.enrollment_id WHERE e.id = ?`,
  ).get(entryId);
}

/** The record a publication stored (md and html bytes), or undefined before publication. */
export function findDrawRecord(db: Db, drawId: string): { md: Buffer; html: Buffer; sha256: string } | undefined {
  return prepare<[string], { md: Buffer; html: Buffer; sha256: string }>(
    db,
    `SELECT md, html, sha256 FROM draw_records WHERE draw_id = ?`,
  ).get(drawId);
}

/** Stores the published record and its SHA-256 on the draw: once, in the publication's transaction. */
export function saveDrawRecord(db: Db, drawId: string, md: Buffer, html: Buffer, sha256: string, at: string): void {
  prepare(db, `INSERT INTO draw_records (draw_id, md, html, sha256, created_at) VALUES (?, ?, ?, ?, ?)`).run(drawId, md, html, sha256, at);
  prepare(db, `UPDATE draws SET record_sha256 = ? WHERE id = ?`).run(sha256, drawId);
}

/** Who created the draw (its audit actor), written in the transaction that inserts it. */
export function saveDrawCreator(db: Db, drawId: string, actor: string): void {
  prepare(db, `UPDATE draws SET created_by = ? WHERE id = ?`).run(actor, drawId);
}

/**
 * Entries of the campaign and mode received at or before the cut-off and still PENDING: the
 * numbers they will hold are not in the freeze. Counted on entries_campaign_status alone
 * (campaign_id, livemode, status, created_at).
 */
export function countPendingEntries(db: Db, params: EligibleNumbersParams): number {
  return prepare<[EligibleNumbersParams], { n: number }>(
    db,
    `SELECT count(*) AS n FROM entries
    WHERE campaign_id = @campaign_id AND livemode = @livemode AND status = 'PENDING' AND created_at <= @cutoff`,
  ).get(params)!.n;
}

/** One recording of an extraction's results for a draw: the first one, or a correction. */
interface DrawResultsRow {
  id: number;
  draw_id: string;
  extraction_number: number;
  held_on: string;
  prizes: string;
  source: 'typed' | 'caixa';
  reason: string | null;
  recorded_by: string | null;
  recorded_at: string;
}

export function insertResultsRecord(db: Db, row: Omit<DrawResultsRow, 'id'>): void {
  prepare(
    db,
    `INSERT INTO draw_results (draw_id, extraction_number, held_on, prizes, source, reason, recorded_by, recorded_at)
    VALUES (@draw_id, @extraction_number, @held_on, @prizes, @source, @reason, @recorded_by, @recorded_at)`,
  ).run(row);
}

/** Every recording of the draw's results, the first one first. */
export function listResultsRecords(db: Db, drawId: string): DrawResultsRow[] {
  return prepare<[string], DrawResultsRow>(db, `SELECT * FROM draw_results WHERE draw_id = ? ORDER BY id`).all(drawId);
}

/** Voids the draw; false when it was published or voided meanwhile. */
export function saveVoided(db: Db, drawId: string, voided: { at: string; by: string; reason: string }): boolean {
  return (
    prepare(
      db,
      `UPDATE draws SET status = 'voided', voided_at = @at, voided_by = @by, void_reason = @reason, updated_at = @at
      WHERE id = @id AND status IN ('created', 'frozen', 'drawn')`,
    ).run({ id: drawId, ...voided }).changes === 1
  );
}

/**
 * A draw of the campaign and mode, not voided and other than `exceptId`, that uses the extraction
 * (its number recorded) or plans it (its date): one extraction decides one draw. A campaign has few
 * draws: they are read on draws_campaign. Not a UNIQUE index: databases from before the rule may
 * hold such pairs, and they stay as they were recorded.
 */
export function findDrawOnExtraction(
  db: Db,
  q: { campaign_id: string; livemode: number; except_id: string; extraction_number?: number; extraction_date?: string },
): Pick<DrawRow, 'id' | 'name'> | undefined {
  return prepare<[object], Pick<DrawRow, 'id' | 'name'>>(
    db,
    `SELECT id, name FROM draws
    WHERE campaign_id = @campaign_id AND livemode = @livemode AND status != 'voided' AND id != @except_id
      AND (extraction_number = @extraction_number OR extraction_date = @extraction_date)
    ORDER BY created_at, id LIMIT 1`,
  ).get({ extraction_number: null, extraction_date: null, ...q });
}

/** The voided draws of the campaign and mode that used the extraction or planned it, oldest first. */
export function listVoidedOnExtraction(
  db: Db,
  q: { campaign_id: string; livemode: number; extraction_number: number | null; extraction_date: string | null },
): DrawRow[] {
  return prepare<[object], DrawRow>(
    db,
    `SELECT * FROM draws
    WHERE campaign_id = @campaign_id AND livemode = @livemode AND status = 'voided'
      AND (extraction_number = @extraction_number OR extraction_date = @extraction_date)
    ORDER BY created_at, id`,
  ).all(q);
}
