// The grace period of a rotation (an API key's, a webhook secret's) as an operator types it: the
// CLI's --grace and the dashboard's grace field are read here, once, and the domain functions
// (src/keys/keys.ts rotateKey, src/webhooks/webhook-config.ts rotateWebhookSecret) take the seconds.
import { AppError, fieldName } from '../kernel/errors.ts';
import { parseDecimal } from '../kernel/numbers.ts';

/**
 * The longest grace period: 30 days, as long as the longest wait between two webhook attempts.
 * Unbounded, a typo such as 99999999999999 made the end of the grace an invalid date: a crash
 * (internal_error) instead of a refusal.
 */
export const MAX_GRACE_SECONDS = 30 * 24 * 3600;

/** Whole seconds from 0 to MAX_GRACE_SECONDS, written in digits; else 422 invalid_option on `grace`. */
export function parseGraceSeconds(value: string): number {
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
