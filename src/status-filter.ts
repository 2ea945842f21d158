// The status filter of the operator's listings (entries, awards, webhook deliveries): one of the
// statuses the listing knows, in any case (`approved`, `FAILED`). The CLI reads its --status flag
// with its own wording (cli/options.ts); this is the domain's check of what it is handed.
import { AppError } from './errors.ts';

/** The status as the listing spells it; undefined when absent; 422 invalid_option otherwise. */
export function toStatusFilter<S extends string>(value: string | undefined, statuses: readonly S[]): S | undefined {
  if (value === undefined) return undefined;
  const found = statuses.find((status) => status.toLowerCase() === value.toLowerCase());
  if (found === undefined) throw new AppError(422, 'invalid_option', `status must be one of ${statuses.join(', ')}, got "${value}"`);
  return found;
}
