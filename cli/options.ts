// Option parsers shared by the commands: bad values are AppErrors with code invalid_option
// (invalid_mode for --mode, as in every command), which the CLI prints as one line and exit 1.
// The wording names the flag the operator typed; the checks themselves are the domain's
// (src/keys/keys.ts toMode, src/input/status-filter.ts), called with the flag's name. Also the reader of every id
// argument and option that is a uuid.
import { AUDIT_ACTIONS, type AuditAction } from '../src/audit/audit.ts';
import { ENTRY_STATUSES, type EntryStatus } from '../src/entries/entries.repo.ts';
import { AppError } from '../src/kernel/errors.ts';
import { toMode, type Mode } from '../src/keys/keys.ts';
import { parseDecimal } from '../src/kernel/numbers.ts';
import { toStatusFilter } from '../src/input/status-filter.ts';

/** --mode of every command that takes one: the domain's toMode, naming the flag. */
export function parseMode(value: string): Mode {
  return toMode(value, '--mode');
}

/** An optional --mode as livemode 1 (live) or 0 (test); undefined (both modes) when absent. */
export function parseModeFilter(value: string | undefined): 0 | 1 | undefined {
  if (value === undefined) return undefined;
  return parseMode(value) === 'live' ? 1 : 0;
}

/** --mode for commands that act on one participant record: required to be one mode, default live. */
export function parseSingleMode(mode: string | undefined): number {
  return parseModeFilter(mode ?? 'live')!;
}

/** --status of the operator's listings: the domain's check (src/input/status-filter.ts), naming the flag. */
export function parseStatusOption<S extends string>(value: string | undefined, statuses: readonly S[]): S | undefined {
  return toStatusFilter(value, statuses, '--status');
}

export function parseStatus(status: string | undefined): EntryStatus | undefined {
  return parseStatusOption(status, ENTRY_STATUSES);
}

/** --action of `ces audit list`: an action's name, in any case. */
export function parseAuditAction(value: string): AuditAction {
  const action = AUDIT_ACTIONS.find((a) => a === value.toLowerCase());
  if (action === undefined)
    throw new AppError(422, 'invalid_option', `--action must be one of ${AUDIT_ACTIONS.join(', ')}, got "${value}"`);
  return action;
}

/**
 * The most rows a listing prints; more is what `ces entries export` is for. Unbounded, a --limit of
 * 99999999999999999999 reached SQLite as a REAL and failed as database_error "datatype mismatch".
 */
const MAX_LIST_LIMIT = 100_000;

/** --limit N of the listings: an integer from 1 to MAX_LIST_LIMIT, written in digits. */
export function parseLimit(value: string): number {
  const n = parseDecimal(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIST_LIMIT)
    throw new AppError(422, 'invalid_option', `--limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got "${value}"`);
  return n;
}

/**
 * An id that ces generates as a uuid (campaign, API key, prize, entry), as typed in an argument or
 * option (commander calls it). RFC 9562 reads uuids case-insensitively and ces stores them in lower
 * case, so an id copied from a system that prints them upper-case (SQL Server's uniqueidentifier)
 * names the same record, as in the HTTP API (entryIdParam). No check: a value that is no uuid is
 * simply not found, as before. Delivery ids (evt_ and hex) are not uuids and are matched exactly.
 */
export function parseUuid(value: string): string {
  return value.toLowerCase();
}
