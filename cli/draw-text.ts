// How a draw reads at the terminal (`ces draw …` without --json): the draw's settings and state,
// the extraction, the formed number with every digit it was read from, and each winner with the
// steps that led to it, one line a step (the sentences of src/draws/steps.ts, as the dashboard's).
import { formatPrize } from '../src/draws/formation.ts';
import type { DisqualifiedWinner, Draw, DrawDetail, DrawWinner, RunOutcome } from '../src/draws/model.ts';
import { describeFormationStep, describeWinnerStep } from '../src/draws/steps.ts';
import { details } from './output.ts';

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th'];

function describeExtraction(d: Draw): string | null {
  if (d.extraction === null) return null;
  const prizes = d.extraction.prizes.map((p, i) => `${ORDINALS[i]} ${formatPrize(p)}`).join(', ');
  const source = d.extraction.source === 'caixa' ? "read from Caixa's results API" : 'typed';
  return `${d.extraction.number} of ${d.extraction.date}: ${prizes} (${source})`;
}

/** The draw's settings and state, one "key  value" line each. */
export function renderDraw(d: Draw): string {
  return details({
    id: d.id,
    campaign_id: d.campaign_id,
    mode: d.livemode ? 'live' : 'test',
    name: d.name,
    status: d.status,
    cutoff: d.cutoff,
    extraction_date: d.extraction_date,
    winners_count: d.winners_count,
    series_count: d.series_count,
    series_digits: d.series_digits === '' ? '(none: one series)' : d.series_digits,
    element_digits: d.element_digits,
    approximation: d.approximation,
    empty_series: d.empty_series,
    one_win_per_document: d.one_win_per_document ? 'yes' : 'no',
    place: d.place,
    prizes: d.prizes === null ? null : d.prizes.map((p) => `${p.position}. ${p.description} (R$ ${p.value})`).join('; '),
    eligible_count: d.eligible_count,
    numbers_sha256: d.numbers_sha256,
    ...(d.holders_sha256 === null ? {} : { holders_sha256: d.holders_sha256 }),
    frozen_at: d.frozen_at,
    extraction: describeExtraction(d),
    formed: d.formed?.number ?? null,
    drawn_at: d.drawn_at,
    published_at: d.published_at,
    ...(d.record_sha256 === null ? {} : { record_sha256: d.record_sha256 }),
    created_at: d.created_at,
    // Shown only when they say something: the text of a draw that is neither is as it always was.
    ...(d.freeze_reason === null ? {} : { pending_at_freeze: d.pending_at_freeze, freeze_reason: d.freeze_reason }),
    ...(d.voided_at === null ? {} : { voided_at: d.voided_at, voided_by: d.voided_by, void_reason: d.void_reason }),
  });
}

function renderWinner(w: DrawWinner, seriesCount: number, indent = '  '): string[] {
  return [
    `${indent}${String(w.position).padStart(2)}. ${w.number}  entry ${w.entry_id}`,
    ...w.steps.map((s) => `${indent}      ${describeWinnerStep(s, seriesCount, 'en')}`),
  ];
}

function renderDisqualified(w: DisqualifiedWinner): string {
  return `  position ${w.position}: ${w.number}  entry ${w.entry_id}, disqualified ${w.disqualified_at}: ${w.reason}`;
}

function renderUnfilled(positions: number[]): string[] {
  if (positions.length === 0) return [];
  const which = positions.length === 1 ? `position ${positions[0]} is` : `positions ${positions.join(', ')} are`;
  return [`${which} not filled: fewer eligible numbers than winners`];
}

function renderOutcome(draw: Draw, formed: RunOutcome['formed'], winners: DrawWinner[], unfilled: number[]): string[] {
  return [
    `formed number ${formed.number}`,
    ...formed.steps.map((s) => `  ${describeFormationStep(s, 'en')}`),
    `winners (${winners.length} of ${draw.winners_count})`,
    ...winners.flatMap((w) => renderWinner(w, draw.series_count)),
    ...renderUnfilled(unfilled),
  ];
}

/** `ces draw run`: the draw, the formation and the winners with their steps. */
export function renderRun(o: RunOutcome): string {
  return [renderDraw(o.draw), '', ...renderOutcome(o.draw, o.formed, o.winners, o.unfilled_positions)].join('\n');
}

/** `ces draw show` and `disqualify`: the draw, and once it has run its outcome and disqualifications. */
export function renderDrawDetail(d: DrawDetail, outcome: RunOutcome | null): string {
  const lines = [renderDraw(d)];
  if (outcome !== null) lines.push('', ...renderOutcome(d, outcome.formed, d.winners, d.unfilled_positions));
  if (d.disqualified.length > 0) lines.push('disqualified', ...d.disqualified.map(renderDisqualified));
  return lines.join('\n');
}

/** `ces draw list`: one row a draw. */
export function drawRows(list: Draw[]): Array<Record<string, unknown>> {
  return list.map((d) => ({
    id: d.id,
    name: d.name,
    mode: d.livemode ? 'live' : 'test',
    status: d.status,
    cutoff: d.cutoff,
    winners: d.winners_count,
    eligible: d.eligible_count,
    extraction: d.extraction?.number ?? null,
    formed: d.formed?.number ?? null,
    created_at: d.created_at,
  }));
}

/** What `results --fetch` read, shown before the operator confirms it. */
export function renderFetchedExtraction(e: { number: number; date: string; prizes: string[]; url: string }): string {
  return [
    `Loteria Federal extraction ${e.number} of ${e.date}, read from ${e.url}:`,
    ...e.prizes.map((p, i) => `  ${ORDINALS[i]} prize  ${formatPrize(p)}`),
  ].join('\n');
}
