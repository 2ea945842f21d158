// What an operator gives a draw, and the checks the domain holds it to: its name and a
// disqualification's reason (one line of printable text), dates, the number of winners and the
// extraction number. Each refusal names the field it is about (`winners`, `extraction`); the CLI
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
