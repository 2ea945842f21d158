// The order of time of a draw (docs/operations.md#the-order-of-time), in Brasília time: a Loteria
// Federal extraction is held at 19:00 in America/Sao_Paulo on its date. A draw is created and frozen
// before the extraction that decides it, so that nobody who sets it up or fixes its eligible
// numbers can know the result; the results are of that extraction or, when it was postponed, of a
// later one (said so, with the reason), never of an earlier one and never dated after today. Pure:
// the caller passes the time (ctx.clock). Dates in the zone are read from the zone database through
// Intl, not from a fixed offset: Brazil has had no daylight saving time since 2019, but the rules
// also judge dates from before.
import { AppError, fieldName } from '../kernel/errors.ts';
import { brasiliaDate, brasiliaWallClock } from '../tools/brazil-calendar.ts';

/** The hour (Brasília) at which the Loteria Federal holds its extractions. */
const EXTRACTION_HOUR = 19;

/** When the extraction of `date` (YYYY-MM-DD) is held: 19:00 in Brasília that day, as epoch milliseconds. */
export function extractionStartsAt(date: string): number {
  const wall = Date.parse(`${date}T${String(EXTRACTION_HOUR).padStart(2, '0')}:00:00Z`);
  // The zone's offset at the instant, found from a first guess and checked once: right across a change of offset too.
  let at = wall - (brasiliaWallClock(wall) - wall);
  at = wall - (brasiliaWallClock(at) - at);
  return at;
}

/** `2026-12-02 19:00 (Brasília)`, as the refusals say it. */
const extractionTime = (date: string): string => `${date} ${EXTRACTION_HOUR}:00 (Brasília)`;

/**
 * 409 draw_extraction_passed once the planned extraction has started: a draw is created, and its
 * eligible numbers frozen, before the result that decides it exists. A draw without a planned date
 * (made before the date was required) is not held to it.
 */
export function assertBeforeExtraction(nowMs: number, plannedDate: string | null, step: 'create' | 'freeze'): void {
  if (plannedDate === null || nowMs < extractionStartsAt(plannedDate)) return;
  const told =
    step === 'create'
      ? 'a draw is created before the extraction that decides it: plan it for a later extraction'
      : "a draw's eligible numbers are frozen before the extraction that decides it: void this draw and plan one for a later extraction";
  throw new AppError(
    409,
    'draw_extraction_passed',
    `The planned extraction (${fieldName('extraction_date')} ${extractionTime(plannedDate)}) has already been held: ${told}.`,
  );
}

interface ResultsDate {
  /** The extraction's date (YYYY-MM-DD), valid. */
  date: string;
  /** The extraction the draw's plan names; null for a draw made before it was required. */
  planned: string | null;
  nowMs: number;
  /** Why the extraction used is later than planned (a postponement); null when none was given. */
  reason: string | null;
}

/**
 * The date of the results being recorded, against the plan and today (Brasília): never after today;
 * never before the planned extraction (an earlier one was held before the draw was frozen); later
 * than planned only with a reason. True when the extraction is later than planned.
 */
export function checkResultsDate(r: ResultsDate): boolean {
  const today = brasiliaDate(r.nowMs);
  if (r.date > today)
    throw resultsDateRefusal(
      'extraction_in_future',
      `the extraction of ${r.date} has not been held: today is ${today} in Brasília, and results are dated on or before today`,
    );
  if (r.planned === null) return false;
  if (r.date < r.planned)
    throw resultsDateRefusal(
      'extraction_before_planned',
      `the extraction of ${r.date} is earlier than the planned one (${fieldName('extraction_date')} ${r.planned}): an extraction held before the draw was frozen cannot decide it`,
    );
  if (r.date === r.planned) return false;
  if (r.reason === null)
    throw new AppError(
      422,
      'postponement_reason_required',
      `the extraction of ${r.date} is later than the planned one (${r.planned}): give the ${fieldName('reason')} it was postponed, for the record`,
      [{ field: 'reason', code: 'required', message: `give the ${fieldName('reason')} the extraction was postponed` }],
    );
  return true;
}

function resultsDateRefusal(code: string, message: string): AppError {
  return new AppError(422, code, message, [{ field: 'date', code: 'invalid_date', message }]);
}
