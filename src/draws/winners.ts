// Winners of a draw from its formed number and frozen set
// (docs/operations.md#running-a-draw-ces-draw). Pure: the holder of a number (its entry and
// participant) comes in as a function, so the same code runs the draw, computes the clause's worked
// example and is checked against a naive scan in test/draws-property.test.ts. Every decision is
// recorded as a step, for the apuração record.
import { ELEMENTS_PER_SERIES } from './formation.ts';
import type { NumberSet } from './number-set.ts';

/**
 * The readings of the regulation's approximation clause (docs/operations.md#the-rules-as-ces-applies-them):
 * `nearest` alternates +1, -1, +2 … in the series (what SCPC's wording means, once called `scpc`);
 * `above-then-below` takes every element above before any below; `up-wrap` goes upwards across series.
 */
export const APPROXIMATIONS = ['nearest', 'above-then-below', 'up-wrap'] as const;
export type Approximation = (typeof APPROXIMATIONS)[number];

/** Where a series with no eligible number passes the search: +1, -1, +2 … or every lower series first, then upwards. */
export const EMPTY_SERIES_RULES = ['alternate', 'lower-first'] as const;
export type EmptySeriesRule = (typeof EMPTY_SERIES_RULES)[number];

export interface Holder {
  entry_id: string;
  /** The participant (one enrollment per document in a campaign and mode). */
  enrollment_id: string;
}

export interface DrawNumber {
  series: number;
  element: number;
}

export type WinnerStep =
  /** The formed number, and whether it is eligible. */
  | { kind: 'formed'; series: number; element: number; eligible: boolean }
  /**
   * The eligible elements of one series nearest `from` above and below (`from` itself counts as
   * above), and the one chosen by `rule` (absent in steps stored before there were two: `nearest`).
   */
  | {
      kind: 'series_search';
      series: number;
      from: number;
      above: number | null;
      below: number | null;
      chosen: number | null;
      rule?: 'nearest' | 'above-then-below';
    }
  /** Series searched in this order that hold no eligible number at all, passed over by `empty_series` (absent before: alternate). */
  | { kind: 'series_empty'; series: number[]; empty_series?: EmptySeriesRule }
  /** The next eligible number upwards from `after` (exclusive unless `inclusive`), wrapping past the last series. */
  | { kind: 'next_upwards'; after: DrawNumber; inclusive: boolean; series: number; element: number; wrapped: boolean }
  /** A number passed over: it already won in this draw, its document already won, or it was disqualified. */
  | { kind: 'skipped'; series: number; element: number; reason: 'already_won' | 'document_already_won' | 'disqualified' }
  /** No eligible number was left for this position. */
  | { kind: 'exhausted' };

export interface PickedWinner extends DrawNumber, Holder {
  position: number;
  steps: WinnerStep[];
}

interface DrawRules {
  approximation: Approximation;
  emptySeries: EmptySeriesRule;
  winnersCount: number;
  oneWinPerDocument: boolean;
}

/** What a pick must avoid: numbers that won or were disqualified, and documents that won. */
interface Exclusions {
  numbers: Set<number>;
  enrollments: Set<string>;
}

const key = (series: number, element: number): number => series * ELEMENTS_PER_SERIES + element;

/** Winner 1 by the draw's approximation rule; null when the set is empty. */
export function pickFirstWinner(
  set: NumberSet,
  formed: DrawNumber,
  rules: Pick<DrawRules, 'approximation' | 'emptySeries'>,
  holderOf: (n: DrawNumber) => Holder,
): PickedWinner | null {
  const steps: WinnerStep[] = [];
  const eligible = set.has(formed.series, formed.element);
  steps.push({ kind: 'formed', series: formed.series, element: formed.element, eligible });
  let found: DrawNumber | null = eligible ? formed : null;
  if (found === null && set.count > 0)
    found =
      rules.approximation === 'up-wrap'
        ? searchUpwards(set, formed, true, steps)
        : searchSeries(set, formed, rules.approximation, rules.emptySeries, steps);
  if (found === null) return null;
  return { position: 1, ...found, ...holderOf(found), steps };
}

/**
 * In the formed series, the eligible element `rule` picks from the formed element, never
 * wrapping: `nearest` the nearest (+1, -1, +2 …, above on a tie), `above-then-below` the first
 * above, else the first below. A series with none passes the same search, from the same element
 * (which itself counts there), to the next series in `emptySeries` order (seriesOrder).
 */
function searchSeries(
  set: NumberSet,
  formed: DrawNumber,
  rule: 'nearest' | 'above-then-below',
  emptySeries: EmptySeriesRule,
  steps: WinnerStep[],
): DrawNumber | null {
  let empty: number[] = [];
  const passOver = (): void => {
    if (empty.length > 0) steps.push({ kind: 'series_empty', series: empty, empty_series: emptySeries });
    empty = [];
  };
  for (const s of seriesOrder(formed.series, set.seriesCount, emptySeries)) {
    if (!set.hasSeries(s)) {
      empty.push(s);
      continue;
    }
    passOver();
    const above = set.nextInSeries(s, formed.element);
    const below = set.prevInSeries(s, formed.element);
    let chosen: number | null = null;
    if (above !== -1 && (below === -1 || rule === 'above-then-below' || above - formed.element <= formed.element - below)) chosen = above;
    else if (below !== -1) chosen = below;
    steps.push({
      kind: 'series_search',
      series: s,
      from: formed.element,
      above: above === -1 ? null : above,
      below: below === -1 ? null : below,
      chosen,
      rule,
    });
    if (chosen !== null) return { series: s, element: chosen };
  }
  passOver();
  return null;
}

