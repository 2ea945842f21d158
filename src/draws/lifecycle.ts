// Draws (apuração), docs/operations.md#the-rules-as-ces-applies-them: creating a draw, freezing its
// eligible numbers, recording the extraction (the run and the disqualifications are run.ts, the
// publication publish.ts). Each step loads the draw, checks it against the draw's status
// (status.ts), and audits the change in the change's own transaction. The freeze (freeze.ts) reads
// on a connection of its own, so it never holds the writer.
import { actorName, type Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { assertCampaignOpen, getCampaign } from '../campaigns/campaigns.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, invalidOption } from '../kernel/errors.ts';
import { checkInteger } from '../input/integers.ts';
import { toUtcTimestamp } from '../input/timestamps.ts';
import { toMode } from '../keys/keys.ts';
import { checkDigitRules } from './digit-rules.ts';
import {
  checkDrawPrizes,
  checkExtractionNumber,
  checkPlace,
  checkText,
  isValidDate,
  MAX_DISQUALIFY_REASON,
  MAX_DRAW_NAME,
  WINNERS,
} from './draw-input.ts';
import {
  countPendingEntries,
  findDrawOnExtraction,
  insertDraw,
  insertResultsRecord,
  saveDrawCreator,
  saveResults,
  saveVoided,
  type DrawRow,
} from './draws.repo.ts';
import { checkDistinctPrizes, extractionTaken } from './extraction-rules.ts';
import { checkDigitLists, defaultElementDigits, defaultSeriesDigits, formatDigitSource, parseDigits, parsePrizes } from './formation.ts';
import { freezeDrawSet } from './freeze.ts';
import { findDraw, rowToDraw, type Draw } from './model.ts';
import { assertNotVoided, assertResultsOpen, assertVoidable, isFrozen } from './status.ts';
import { assertBeforeExtraction, checkResultsDate } from './time-rules.ts';
import { APPROXIMATIONS, EMPTY_SERIES_RULES, type Approximation, type EmptySeriesRule } from './winners.ts';

interface DrawInput {
  campaignId: string;
  mode: string;
  name: string;
  cutoff: string;
  /** The extraction the plan names (YYYY-MM-DD): required. */
  extractionDate: string | null;
  /** Default 1. */
  winners?: number;
  series?: string;
  element?: string;
  /** nearest (default; `scpc` is its other name), above-then-below or up-wrap. */
  approximation?: string;
  /** alternate (default) or lower-first. */
  emptySeries?: string;
  oneWinPerDocument?: boolean;
  /** Where the apuração happens. */
  place?: string | null;
  /** DESCRIPTION=VALUE, one for every position or one per position in order. */
  prizes?: readonly string[];
}

/** `scpc` is the name the `nearest` reading had: a script that still says it means the same rule. */
function readApproximation(value: string | undefined): Approximation {
  const typed = (value ?? 'nearest').trim().toLowerCase();
  const approximation = typed === 'scpc' ? 'nearest' : typed;
  if (!(APPROXIMATIONS as readonly string[]).includes(approximation))
    throw invalidOption(
      'approximation',
      `${fieldName('approximation')} must be one of ${APPROXIMATIONS.join(', ')} (scpc is nearest's other name), got "${value}"`,
    );
  return approximation as Approximation;
}

function readEmptySeries(value: string | undefined): EmptySeriesRule {
  const rule = (value ?? 'alternate').trim().toLowerCase();
  if (!(EMPTY_SERIES_RULES as readonly string[]).includes(rule))
    throw invalidOption('empty_series', `${fieldName('empty_series')} must be one of ${EMPTY_SERIES_RULES.join(', ')}, got "${value}"`);
  return rule as EmptySeriesRule;
}

export function createDraw(ctx: Ctx, input: DrawInput, actor: Actor): Draw {
  const mode = toMode(input.mode);
  const campaign = getCampaign(ctx, input.campaignId);
  assertCampaignOpen(campaign);
  if (campaign.lucky_numbers === 'none')
    throw new AppError(409, 'lucky_numbers_off', 'The campaign gives no lucky numbers (`lucky_numbers` none): there is nothing to draw.');
  const name = checkText('name', input.name, MAX_DRAW_NAME);
  const cutoff = toUtcTimestamp(input.cutoff.trim());
  if (cutoff === null)
    throw invalidOption(
      'cutoff',
      `${fieldName('cutoff')} must be a date-time with its zone (2026-12-31T23:59:59-03:00), got "${input.cutoff}"`,
    );
  const extractionDate = input.extractionDate?.trim() || null;
  // The plan names its extraction; without it nothing could say the result followed it.
  if (extractionDate === null)
    throw invalidOption('extraction_date', `${fieldName('extraction_date')} is required: the date of the extraction the plan names`);
  if (!isValidDate(extractionDate))
    throw invalidOption('extraction_date', `${fieldName('extraction_date')} must be a date YYYY-MM-DD, got "${extractionDate}"`);
  if (extractionDate < cutoff.slice(0, 10))
    throw invalidOption('extraction_date', `${fieldName('extraction_date')} ${extractionDate} is before the cut-off ${cutoff}`);
  assertBeforeExtraction(ctx.clock.now(), extractionDate, 'create');
  const winners = checkInteger('winners', input.winners ?? 1, WINNERS);
  const approximation = readApproximation(input.approximation);
  const emptySeries = readEmptySeries(input.emptySeries);
  const place = checkPlace(input.place);
  const prizes = checkDrawPrizes(input.prizes ?? [], winners);
  const series = input.series === undefined ? defaultSeriesDigits(campaign.series_count) : parseDigits(input.series, 'series');
  const element = input.element === undefined ? defaultElementDigits() : parseDigits(input.element, 'element');
  checkDigitLists(series, element, campaign.series_count);
  checkDigitRules(series, element, campaign.series_count);
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
    approximation,
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
    holders_sha256: null,
    record_sha256: null,
    place,
    prizes: prizes === null ? null : JSON.stringify(prizes),
    empty_series: emptySeries,
  };
  return ctx.db
    .transaction(() => {
      const other = findDrawOnExtraction(ctx.db, {
        campaign_id: row.campaign_id,
        livemode: row.livemode,
        except_id: row.id,
        extraction_date: extractionDate,
      });
      if (other !== undefined) throw extractionTaken(other, { date: extractionDate });
      insertDraw(ctx.db, row);
      saveDrawCreator(ctx.db, row.id, actorName(actor));
      row.created_by = actorName(actor);
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
          extraction_date: row.extraction_date,
          empty_series: row.empty_series,
          place: row.place,
          prizes,
        },
      });
      return rowToDraw(row);
    })
    .immediate();
}

