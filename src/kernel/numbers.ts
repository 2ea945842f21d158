// Numbers an operator types as CLI options ("50", "12.5", "-1"). Number() alone reads "" and "  "
// as 0, "0x10" as 16 and "1e3" as 1000, so `--stock ""` registered a prize with no stock instead of
// being refused like `--stock abc`.
import { AppError, fieldName } from './errors.ts';
const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;

/** The value of a decimal number written out in digits; NaN for anything else. */
export function parseDecimal(value: string | number): number {
  if (typeof value === 'number') return value;
  return DECIMAL.test(value) ? Number(value) : Number.NaN;
}

/**
 * The longest grace period of a rotation (an API key's, a webhook secret's): 30 days, as long as
 * the longest wait between two webhook attempts. Unbounded, a typo such as 99999999999999 made the
 * end of the grace an invalid date: a crash (internal_error) instead of a refusal.
 */
export const MAX_GRACE_SECONDS = 30 * 24 * 3600;

/** A rotation's `--grace`: whole seconds from 0 to MAX_GRACE_SECONDS, else 422 invalid_option. */
export function parseGraceSeconds(value: string | number): number {
  const grace = parseDecimal(value);
  if (!Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_SECONDS) {
    throw new AppError(
      422,
      'invalid_option',
      `${fieldName('grace')} must be a whole number of seconds from 0 to ${MAX_GRACE_SECONDS} (30 days), got "${value}"`,
    );
  }
  return grace;
}
