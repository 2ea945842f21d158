// Date-times as integrators send them, in the UTC form every output uses (docs/api.md#api-overview:
// timestamps are ISO 8601 in UTC). A consent's granted_at is stored as sent, offset and all,
// because it is the legal record; exports print it converted. Date.parse is not the converter:
// ECMAScript defines it only for its own simplified format, and offsets without a colon (+0300), a
// lower-case z or nine fractional digits are left to the engine. This reads every form intake
// accepts, exactly.

/** The date-time forms POST /v1/entries accepts for consent.granted_at (src/entries/submission.ts). */
const DATE_TIME_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/i;

/**
 * The same forms with the ranges toUtcTimestamp and Date.parse hold them to (hours to 23, or 24:00
 * for the end of the day; offsets to ±23:59) and without flags, as the OpenAPI document publishes
 * consent.granted_at; that the day exists is the `date-time` format's check.
 */
export const DATE_TIME_AS_SENT =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt](?:(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?|24:00(?::00(?:\.0{1,9})?)?)(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])$/;

/**
 * The last instant with a four-digit year. A later one prints as +010000-…, an extended year that
 * is no longer the ISO 8601 form every output promises and no longer sorts as text; so the times an
 * operator sets (campaign dates, prize windows) stop here.
 */
export const LATEST_TIMESTAMP = '9999-12-31T23:59:59.999Z';

/** The first instant with a four-digit year (0000-01-01 in UTC; an offset can push a time before it). */
export const EARLIEST_TIMESTAMP = '0000-01-01T00:00:00.000Z';

/** The two bounds as epoch milliseconds, for comparing parsed instants. */
export const LATEST_MS = Date.parse(LATEST_TIMESTAMP);
export const EARLIEST_MS = Date.parse(EARLIEST_TIMESTAMP);

/**
 * A date-time an operator typed (campaign dates, prize windows), as epoch milliseconds, or null
 * when it is not a real date-time with its zone (`Z` or `±hh:mm`): without one, the server's
 * machine would pick the zone, and a campaign meant to open at midnight in Brasília would open at
 * midnight UTC on a server in a container. Whether it falls within four-digit years
 * (EARLIEST_TIMESTAMP to LATEST_TIMESTAMP) is for the caller to say, with its own field name.
 */
export function parseZonedInstant(value: string): number | null {
  const iso = toUtcTimestamp(value);
  return iso === null ? null : Date.parse(iso);
}

/**
 * The instant as `YYYY-MM-DDTHH:MM:SS.mmmZ`, or null when the text is not a real date-time of that
 * form. Digits beyond the millisecond are cut, not rounded, as Date.parse and toISOString do, so the
 * UTC time never passes the instant sent. `24:00` (with nothing after it) is the end of the day, as
 * ISO 8601 allows and Date.parse reads it; offsets run up to ±23:59.
 */
export function toUtcTimestamp(value: string): string | null {
  const m = DATE_TIME_WITH_ZONE.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number);
  const second = Number(m[6] ?? 0);
  const fraction = m[7] ?? '';
  const endOfDay = hour === 24 && minute === 0 && second === 0 && /^0*$/.test(fraction);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return null;
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const offsetMs = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(date.getTime() - offsetMs).toISOString();
}

/**
 * A stored granted_at as the outputs print it: in UTC. Intake accepts only forms toUtcTimestamp
 * reads; anything else (a row written by hand) is printed as stored rather than lost.
 */
export function storedTimestampInUtc(value: string): string {
  return toUtcTimestamp(value) ?? value;
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0);
  return date.getUTCDate();
}

/**
 * São Paulo time (UTC-3, no daylight saving since 2019): the campaigns' legal time, in which days
 * and months are counted (issue month, per-day limits, birthdates, `ces stats`, the dashboard).
 * Local wall-clock ms = UTC ms + this.
 */
export const SAO_PAULO_OFFSET_MS = -3 * 3_600_000;
const DAY_MS = 86_400_000;

/** [start, end) of the São Paulo calendar day holding `ms`, as UTC instants. */
export function saoPauloDay(ms: number): { start: number; end: number } {
  const local = ms + SAO_PAULO_OFFSET_MS;
  const start = Math.floor(local / DAY_MS) * DAY_MS - SAO_PAULO_OFFSET_MS;
  return { start, end: start + DAY_MS };
}

/** Year * 12 + (month - 1) of an instant, in São Paulo time. */
export function saoPauloMonthIndex(ms: number): number {
  const d = new Date(ms + SAO_PAULO_OFFSET_MS);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}
