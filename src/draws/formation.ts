// Formation of the winning number from one Loteria Federal extraction
// (docs/operations.md#running-a-draw-ces-draw). A DIGITS list names, left to right, where each
// digit of the series and of the element comes from: `<prize><place>` (prize 1..5; place u, d, c,
// m, dm) or a literal `=D`. The defaults are the wording SPA's SCPC writes into promotion plans:
// element = the units of the 1st to 5th prizes; series = the tens of the 1st..k-th prizes, k the
// digits of `series_count - 1`.
import { AppError, fieldName, invalidOption } from '../kernel/errors.ts';

export const ELEMENTS_PER_SERIES = 100_000;

/** Place of a digit in a 5-digit ticket, counted from the right (units = 0). */
const PLACES = { u: 0, d: 1, c: 2, m: 3, dm: 4 } as const;
type Place = keyof typeof PLACES;

export type DigitSource = { kind: 'prize'; prize: number; place: Place } | { kind: 'literal'; digit: number };

/** A digit read while forming the number: which item of the list gave it, and its value. */
export interface DigitStep {
  item: string;
  digit: number;
  /** The prize's full 5-digit ticket when the digit came from a prize. */
  ticket: string | null;
}

export interface Formed {
  series: number;
  element: number;
  /** The series as read, before it was brought into 0..series_count-1. */
  series_read: number;
  series_digits: DigitStep[];
  element_digits: DigitStep[];
  /** How many times series_count was subtracted from series_read. */
  series_reductions: number;
}

export function formatDigitSource(source: DigitSource): string {
  return source.kind === 'literal' ? `=${source.digit}` : `${source.prize}${source.place}`;
}

/** Parses a DIGITS list ("1d,2d" or "1u,2u,3u,4u,5u" or "=0,1d"); throws 422 invalid_option naming the field. */
export function parseDigits(value: string, field: 'series' | 'element'): DigitSource[] {
  const trimmed = value.trim();
  if (trimmed === '') return [];
  return trimmed.split(',').map((raw, i) => {
    const item = raw.trim().toLowerCase();
    const literal = /^=([0-9])$/.exec(item);
    if (literal) return { kind: 'literal', digit: Number(literal[1]) };
    const match = /^([1-5])(u|d|c|m|dm)$/.exec(item);
    if (!match)
      throw invalidOption(
        field,
        `${fieldName(field)} item ${i + 1} ("${raw.trim()}") must be <prize><place> (prize 1-5; place u, d, c, m or dm) or =D (a literal digit)`,
      );
    return { kind: 'prize', prize: Number(match[1]), place: match[2] as Place };
  });
}

/** The number of digits of the largest series, `series_count - 1` (0 for a single series). */
function seriesWidth(seriesCount: number): number {
  return seriesCount <= 1 ? 0 : String(seriesCount - 1).length;
}

/** SCPC's default series: the tens of the 1st..k-th prizes. */
export function defaultSeriesDigits(seriesCount: number): DigitSource[] {
  return Array.from({ length: seriesWidth(seriesCount) }, (_, i) => ({ kind: 'prize', prize: i + 1, place: 'd' }) as const);
}

/** SCPC's default element: the units of the 1st to 5th prizes. */
export function defaultElementDigits(): DigitSource[] {
  return [1, 2, 3, 4, 5].map((prize) => ({ kind: 'prize', prize, place: 'u' }) as const);
}

/** Checks a draw's digit lists against its campaign's series; throws 422 invalid_option. */
export function checkDigitLists(series: DigitSource[], element: DigitSource[], seriesCount: number): void {
  if (element.length !== 5) throw invalidOption('element', `\`element\` must have exactly 5 items, got ${element.length}`);
  if (seriesCount > 1 && series.length === 0)
    throw invalidOption('series', `\`series\` must have at least one item: the campaign has ${seriesCount} series`);
  if (seriesCount === 1 && series.length > 0) throw invalidOption('series', '`series` must be empty: the campaign has a single series (0)');
  if (series.length > 6) throw invalidOption('series', `\`series\` may have at most 6 items, got ${series.length}`);
  // Fewer digits than the largest series has would leave the upper series out of every formed
  // number: their holders could never be drawn directly (Decreto 70.951/1972 art. 16).
  if (series.length < seriesWidth(seriesCount))
    throw invalidOption(
      'series',
      `\`series\` must have at least ${seriesWidth(seriesCount)} items to reach every one of the ${seriesCount} series, got ${series.length}`,
    );
}

/**
 * Results as Caixa publishes them: each prize 5 digits, or 6 characters with a leading 0
 * ("050366"). Returns the five 5-digit tickets; throws 422 invalid_results naming the bad prize.
 */
export function parsePrizes(values: readonly string[]): string[] {
  if (values.length !== 5)
    throw new AppError(422, 'invalid_results', `an extraction has exactly 5 prizes (1st to 5th), got ${values.length}`);
  return values.map((raw, i) => {
    const value = raw.trim();
    if (/^[0-9]{5}$/.test(value)) return value;
    if (/^0[0-9]{5}$/.test(value)) return value.slice(1);
    const shown = value.length > 12 ? `${value.slice(0, 12)}…` : value;
    throw new AppError(422, 'invalid_results', `prize ${i + 1} ("${shown}") must be 5 digits, or 6 with a leading 0 as Caixa publishes it`);
  });
}

/** A prize as a person reads it, as Caixa publishes it: six characters, the 5-digit ticket after a leading 0 ("050366"). */
export function formatPrize(ticket: string): string {
  return ticket.padStart(6, '0');
}

function readDigit(source: DigitSource, tickets: readonly string[]): DigitStep {
  if (source.kind === 'literal') return { item: formatDigitSource(source), digit: source.digit, ticket: null };
  const ticket = tickets[source.prize - 1]!;
  const digit = Number(ticket[4 - PLACES[source.place]]);
  return { item: formatDigitSource(source), digit, ticket };
}

/** Forms series/element from five 5-digit tickets (parsePrizes' output). */
export function formNumber(tickets: readonly string[], series: DigitSource[], element: DigitSource[], seriesCount: number): Formed {
  const seriesDigits = series.map((s) => readDigit(s, tickets));
  const elementDigits = element.map((s) => readDigit(s, tickets));
  const seriesRead = seriesDigits.reduce((n, d) => n * 10 + d.digit, 0);
  const reductions = Math.floor(seriesRead / seriesCount);
  return {
    series: seriesRead - reductions * seriesCount,
    element: elementDigits.reduce((n, d) => n * 10 + d.digit, 0),
    series_read: seriesRead,
    series_digits: seriesDigits,
    element_digits: elementDigits,
    series_reductions: reductions,
  };
}
