// Integers an operator types into an option or a form field (a count, a position): read once, at
// the edge where they arrive as text, so that the domain is handed numbers. The range is the
// domain's; the words name the field (src/kernel/errors.ts fieldName), which the CLI turns into
// its flag and a form into its label.
import { fieldName, invalidOption } from '../kernel/errors.ts';
import { parseDecimal } from '../kernel/numbers.ts';

export interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

/** `value` when it is an integer within `range`; 422 invalid_option naming `field` otherwise. `typed` is what the message quotes. */
export function checkInteger(field: string, value: number, range: IntegerRange, typed: string = String(value)): number {
  if (!Number.isInteger(value) || value < range.min || value > range.max)
    throw invalidOption(field, `${fieldName(field)} must be an integer from ${range.min} to ${range.max}, got "${typed}"`);
  return value;
}

/** An integer written out in digits, within `range`; 422 invalid_option naming `field` otherwise. */
export function parseInteger(field: string, text: string, range: IntegerRange): number {
  return checkInteger(field, parseDecimal(text), range, text);
}
