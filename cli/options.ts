// Option parsers shared by the commands of exports, stats, listings and participant requests: bad
// values are AppErrors with code invalid_option (invalid_mode for --mode, as in every command),
// which the CLI prints as one line and exit 1. Also the reader of every id argument and option
// that is a uuid.
import { AppError } from '../src/errors.ts';
import { parseLivemode } from '../src/keys/keys.ts';
import { parseDecimal } from '../src/numbers.ts';
import { parseStatusOption } from '../src/status-option.ts';
import { ENTRY_STATUSES, type EntryStatus } from '../src/entries/entries.repo.ts';

/** --mode for commands that act on one participant record: required to be one mode, default live. */
export function parseSingleMode(mode: string | undefined): number {
  return parseLivemode(mode ?? 'live')!;
}

export function parseStatus(status: string | undefined): EntryStatus | undefined {
  return parseStatusOption(status, ENTRY_STATUSES);
}

/**
 * The most rows a listing prints; more is what `ces entries export` is for. Unbounded, a --limit of
 * 99999999999999999999 reached SQLite as a REAL and failed as database_error "datatype mismatch".
 */
export const MAX_LIST_LIMIT = 100_000;

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
