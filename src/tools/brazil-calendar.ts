// Dates as Brazilian deadlines count them (docs/operations.md#deadlines-and-business-days): a
// deadline is a date (YYYY-MM-DD) in Brasília time, America/Sao_Paulo, read from the zone database
// through Intl rather than a fixed offset, since the rules also judge dates from when Brazil had
// daylight saving time. A business day is one the banks open, where a tax is paid: Monday to Friday,
// not a national holiday (Lei 662/1949 as Lei 10.607/2002 wrote it, Lei 6.802/1980, Lei 14.759/2023),
// not Good Friday (a religious holiday by Lei 9.093/1995, kept all over the country) and not the
// Monday and Tuesday of Carnival (no bank opens). Corpus Christi is a local holiday at most, and
// counts. Pure: the caller passes the instant.

const ZONE = 'America/Sao_Paulo';

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The wall clock in Brasília at `ms`, as the milliseconds of the same wall clock in UTC. */
export function brasiliaWallClock(ms: number): number {
  const p = Object.fromEntries(PARTS.formatToParts(ms).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** The date (YYYY-MM-DD) in Brasília at `ms`. */
export function brasiliaDate(ms: number): string {
  return new Date(brasiliaWallClock(ms)).toISOString().slice(0, 10);
}

const DAY_MS = 86_400_000;

/** The date `days` calendar days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Easter Sunday of `year` (Gregorian calendar; the anonymous algorithm of Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The fixed national holidays, MM-DD, with the year each began (Consciência Negra: Lei 14.759/2023). */
const FIXED_HOLIDAYS: ReadonlyArray<readonly [string, number]> = [
  ['01-01', 0], // Confraternização Universal
  ['04-21', 0], // Tiradentes
  ['05-01', 0], // Dia do Trabalho
  ['09-07', 0], // Independência
  ['10-12', 1980], // Nossa Senhora Aparecida (Lei 6.802/1980)
  ['11-02', 0], // Finados
  ['11-15', 0], // Proclamação da República
  ['11-20', 2024], // Dia Nacional de Zumbi e da Consciência Negra (Lei 14.759/2023)
  ['12-25', 0], // Natal
];

/** Easter's offsets of the days the banks close all over the country: Carnival Monday and Tuesday, Good Friday. */
const MOVABLE_CLOSED_DAYS = [-48, -47, -2];

/** Whether `date` is a day without banks all over the country: a national holiday, Good Friday or Carnival. */
export function isBankHoliday(date: string): boolean {
  const year = Number(date.slice(0, 4));
  const monthDay = date.slice(5);
  if (FIXED_HOLIDAYS.some(([md, since]) => md === monthDay && year >= since)) return true;
  const easter = easterSunday(year);
  return MOVABLE_CLOSED_DAYS.some((offset) => addDays(easter, offset) === date);
}

/** Whether `date` is a business day: Monday to Friday and not a bank holiday. */
export function isBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !isBankHoliday(date);
}

/** The `count`-th business day after `date` (`date` itself never counts; `count` ≥ 1). */
export function addBusinessDays(date: string, count: number): string {
  let day = date;
  for (let left = count; left > 0;) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) left -= 1;
  }
  return day;
}

/** The last day of the decêndio (the 10th, the 20th or the month's last day) that holds `date`. */
export function decendioEnd(date: string): string {
  const day = Number(date.slice(8));
  if (day <= 10) return `${date.slice(0, 8)}10`;
  if (day <= 20) return `${date.slice(0, 8)}20`;
  const [year, month] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}