/** A freeze that goes ahead while entries received by the cut-off are still pending: its reason, for the record. */
interface FreezeOptions {
  force?: boolean;
  reason?: string;
}

/**
 * Freezes the draw's eligible set at its cut-off (once; a frozen draw is returned as it is): after
 * the cut-off, before the planned extraction, and only when no entry received by the cut-off is
 * still pending verification (Decreto 70.951/1972 art. 16 §3: no process may leave a holder out),
 * unless forced with a reason, which the record prints with the pending count.
 */
export async function freezeDraw(ctx: Ctx, id: string, actor: Actor, options: FreezeOptions = {}): Promise<Draw> {
  const row = findDraw(ctx, id);
  assertNotVoided(row.status);
  if (isFrozen(row.status)) return rowToDraw(row);
  if (ctx.clock.now() < Date.parse(row.cutoff))
    throw new AppError(
      409,
      'draw_cutoff_not_reached',
      `The draw's cut-off (${row.cutoff}) has not passed yet: its eligible numbers are not final.`,
    );
  assertBeforeExtraction(ctx.clock.now(), row.extraction_date, 'freeze');
  const reason = options.force ? checkText('reason', options.reason ?? '', MAX_DISQUALIFY_REASON) : null;
  const pending = countPendingEntries(ctx.db, { campaign_id: row.campaign_id, livemode: row.livemode, cutoff: row.cutoff });
  if (pending > 0 && reason === null) throw entriesPending(pending);
  const frozen = await freezeDrawSet(ctx, row, { frozen_by: actorName(actor), pending_at_freeze: pending, freeze_reason: reason });
  return ctx.db
    .transaction(() => {
      const saved = frozen.save();
      const current = findDraw(ctx, id);
      if (saved)
        recordAudit(ctx, {
          actor,
          action: 'draw.frozen',
          campaignId: row.campaign_id,
          details: {
            draw_id: id,
            eligible_count: frozen.count,
            numbers_sha256: frozen.sha256,
            pending_count: pending,
            ...(reason === null ? {} : { forced: true, reason }),
          },
        });
      return rowToDraw(current);
    })
    .immediate();
}

