// The status filter of the operator's listings (entries, awards, webhook deliveries): one of the
// statuses the listing knows, in any case (`approved`, `FAILED`). The one check of it: the API's
// listings, the dashboard's filters and the CLI's --status (which names its flag in the message,
// cli/options.ts) all call it.
import { AppError } from '../kernel/errors.ts';

/**
 * The status as the listing spells it; undefined when absent; 422 invalid_option otherwise.
 * `name` is what the message calls the value (`status`, or the CLI's `--status`).
 */
export function toStatusFilter<S extends string>(value: string | undefined, statuses: readonly S[], name = 'status'): S | undefined {
  if (value === undefined) return undefined;
  const found = statuses.find((status) => status.toLowerCase() === value.toLowerCase());
  if (found === undefined) throw new AppError(422, 'invalid_option', `${name} must be one of ${statuses.join(', ')}, got "${value}"`);
  return found;
}
