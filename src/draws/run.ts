// The run of a draw and what may follow it before publication: the number formed from the
// extraction's prizes, the winners picked from the frozen set (formation.ts, winners.ts), each
// with the steps that picked it, and a disqualified winner's position filled again. The rules are
// pure; this module loads the frozen set (checked against its SHA-256), stores the outcome and
// audits it in the same transaction.
import type { Actor } from '../audit/actor.ts';
import { recordAudit } from '../audit/audit.ts';
import { nowIso } from '../kernel/clock.ts';
import type { Ctx } from '../kernel/context.ts';
import { AppError, fieldName, invalidOption } from '../kernel/errors.ts';
import { checkText, MAX_DISQUALIFY_REASON } from './draw-input.ts';
import { insertWinner, listWinnerRows, markWinnerDisqualified, saveRun, type DrawRow } from './draws.repo.ts';
import { formNumber, parseDigits, type Formed } from './formation.ts';
import { holderLookup, loadFrozenSet, loadFrozenSetOffLoop } from './frozen-set.ts';
import { freezeDraw } from './lifecycle.ts';
import { findDraw, type DrawDetail, type FormationStep, type RunOutcome, type StoredFormation } from './model.ts';
import { formatNumber } from './number-set.ts';
import { assertDisqualifiable, assertRun, assertTransition, canDisqualify, hasRun, isFrozen } from './status.ts';
import { drawDetailOf, getDraw } from './views.ts';
import { drawWinners, numberKey, pickNextWinner } from './winners.ts';

function formationSteps(formed: Formed, seriesCount: number): FormationStep[] {
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

/** The outcome of a draw that has run; 409 draw_not_run before. */
export function getRunOutcome(ctx: Ctx, id: string): RunOutcome {
  const row = findDraw(ctx, id);
  assertRun(row.status);
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
  if (hasRun(row.status)) return outcomeOf(ctx, row);
  if (!isFrozen(row.status)) {
    await freezeDraw(ctx, id, actor);
    row = findDraw(ctx, id);
  }
  assertTransition(row.status, 'drawn');
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
    {
      approximation: row.approximation,
      emptySeries: row.empty_series,
      winnersCount: row.winners_count,
      oneWinPerDocument: row.one_win_per_document === 1,
    },
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
export function disqualifyWinner(ctx: Ctx, id: string, input: { position: number; reason: string }, actor: Actor): DrawDetail {
  const reason = checkText('reason', input.reason, MAX_DISQUALIFY_REASON);
  const position = input.position;
  // Read and checked against its SHA-256 before the write transaction (seconds for 20 million
  // numbers): a frozen set never changes, so the writer is not held while it is read.
  const before = findDraw(ctx, id);
  const set = canDisqualify(before.status) ? loadFrozenSet(ctx, before) : null;
  return ctx.db
    .transaction(() => {
      const row = findDraw(ctx, id);
      assertDisqualifiable(row.status);
      const rows = listWinnerRows(ctx.db, id);
      const target = rows.find((r) => r.position === position && r.disqualified_at === null);
      if (!Number.isInteger(position) || target === undefined)
        throw invalidOption(
          'position',
          `${fieldName('position')} must be the position of a current winner (1 to ${row.winners_count}), got "${position}"`,
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
