// Draws (apuração), docs/operations.md#the-rules-as-ces-applies-them: create, freeze, record the
// extraction, run, disqualify, publish. The rules themselves are pure (formation.ts, winners.ts,
// number-set.ts); this module loads and stores, checks each transition against the draw's status,
// and audits every change in the change's own transaction. The freeze (freeze.ts) reads on a
// connection of its own, so it never holds the writer.
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, invalidOption, notFound } from '../kernel/errors.ts';
import { toMode } from '../keys/keys.ts';
import { maskDocument, maskName } from '../tools/masking.ts';
import { parseDecimal } from '../kernel/numbers.ts';
import { MAX_NAME_LENGTH, MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { toUtcTimestamp } from '../input/timestamps.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import {
  findDrawRow,
  findNumberHolder,
  findEntryParticipant,
  insertDraw,
  insertWinner,
  listDrawRows,
  listFrozenSeries,
  listWinnerRows,
  markWinnerDisqualified,
  savePublished,
  saveResults,
  saveRun,
  type DrawRow,
  type DrawStatus,
  type DrawWinnerRow,
} from './draws.repo.ts';
import {
  checkDigitLists,
  defaultElementDigits,
  defaultSeriesDigits,
  formatDigitSource,
  formNumber,
  parseDigits,
  parsePrizes,
  type DigitStep,
  type Formed,
} from './formation.ts';
import { freezeDrawSet } from './freeze.ts';
import { canonicalSha256OnThread } from './scan-thread.ts';
import { canonicalChunks, canonicalSha256, formatNumber, NumberSet } from './number-set.ts';
import {
  APPROXIMATIONS,
  drawWinners,
  numberKey,
  pickNextWinner,
  type Approximation,
  type DrawNumber,
  type Holder,
  type WinnerStep,
} from './winners.ts';

export const MAX_WINNERS = 10_000;
export const MAX_DRAW_NAME = MAX_NAME_LENGTH;
export const MAX_DISQUALIFY_REASON = MAX_NOTE_LENGTH;

export interface Extraction {
  number: number;
  date: string;
  prizes: string[];
  source: 'typed' | 'caixa';
  recorded_at: string;
}

export interface Draw {
  id: string;
  campaign_id: string;
  livemode: boolean;
  name: string;
  cutoff: string;
  extraction_date: string | null;
  status: DrawStatus;
  winners_count: number;
  series_count: number;
  series_digits: string;
  element_digits: string;
  approximation: Approximation;
  one_win_per_document: boolean;
  eligible_count: number | null;
  numbers_sha256: string | null;
  frozen_at: string | null;
  extraction: Extraction | null;
  formed: { series: number; element: number; number: string } | null;
  drawn_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DrawWinner {
  position: number;
  series: number;
  element: number;
  number: string;
  entry_id: string;
  steps: WinnerStep[];
  picked_at: string;
}

export interface DisqualifiedWinner extends DrawWinner {
  disqualified_at: string;
  reason: string;
}

export interface DrawDetail extends Draw {
  winners: DrawWinner[];
  disqualified: DisqualifiedWinner[];
  /** Positions left empty: fewer eligible numbers than winners. */
  unfilled_positions: number[];
}

/** One step of the formation: a digit read from a prize, or the series brought into range. */
export type FormationStep =
  | ({ kind: 'digit'; target: 'series' | 'element' } & DigitStep)
  | { kind: 'series_reduced'; from: number; to: number; series_count: number; times: number };

export interface RunOutcome {
  draw: Draw;
  formed: { series: number; element: number; number: string; steps: FormationStep[] };
  winners: DrawWinner[];
  unfilled_positions: number[];
}

/** The draws.formed column: the formation as it was computed (positions left empty are derived from the winners). */
interface StoredFormation {
  formed: Formed;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function rowToDraw(row: DrawRow): Draw {
  const stored = row.formed === null ? null : (JSON.parse(row.formed) as StoredFormation);
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    livemode: row.livemode === 1,
    name: row.name,
    cutoff: row.cutoff,
    extraction_date: row.extraction_date,
    status: row.status,
    winners_count: row.winners_count,
    series_count: row.series_count,
    series_digits: row.series_digits,
    element_digits: row.element_digits,
    approximation: row.approximation,
    one_win_per_document: row.one_win_per_document === 1,
    eligible_count: row.eligible_count,
    numbers_sha256: row.numbers_sha256,
    frozen_at: row.frozen_at,
    extraction:
      row.extraction_prizes === null
        ? null
        : {
            number: row.extraction_number!,
            date: row.extraction_held_on!,
            prizes: JSON.parse(row.extraction_prizes) as string[],
            source: row.extraction_source!,
            recorded_at: row.results_recorded_at!,
          },
    formed:
      stored === null
        ? null
        : {
            series: stored.formed.series,
            element: stored.formed.element,
            number: formatNumber(stored.formed.series, stored.formed.element, row.series_count),
          },
    drawn_at: row.drawn_at,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function rowToWinner(row: DrawWinnerRow, seriesCount: number): DrawWinner {
  return {
    position: row.position,
    series: row.series,
    element: row.element,
    number: formatNumber(row.series, row.element, seriesCount),
    entry_id: row.entry_id,
    steps: JSON.parse(row.steps) as WinnerStep[],
    picked_at: row.picked_at,
  };
}

function findDraw(ctx: Ctx, id: string): DrawRow {
  const row = findDrawRow(ctx.db, id);
  if (row === undefined) throw notFound('Draw');
  return row;
}

function isValidDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && toUtcTimestamp(`${value}T00:00:00Z`) !== null;
}

function checkText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text === '') throw invalidOption(field, `${fieldName(field)} must not be empty`);
  const problem = operatorTextProblem(fieldName(field), text, max);
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field, ...problem }]);
  return text;
}