/**
 * The series a search visits, within 0..count-1: `alternate` s, s+1, s-1, s+2, s-2 …;
 * `lower-first` s, s-1, s-2 … 0, then s+1, s+2 ….
 */
export function* seriesOrder(start: number, count: number, rule: EmptySeriesRule = 'alternate'): Generator<number> {
  yield start;
  if (rule === 'lower-first') {
    for (let s = start - 1; s >= 0; s--) yield s;
    for (let s = start + 1; s < count; s++) yield s;
    return;
  }
  for (let d = 1; start + d < count || start - d >= 0; d++) {
    if (start + d < count) yield start + d;
    if (start - d >= 0) yield start - d;
  }
}

/** The next number of the set upwards from `from` (inclusive or not), wrapping once; null when the set is empty. */
function nextUpwards(set: NumberSet, from: DrawNumber, inclusive: boolean): { number: DrawNumber; wrapped: boolean } | null {
  const start = inclusive ? from.element : from.element + 1;
  const inSeries = set.nextInSeries(from.series, start);
  if (inSeries !== -1) return { number: { series: from.series, element: inSeries }, wrapped: false };
  const series = set.series();
  // The first non-empty series above from.series, else the first one of all (a wrap).
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (series[mid]! <= from.series) lo = mid + 1;
    else hi = mid;
  }
  if (lo < series.length) return { number: { series: series[lo]!, element: set.nextInSeries(series[lo]!, 0) }, wrapped: false };
  if (series.length === 0) return null;
  const first = series[0]!;
  return { number: { series: first, element: set.nextInSeries(first, 0) }, wrapped: true };
}

function searchUpwards(set: NumberSet, formed: DrawNumber, inclusive: boolean, steps: WinnerStep[]): DrawNumber | null {
  const next = nextUpwards(set, formed, inclusive);
  if (next === null) return null;
  steps.push({
    kind: 'next_upwards',
    after: { series: formed.series, element: formed.element },
    inclusive,
    ...next.number,
    wrapped: next.wrapped,
  });
  return next.number;
}

/**
 * The next eligible number after `after`, upwards across series and wrapping, that has not won or
 * been disqualified and (with one win per document) whose participant has not won: the rule of
 * winners 2..N and of a disqualified position's replacement. Null once every number was tried.
 */
export function pickNextWinner(
  set: NumberSet,
  after: DrawNumber,
  position: number,
  exclusions: Exclusions,
  oneWinPerDocument: boolean,
  holderOf: (n: DrawNumber) => Holder,
  disqualified: ReadonlySet<number> = new Set(),
): PickedWinner | null {
  const steps: WinnerStep[] = [];
  let cursor = after;
  for (let tried = 0; tried < set.count; tried++) {
    const next = nextUpwards(set, cursor, false);
    if (next === null) break;
    steps.push({
      kind: 'next_upwards',
      after: { series: cursor.series, element: cursor.element },
      inclusive: false,
      ...next.number,
      wrapped: next.wrapped,
    });
    cursor = next.number;
    const k = key(cursor.series, cursor.element);
    if (disqualified.has(k)) {
      steps.push({ kind: 'skipped', ...cursor, reason: 'disqualified' });
      continue;
    }
    if (exclusions.numbers.has(k)) {
      steps.push({ kind: 'skipped', ...cursor, reason: 'already_won' });
      continue;
    }
    const holder = holderOf(cursor);
    if (oneWinPerDocument && exclusions.enrollments.has(holder.enrollment_id)) {
      steps.push({ kind: 'skipped', ...cursor, reason: 'document_already_won' });
      continue;
    }
    return { position, ...cursor, ...holder, steps };
  }
  steps.push({ kind: 'exhausted' });
  return null;
}

interface DrawResult {
  winners: PickedWinner[];
  /** Steps of positions that could not be filled (fewer eligible numbers than winners). */
  unfilled: Array<{ position: number; steps: WinnerStep[] }>;
}

/** Winners 1..N of a draw. */
export function drawWinners(set: NumberSet, formed: DrawNumber, rules: DrawRules, holderOf: (n: DrawNumber) => Holder): DrawResult {
  const winners: PickedWinner[] = [];
  const unfilled: DrawResult['unfilled'] = [];
  const first = pickFirstWinner(set, formed, rules, holderOf);
  if (first === null) {
    for (let p = 1; p <= rules.winnersCount; p++)
      unfilled.push({
        position: p,
        steps: p === 1 ? [{ kind: 'formed', ...formed, eligible: false }, { kind: 'exhausted' }] : [{ kind: 'exhausted' }],
      });
    return { winners, unfilled };
  }
  winners.push(first);
  const exclusions: Exclusions = { numbers: new Set([key(first.series, first.element)]), enrollments: new Set([first.enrollment_id]) };
  let cursor: DrawNumber = { series: first.series, element: first.element };
  for (let p = 2; p <= rules.winnersCount; p++) {
    const next = pickNextWinner(set, cursor, p, exclusions, rules.oneWinPerDocument, holderOf);
    if (next === null) {
      unfilled.push({ position: p, steps: [{ kind: 'exhausted' }] });
      continue;
    }
    winners.push(next);
    exclusions.numbers.add(key(next.series, next.element));
    exclusions.enrollments.add(next.enrollment_id);
    cursor = { series: next.series, element: next.element };
  }
  return { winners, unfilled };
}

export const numberKey = key;
