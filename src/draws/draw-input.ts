// What an operator gives a draw, and the checks the domain holds it to: its name, place and a
// disqualification's reason (one line of printable text), dates, the number of winners, the prize
// of each position and the extraction number. Each refusal names the field it is about (`winners`, `extraction`); the CLI
// and the dashboard read text into numbers at their edge (parseExtractionNumber, and
// src/input/integers.ts with the ranges below) and word the field their own way.
import { AppError, fieldName, invalidOption } from '../kernel/errors.ts';
import { parseDecimal } from '../kernel/numbers.ts';
import type { IntegerRange } from '../input/integers.ts';
import { MAX_NAME_LENGTH, MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import { toUtcTimestamp } from '../input/timestamps.ts';

const MAX_WINNERS = 10_000;
export const MAX_DRAW_NAME = MAX_NAME_LENGTH;
export const MAX_DISQUALIFY_REASON = MAX_NOTE_LENGTH;

/** A draw's number of winners, and so the positions of its winners. */
export const WINNERS: IntegerRange = { min: 1, max: MAX_WINNERS };

/** The Loteria Federal's extraction numbers. */
const EXTRACTION_NUMBERS: IntegerRange = { min: 1, max: 999_999 };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date YYYY-MM-DD that exists. */
export function isValidDate(value: string): boolean {
  return DATE.test(value) && toUtcTimestamp(`${value}T00:00:00Z`) !== null;
}

/** An operator's one-line text (a name, a reason), trimmed; 422 invalid_option naming `field` when empty, too long or not printable. */
export function checkText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (text === '') throw invalidOption(field, `${fieldName(field)} must not be empty`);
  const problem = operatorTextProblem(fieldName(field), text, max);
  if (problem) throw new AppError(422, 'invalid_option', problem.message, [{ field, ...problem }]);
  return text;
}

/**
 * Refusals of an extraction number, under the code of what it is part of: invalid_results for the
 * results being recorded, invalid_option for the extraction to read from Caixa.
 */
type ExtractionNumberCode = 'invalid_results' | 'invalid_option';

/** `value` when it is an extraction number (EXTRACTION_NUMBERS); 422 naming the field `extraction` otherwise. */
export function checkExtractionNumber(
  value: number,
  code: ExtractionNumberCode = 'invalid_results',
  typed: string = String(value),
): number {
  const { min, max } = EXTRACTION_NUMBERS;
  if (Number.isInteger(value) && value >= min && value <= max) return value;
  const message = `${fieldName('extraction')} must be a whole number from ${min} to ${max}, got "${typed}"`;
  throw new AppError(422, code, message, [{ field: 'extraction', code: 'invalid_option', message }]);
}

/** An extraction number as typed (digits); 422 naming the field `extraction` otherwise. */
export function parseExtractionNumber(text: string, code: ExtractionNumberCode = 'invalid_results'): number {
  return checkExtractionNumber(parseDecimal(text), code, text);
}

/** The prize of one position: what the regulation calls it and its value in reais ("15990.00"). */
export interface DrawPrize {
  position: number;
  description: string;
  value: string;
}

/** Reais with a dot and at most two decimals: 15990, 15990.5, 15990.00. */
const REAIS = /^([0-9]{1,12})(?:\.([0-9]{1,2}))?$/;

/**
 * The prizes typed as DESCRIPTION=VALUE (the last `=` splits them), one per position in order, or
 * one for every position; none gives null. 422 invalid_option naming the field `prize` otherwise.
 */
export function checkDrawPrizes(values: readonly string[], winners: number): DrawPrize[] | null {
  if (values.length === 0) return null;
  if (values.length !== 1 && values.length !== winners)
    throw invalidOption(
      'prize',
      `${fieldName('prize')} is given once for every position or once per position in order (${winners}), got ${values.length}`,
    );
  const parsed = values.map((raw, i) => {
    const at = raw.lastIndexOf('=');
    const description = at < 0 ? '' : raw.slice(0, at).trim();
    const value = at < 0 ? '' : raw.slice(at + 1).trim();
    const match = REAIS.exec(value);
    if (at < 0 || description === '' || !match)
      throw invalidOption(
        'prize',
        `${fieldName('prize')} ${i + 1} ("${raw.trim().slice(0, 40)}") must be DESCRIPTION=VALUE, the value in reais with a dot (Moto 0 km=15990.00)`,
      );
    checkText('prize', description, MAX_NAME_LENGTH);
    return { description, value: `${BigInt(match[1]!)}.${(match[2] ?? '').padEnd(2, '0')}` };
  });
  return Array.from({ length: winners }, (_, i) => ({ position: i + 1, ...parsed[values.length === 1 ? 0 : i]! }));
}

/** Where the apuração happens: one line of text, or null when not given. */
export function checkPlace(value: string | null | undefined): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  return checkText('place', value, MAX_NOTE_LENGTH);
}