export interface DrawInput {
  campaignId: string;
  mode: string;
  name: string;
  cutoff: string;
  extractionDate?: string | null;
  winners?: string | number;
  series?: string;
  element?: string;
  approximation?: string;
  oneWinPerDocument?: boolean;
}

export function createDraw(ctx: Ctx, input: DrawInput, actor: Actor): Draw {
  const mode = toMode(input.mode);
  const campaign = getCampaign(ctx, input.campaignId);
  if (campaign.lucky_numbers === 'none')
    throw new AppError(409, 'lucky_numbers_off', 'The campaign gives no lucky numbers (`lucky_numbers` none): there is nothing to draw.');
  const name = checkText('name', input.name, MAX_DRAW_NAME);
  const cutoff = toUtcTimestamp(input.cutoff.trim());
  if (cutoff === null)
    throw invalidOption('cutoff', `\`cutoff\` must be a date-time with its zone (2026-12-31T23:59:59-03:00), got "${input.cutoff}"`);
  const extractionDate = input.extractionDate?.trim() || null;
  if (extractionDate !== null && !isValidDate(extractionDate))
    throw invalidOption('extraction_date', `\`extraction_date\` must be a date YYYY-MM-DD, got "${extractionDate}"`);
  if (extractionDate !== null && extractionDate < cutoff.slice(0, 10))
    throw invalidOption('extraction_date', `\`extraction_date\` ${extractionDate} is before the cut-off ${cutoff}`);
  const winners = input.winners === undefined ? 1 : parseDecimal(input.winners);
  if (!Number.isInteger(winners) || winners < 1 || winners > MAX_WINNERS)
    throw invalidOption('winners', `\`winners\` must be an integer from 1 to ${MAX_WINNERS}, got "${input.winners}"`);
  const approximation = (input.approximation ?? 'scpc').toLowerCase();
  if (!(APPROXIMATIONS as readonly string[]).includes(approximation))
    throw invalidOption('approximation', `\`approximation\` must be one of ${APPROXIMATIONS.join(', ')}, got "${input.approximation}"`);
  const series = input.series === undefined ? defaultSeriesDigits(campaign.series_count) : parseDigits(input.series, 'series');
  const element = input.element === undefined ? defaultElementDigits() : parseDigits(input.element, 'element');
  checkDigitLists(series, element, campaign.series_count);
  const now = nowIso(ctx.clock);
  const row: DrawRow = {
    id: ctx.random.uuid(),
    campaign_id: campaign.id,
    livemode: mode === 'live' ? 1 : 0,
    name,
    cutoff,
    extraction_date: extractionDate,
    status: 'created',
    winners_count: winners,
    series_count: campaign.series_count,
    series_digits: series.map(formatDigitSource).join(','),
    element_digits: element.map(formatDigitSource).join(','),
    approximation: approximation as Approximation,
    one_win_per_document: input.oneWinPerDocument === false ? 0 : 1,
    eligible_count: null,
    numbers_sha256: null,
    frozen_at: null,
    extraction_number: null,
    extraction_held_on: null,
    extraction_prizes: null,
    extraction_source: null,
    results_recorded_at: null,
    formed: null,
    drawn_at: null,
    published_at: null,
    created_at: now,
    updated_at: now,
  };
  return ctx.db
    .transaction(() => {
      insertDraw(ctx.db, row);
      recordAudit(ctx, {
        actor,
        action: 'draw.created',
        campaignId: row.campaign_id,
        details: {
          draw_id: row.id,
          mode,
          name: row.name,
          cutoff: row.cutoff,
          winners_count: row.winners_count,
          series_digits: row.series_digits,
          element_digits: row.element_digits,
          approximation: row.approximation,
          one_win_per_document: row.one_win_per_document === 1,
        },
      });
      return rowToDraw(row);
    })
    .immediate();
}