function entriesPending(count: number): AppError {
  const entries = count === 1 ? '1 entry received by the cut-off is' : `${count} entries received by the cut-off are`;
  return new AppError(
    409,
    'draw_entries_pending',
    `${entries} still pending verification: freezing now would leave their holders out of the draw for good. Wait until they are processed, or freeze anyway giving the ${fieldName('reason')}, which the record prints with the count.`,
    undefined,
    undefined,
    undefined,
    { pending_count: count },
  );
}

interface ResultsInput {
  /** The extraction number (draw-input.ts parseExtractionNumber reads it as typed). */
  extraction: number;
  date: string;
  prizes: readonly string[];
  source?: 'typed' | 'caixa';
  /** Why the extraction is later than planned (needed then), or why results are corrected; kept with them. */
  reason?: string | null;
}

/**
 * Records the extraction's five prizes. The draw is frozen first: its eligible set is fixed before
 * the results are in ces. Refused once the draw has run (a new draw is the way to use others).
 * Dated on or after the planned extraction and never after today (time-rules.ts); five different
 * tickets of an extraction no other draw of the campaign and mode uses. Each recording, the first
 * and every correction, is kept with who made it, when and why (draw_results).
 */
export async function recordResults(ctx: Ctx, id: string, input: ResultsInput, actor: Actor): Promise<Draw> {
  let row = findDraw(ctx, id);
  assertResultsOpen(row.status);
  const number = checkExtractionNumber(input.extraction);
  const date = input.date.trim();
  if (!isValidDate(date)) {
    const message = `${fieldName('date')} must be a date YYYY-MM-DD, got "${input.date}"`;
    throw new AppError(422, 'invalid_results', message, [{ field: 'date', code: 'invalid_option', message }]);
  }
  if (date < row.cutoff.slice(0, 10))
    throw new AppError(
      422,
      'invalid_results',
      `the extraction of ${date} is before the draw's cut-off (${row.cutoff}): it cannot decide this draw`,
    );
  const reason = input.reason?.trim() ? checkText('reason', input.reason, MAX_DISQUALIFY_REASON) : null;
  checkResultsDate({ date, planned: row.extraction_date, nowMs: ctx.clock.now(), reason });
  const prizes = parsePrizes(input.prizes);
  checkDistinctPrizes(prizes);
  const taken = (): void => {
    const other = findDrawOnExtraction(ctx.db, {
      campaign_id: row.campaign_id,
      livemode: row.livemode,
      except_id: id,
      extraction_number: number,
    });
    if (other !== undefined) throw extractionTaken(other, { number });
  };
  // Before the freeze: a draw refused its extraction is not frozen for nothing.
  taken();
  if (!isFrozen(row.status)) {
    await freezeDraw(ctx, id, actor);
    row = findDraw(ctx, id);
  }
  const at = nowIso(ctx.clock);
  return ctx.db
    .transaction(() => {
      // Run by another process since it was read: refused as it would have been then.
      assertResultsOpen(findDraw(ctx, id).status);
      taken();
      insertResultsRecord(ctx.db, {
        draw_id: id,
        extraction_number: number,
        held_on: date,
        prizes: JSON.stringify(prizes),
        source: input.source ?? 'typed',
        reason,
        recorded_by: actorName(actor),
        recorded_at: at,
      });
      saveResults(ctx.db, {
        id,
        extraction_number: number,
        extraction_held_on: date,
        extraction_prizes: JSON.stringify(prizes),
        extraction_source: input.source ?? 'typed',
        results_recorded_at: at,
      });
      recordAudit(ctx, {
        actor,
        action: 'draw.results_recorded',
        campaignId: row.campaign_id,
        details: { draw_id: id, extraction: number, date, prizes, source: input.source ?? 'typed', ...(reason === null ? {} : { reason }) },
      });
      return rowToDraw(findDraw(ctx, id));
    })
    .immediate();
}

/**
 * Voids the draw (before publication): it stays listed, nothing more happens to it, and its
 * extraction is free for another draw, whose record names this one.
 */
export function voidDraw(ctx: Ctx, id: string, input: { reason: string }, actor: Actor): Draw {
  const reason = checkText('reason', input.reason, MAX_DISQUALIFY_REASON);
  return ctx.db
    .transaction(() => {
      const row = findDraw(ctx, id);
      assertVoidable(row.status);
      saveVoided(ctx.db, id, { at: nowIso(ctx.clock), by: actorName(actor), reason });
      recordAudit(ctx, {
        actor,
        action: 'draw.voided',
        campaignId: row.campaign_id,
        details: { draw_id: id, status_before: row.status, extraction: row.extraction_number, reason },
      });
      return rowToDraw(findDraw(ctx, id));
    })
    .immediate();
}