export function listDraws(ctx: Ctx, campaignId: string): Draw[] {
  getCampaign(ctx, campaignId);
  return listDrawRows(ctx.db, campaignId).map(rowToDraw);
}

export function getDraw(ctx: Ctx, id: string): DrawDetail {
  return drawDetailOf(ctx, findDraw(ctx, id));
}

function drawDetailOf(ctx: Ctx, row: DrawRow): DrawDetail {
  const rows = listWinnerRows(ctx.db, row.id);
  const stored = row.formed === null ? null : (JSON.parse(row.formed) as StoredFormation);
  const filled = new Set(rows.filter((r) => r.disqualified_at === null).map((r) => r.position));
  return {
    ...rowToDraw(row),
    winners: rows
      .filter((r) => r.disqualified_at === null)
      .map((r) => rowToWinner(r, row.series_count))
      .sort((a, b) => a.position - b.position),
    disqualified: rows
      .filter((r) => r.disqualified_at !== null)
      .map((r) => ({ ...rowToWinner(r, row.series_count), disqualified_at: r.disqualified_at!, reason: r.disqualified_reason! })),
    unfilled_positions: stored === null ? [] : Array.from({ length: row.winners_count }, (_, i) => i + 1).filter((p) => !filled.has(p)),
  };
}

/** Freezes the draw's eligible set at its cut-off (once; a frozen draw is returned as it is). */
export async function freezeDraw(ctx: Ctx, id: string, actor: Actor): Promise<Draw> {
  const row = findDraw(ctx, id);
  if (row.status !== 'created') return rowToDraw(row);
  if (ctx.clock.now() < Date.parse(row.cutoff))
    throw new AppError(
      409,
      'draw_cutoff_not_reached',
      `The draw's cut-off (${row.cutoff}) has not passed yet: its eligible numbers are not final.`,
    );
  const frozen = await freezeDrawSet(ctx, row);
  return ctx.db
    .transaction(() => {
      const saved = frozen.save();
      const current = findDraw(ctx, id);
      if (saved)
        recordAudit(ctx, {
          actor,
          action: 'draw.frozen',
          campaignId: row.campaign_id,
          details: { draw_id: id, eligible_count: frozen.count, numbers_sha256: frozen.sha256 },
        });
      return rowToDraw(current);
    })
    .immediate();
}

export interface ResultsInput {
  extraction: string | number;
  date: string;
  prizes: readonly string[];
  source?: 'typed' | 'caixa';
}

/**
 * Records the extraction's five prizes. The draw is frozen first: its eligible set is fixed before
 * the results are in ces. Refused once the draw has run (a new draw is the way to use others).
 */
export async function recordResults(ctx: Ctx, id: string, input: ResultsInput, actor: Actor): Promise<Draw> {
  let row = findDraw(ctx, id);
  if (row.status === 'drawn' || row.status === 'published')
    throw new AppError(
      409,
      'draw_already_run',
      'The draw has run: its results can no longer change. Create a new draw to use another extraction.',
    );
  const number = parseDecimal(input.extraction);
  if (!Number.isInteger(number) || number < 1 || number > 999_999)
    throw new AppError(422, 'invalid_results', `the extraction number must be a whole number from 1 to 999999, got "${input.extraction}"`);
  const date = input.date.trim();
  if (!isValidDate(date)) throw new AppError(422, 'invalid_results', `the extraction date must be a date YYYY-MM-DD, got "${input.date}"`);
  if (date < row.cutoff.slice(0, 10))
    throw new AppError(
      422,
      'invalid_results',
      `the extraction of ${date} is before the draw's cut-off (${row.cutoff}): it cannot decide this draw`,
    );
  const prizes = parsePrizes(input.prizes);
  if (row.status === 'created') {
    await freezeDraw(ctx, id, actor);
    row = findDraw(ctx, id);
  }
  const at = nowIso(ctx.clock);
  return ctx.db
    .transaction(() => {
      const saved = saveResults(ctx.db, {
        id,
        extraction_number: number,
        extraction_held_on: date,
        extraction_prizes: JSON.stringify(prizes),
        extraction_source: input.source ?? 'typed',
        results_recorded_at: at,
      });
      if (!saved) throw new AppError(409, 'draw_already_run', 'The draw has run: its results can no longer change.');
      recordAudit(ctx, {
        actor,
        action: 'draw.results_recorded',
        campaignId: row.campaign_id,
        details: { draw_id: id, extraction: number, date, prizes, source: input.source ?? 'typed' },
      });
      return rowToDraw(findDraw(ctx, id));
    })
    .immediate();
}

/** The frozen set, checked against its SHA-256: a set that changed in storage never decides a draw. */
export function loadFrozenSet(ctx: Ctx, row: DrawRow): NumberSet {
  const set = NumberSet.decode(row.series_count, listFrozenSeries(ctx.db, row.id));
  return checkedFrozenSet(set, canonicalSha256(set), row);
}

/**
 * loadFrozenSet with the SHA-256 computed on a thread when the database is a file: for a run, which
 * the dashboard starts on the server, 20 million numbers are a second or two of hashing.
 */
async function loadFrozenSetOffLoop(ctx: Ctx, row: DrawRow): Promise<NumberSet> {
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

function holderLookup(ctx: Ctx, row: DrawRow): (n: DrawNumber) => Holder {
  return (n) => {
    const holder = findNumberHolder(ctx.db, row.campaign_id, row.livemode, n.series, n.element);
    if (holder === undefined) throw new Error(`lucky number ${n.series}/${n.element} of draw ${row.id} has no holder`);
    return holder;
  };
}

export function formationSteps(formed: Formed, seriesCount: number): FormationStep[] {
  const steps: FormationStep[] = [
    ...formed.series_digits.map((d) => ({ kind: 'digit' as const, target: 'series' as const, ...d })),
    ...formed.element_digits.map((d) => ({ kind: 'digit' as const, target: 'element' as const, ...d })),
  ];
  if (formed.series_reductions > 0)
    steps.push({
      kind: 'series_reduced',
      from: formed.series_read,
      to: formed.series,
      series_count: seriesCount,
      times: formed.series_reductions,
    });
  return steps;
}

/** The outcome of a draw that has run, as `ces draw run` prints it; 409 draw_not_run before. */
export function getRunOutcome(ctx: Ctx, id: string): RunOutcome {
  const row = findDraw(ctx, id);
  if (row.status !== 'drawn' && row.status !== 'published')
    throw new AppError(409, 'draw_not_run', 'The draw has not run yet: run it first');
  return outcomeOf(ctx, row);
}

function outcomeOf(ctx: Ctx, row: DrawRow): RunOutcome {
  const detail = drawDetailOf(ctx, row);
  const stored = JSON.parse(row.formed!) as StoredFormation;
  const { winners, disqualified: _d, unfilled_positions, ...draw } = detail;
  return {
    draw,
    formed: { ...draw.formed!, steps: formationSteps(stored.formed, row.series_count) },
    winners,
    unfilled_positions,
  };
}

/** Runs the draw (freezing it first if needed). A draw that has run gives its recorded outcome. */
export async function runDraw(ctx: Ctx, id: string, actor: Actor): Promise<RunOutcome> {
  let row = findDraw(ctx, id);
  if (row.status === 'drawn' || row.status === 'published') return outcomeOf(ctx, row);
  if (row.status === 'created') {
    await freezeDraw(ctx, id, actor);
    row = findDraw(ctx, id);
  }
  if (row.extraction_prizes === null)
    throw new AppError(409, 'draw_results_missing', 'Record the extraction first: its number, date and five prizes');
  const set = await loadFrozenSetOffLoop(ctx, row);
  const formed = formNumber(
    JSON.parse(row.extraction_prizes) as string[],
    parseDigits(row.series_digits, 'series'),
    parseDigits(row.element_digits, 'element'),
    row.series_count,
  );
  // Computed before the write transaction: the frozen set and the numbers' holders never change,
  // so the writer is held only to store the outcome.
  const result = drawWinners(
    set,
    formed,
    { approximation: row.approximation, winnersCount: row.winners_count, oneWinPerDocument: row.one_win_per_document === 1 },
    holderLookup(ctx, row),
  );
  const at = nowIso(ctx.clock);
  ctx.db
    .transaction(() => {
      const stored: StoredFormation = { formed };
      if (!saveRun(ctx.db, id, JSON.stringify(stored), at)) return;
      for (const w of result.winners)
        insertWinner(ctx.db, {
          draw_id: id,
          position: w.position,
          series: w.series,
          element: w.element,
          entry_id: w.entry_id,
          enrollment_id: w.enrollment_id,
          steps: JSON.stringify(w.steps),
          picked_at: at,
        });
      recordAudit(ctx, {
        actor,
        action: 'draw.run',
        campaignId: row.campaign_id,
        details: {
          draw_id: id,
          extraction: row.extraction_number,
          formed: formatNumber(formed.series, formed.element, row.series_count),
          winners: result.winners.map((w) => formatNumber(w.series, w.element, row.series_count)),
          unfilled_positions: result.unfilled.map((u) => u.position),
        },
      });
    })
    .immediate();
  return outcomeOf(ctx, findDraw(ctx, id));
}

/**
 * Disqualifies the winner at a position (before publication only): the number becomes not
 * eligible, and the position is filled with the next eligible number after the last one picked.
 */
export function disqualifyWinner(ctx: Ctx, id: string, input: { position: string | number; reason: string }, actor: Actor): DrawDetail {
  const reason = checkText('reason', input.reason, MAX_DISQUALIFY_REASON);
  const position = parseDecimal(input.position);
  // Read and checked against its SHA-256 before the write transaction (seconds for 20 million
  // numbers): a frozen set never changes, so the writer is not held while it is read.
  const before = findDraw(ctx, id);
  const set = before.status === 'drawn' ? loadFrozenSet(ctx, before) : null;
  return ctx.db
    .transaction(() => {
      const row = findDraw(ctx, id);
      if (row.status === 'published') throw new AppError(409, 'draw_published', 'The draw is published: its winners are final.');
      if (row.status !== 'drawn') throw new AppError(409, 'draw_not_run', 'The draw has not run yet: there is no winner to disqualify.');
      const rows = listWinnerRows(ctx.db, id);
      const target = rows.find((r) => r.position === position && r.disqualified_at === null);
      if (!Number.isInteger(position) || target === undefined)
        throw invalidOption(
          'position',
          `\`position\` must be the position of a current winner (1 to ${row.winners_count}), got "${input.position}"`,
        );
      const at = nowIso(ctx.clock);
      markWinnerDisqualified(ctx.db, id, position, reason, at);
      const current = rows.filter((r) => r.disqualified_at === null && r.id !== target.id);
      const disqualified = new Set([...rows.filter((r) => r.disqualified_at !== null), target].map((r) => numberKey(r.series, r.element)));
      const last = rows.at(-1)!;
      const pick = pickNextWinner(
        // Run by another process since it was read: read here then.
        set ?? loadFrozenSet(ctx, row),
        { series: last.series, element: last.element },
        position,
        { numbers: new Set(current.map((r) => numberKey(r.series, r.element))), enrollments: new Set(current.map((r) => r.enrollment_id)) },
        row.one_win_per_document === 1,
        holderLookup(ctx, row),
        disqualified,
      );
      if (pick !== null)
        insertWinner(ctx.db, {
          draw_id: id,
          position,
          series: pick.series,
          element: pick.element,
          entry_id: pick.entry_id,
          enrollment_id: pick.enrollment_id,
          steps: JSON.stringify(pick.steps),
          picked_at: at,
        });
      recordAudit(ctx, {
        actor,
        action: 'draw.winner_disqualified',
        campaignId: row.campaign_id,
        details: {
          draw_id: id,
          position,
          number: formatNumber(target.series, target.element, row.series_count),
          replaced_by: pick === null ? null : formatNumber(pick.series, pick.element, row.series_count),
        },
      });
      return getDraw(ctx, id);
    })
    .immediate();
}

/** Publishes the draw: final. Sends draw.published to the campaign's webhook. */
export function publishDraw(ctx: Ctx, id: string, actor: Actor): Draw {
  return ctx.db
    .transaction(() => {
      const row = findDraw(ctx, id);
      if (row.status === 'published') throw new AppError(409, 'draw_published', 'The draw is already published.');
      if (row.status !== 'drawn') throw new AppError(409, 'draw_not_run', 'Run the draw before publishing it');
      const at = nowIso(ctx.clock);
      savePublished(ctx.db, id, at);
      const detail = getDraw(ctx, id);
      enqueueEvent(ctx, {
        campaignId: row.campaign_id,
        livemode: row.livemode === 1,
        entryId: null,
        eventType: 'draw.published',
        data: {
          draw_id: id,
          name: row.name,
          extraction: { number: detail.extraction!.number, date: detail.extraction!.date, prizes: detail.extraction!.prizes },
          winners: detail.winners.map((w) => ({ position: w.position, series: w.series, element: w.element, entry_id: w.entry_id })),
        },
      });
      recordAudit(ctx, {
        actor,
        action: 'draw.published',
        campaignId: row.campaign_id,
        details: { draw_id: id, winners: detail.winners.length },
      });
      return rowToDraw(findDraw(ctx, id));
    })
    .immediate();
}

/** The frozen canonical list (docs/operations.md#the-steps), in chunks: what numbers_sha256 is the SHA-256 of. */
export function frozenNumbersText(ctx: Ctx, id: string): Generator<Buffer> {
  const row = findDraw(ctx, id);
  if (row.status === 'created') throw new AppError(409, 'draw_not_frozen', 'The draw is not frozen yet: freeze it first');
  return canonicalChunks(loadFrozenSet(ctx, row));
}

/** A winner's participant as a page or the record may show it: masked, or null once anonymised. */
export function maskedWinner(ctx: Ctx, entryId: string): { document: string; name: string | null } | null {
  const p = findEntryParticipant(ctx.db, entryId);
  if (p === undefined || p.anonymized_at !== null) return null;
  return { document: maskDocument(p.document_type, p.document_number), name: maskName(p.full_name) };
}

/**
 * The masked document of every winner's participant, current and disqualified, by entry id
 * ("anonymized" once the participant was): what a page may show of who won.
 */
export function listWinnerDocuments(ctx: Ctx, id: string): Map<string, string> {
  findDraw(ctx, id);
  const out = new Map<string, string>();
  for (const row of listWinnerRows(ctx.db, id)) out.set(row.entry_id, maskedWinner(ctx, row.entry_id)?.document ?? 'anonymized');
  return out;
}
