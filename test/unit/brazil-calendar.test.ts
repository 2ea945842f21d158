// Brazilian dates as deadlines count them (src/tools/brazil-calendar.ts, docs/operations.md#deadlines-and-business-days):
// Easter against published dates, the days no bank opens against FEBRABAN's national calendars of
// 2024 to 2027 written out by hand, and a property test of business-day arithmetic against a naive
// count over that hand-written list. Then the winners' deadlines and the income tax's due date
// (src/winners/deadlines.ts, taxes.ts) on worked examples.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  addBusinessDays,
  addDays,
  brasiliaDate,
  decendioEnd,
  easterSunday,
  isBankHoliday,
  isBusinessDay,
} from '../../src/tools/brazil-calendar.ts';
import { deadlinesOf, filingDueBy, treasuryDueBy } from '../../src/winners/deadlines.ts';
import { prizeTaxCents, prizeTaxDueBy } from '../../src/winners/taxes.ts';
import { propertySeed } from '../support/property.ts';

test('Easter Sunday, as the Church publishes it: the earliest and latest possible, and the years around today', () => {
  const published: Record<number, string> = {
    1818: '1818-03-22',
    1943: '1943-04-25',
    2000: '2000-04-23',
    2019: '2019-04-21',
    2024: '2024-03-31',
    2025: '2025-04-20',
    2026: '2026-04-05',
    2027: '2027-03-28',
    2028: '2028-04-16',
    2038: '2038-04-25',
  };
  for (const [year, date] of Object.entries(published)) assert.equal(easterSunday(Number(year)), date, String(year));
});

/**
 * The days without banks all over Brazil, 2024 to 2027, as FEBRABAN's calendars list them: the
 * national holidays, Carnival Monday and Tuesday, Good Friday (Corpus Christi is local, and left out).
 */
const NO_BANK_DAYS = new Set([
  // 2024
  '2024-01-01', '2024-02-12', '2024-02-13', '2024-03-29', '2024-04-21', '2024-05-01', '2024-09-07', '2024-10-12', '2024-11-02',
  '2024-11-15', '2024-11-20', '2024-12-25',
  // 2025
  '2025-01-01', '2025-03-03', '2025-03-04', '2025-04-18', '2025-04-21', '2025-05-01', '2025-09-07', '2025-10-12', '2025-11-02',
  '2025-11-15', '2025-11-20', '2025-12-25',
  // 2026
  '2026-01-01', '2026-02-16', '2026-02-17', '2026-04-03', '2026-04-21', '2026-05-01', '2026-09-07', '2026-10-12', '2026-11-02',
  '2026-11-15', '2026-11-20', '2026-12-25',
  // 2027
  '2027-01-01', '2027-02-08', '2027-02-09', '2027-03-26', '2027-04-21', '2027-05-01', '2027-09-07', '2027-10-12', '2027-11-02',
  '2027-11-15', '2027-11-20', '2027-12-25',
]); // prettier-ignore

const FIRST_DAY = '2024-01-01';
const DAYS = 4 * 365 + 1;

test('the days without banks are exactly the calendars’ in 2024–2027; 20 November only from 2024 (Lei 14.759/2023)', () => {
  for (let i = 0; i < DAYS; i++) {
    const day = addDays(FIRST_DAY, i);
    assert.equal(isBankHoliday(day), NO_BANK_DAYS.has(day), day);
  }
  assert.equal(isBankHoliday('2023-11-20'), false);
  assert.equal(isBankHoliday('2026-06-04'), false, 'Corpus Christi counts as a business day');
  assert.equal(isBusinessDay('2026-11-21'), false, 'a Saturday');
  assert.equal(isBusinessDay('2026-11-23'), true);
});

/** A business day by the hand-written list: Monday to Friday and not in it. */
function naiveBusinessDay(date: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday >= 1 && weekday <= 5 && !NO_BANK_DAYS.has(date);
}

test('business-day arithmetic agrees with a naive count over the hand-written calendars (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: DAYS - 60 }), fc.integer({ min: 1, max: 30 }), (offset, count) => {
      const start = addDays(FIRST_DAY, offset);
      let day = start;
      for (let left = count; left > 0;) {
        day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        if (naiveBusinessDay(day)) left--;
      }
      assert.equal(addBusinessDays(start, count), day, `${count} business days after ${start}`);
    }),
    { seed: propertySeed(4201), numRuns: 2000 },
  );
});

test('addBusinessDays across Carnival, Good Friday and Tiradentes', () => {
  assert.equal(addBusinessDays('2026-02-13', 2), '2026-02-19', 'Friday; the weekend and Carnival are skipped');
  assert.equal(addBusinessDays('2026-04-02', 1), '2026-04-06', 'Good Friday and the weekend');
  assert.equal(addBusinessDays('2026-04-20', 1), '2026-04-22', 'Tiradentes');
});

test('a decêndio ends on the 10th, the 20th or the last day of the month (February of a leap year too)', () => {
  assert.equal(decendioEnd('2026-11-01'), '2026-11-10');
  assert.equal(decendioEnd('2026-11-10'), '2026-11-10');
  assert.equal(decendioEnd('2026-11-11'), '2026-11-20');
  assert.equal(decendioEnd('2026-11-21'), '2026-11-30');
  assert.equal(decendioEnd('2028-02-25'), '2028-02-29');
  assert.equal(decendioEnd('2027-02-21'), '2027-02-28');
  assert.equal(decendioEnd('2026-12-31'), '2026-12-31');
});

test('the tax on a prize is due on the 3rd business day after the decêndio of its apuração (Lei 11.196/2005 art. 70, I, b, 2)', () => {
  // 22/11/2026 (Brasília): decêndio 21–30/11, then 1, 2, 3 December.
  assert.equal(prizeTaxDueBy('2026-11-22T13:00:01.000Z'), '2026-12-03');
  // 15/04/2026: decêndio 11–20/04, a Monday; 21/04 is Tiradentes.
  assert.equal(prizeTaxDueBy('2026-04-15T15:00:00.000Z'), '2026-04-24');
  // 23:30 on 10/02/2027 in Brasília is already the 11th in UTC: the day is Brasília's, decêndio 1–10/02, Carnival 8–9/02 before it.
  assert.equal(prizeTaxDueBy('2027-02-11T02:30:00.000Z'), '2027-02-15');
  // 31/12/2026: the decêndio ends that day; 1/1 is a holiday, then a weekend.
  assert.equal(prizeTaxDueBy('2026-12-31T15:00:00.000Z'), '2027-01-06');
});

test('the tax is 20% of the value, to the cent, half up', () => {
  assert.equal(prizeTaxCents(1_599_000), 319_800);
  assert.equal(prizeTaxCents(120_050), 24_010);
  assert.equal(prizeTaxCents(3), 1, '0.6 cent rounds up');
  assert.equal(prizeTaxCents(2), 0, '0.4 cent rounds down');
  assert.equal(prizeTaxCents(0), 0);
});

test("a winner's deadlines count from the apuração's day in Brasília; business days skip the weekend and holidays", () => {
  const calendar = { notify_within: 10, notify_days: 'calendar' as const, deliver_within: 30 };
  assert.deepEqual(deadlinesOf(calendar, '2026-11-22T13:00:01.000Z'), {
    notify_by: '2026-12-02',
    deliver_by: '2026-12-22',
    prescribes_at: '2027-05-21',
  });
  // 23:30 on the 22nd in Brasília: still the 22nd.
  assert.equal(deadlinesOf(calendar, '2026-11-23T02:30:00.000Z').prescribes_at, '2027-05-21');
  assert.equal(brasiliaDate(Date.parse('2026-11-23T02:30:00.000Z')), '2026-11-22');
  // 7 business days after Sunday 22/11/2026: 23, 24, 25, 26, 27, 30/11 and 1/12.
  assert.equal(deadlinesOf({ ...calendar, notify_within: 7, notify_days: 'business' }, '2026-11-22T13:00:01.000Z').notify_by, '2026-12-01');
  // Ending on Friday 20/11/2026 (Consciência Negra) counts 5 business days from Monday 16/11 as 17, 18, 19, 23, 24.
  assert.equal(deadlinesOf({ ...calendar, notify_within: 5, notify_days: 'business' }, '2026-11-16T15:00:00.000Z').notify_by, '2026-11-24');
  assert.equal(deadlinesOf({ ...calendar, deliver_within: 15 }, '2026-11-22T13:00:01.000Z').deliver_by, '2026-12-07');
});

test('a prescribed prize is due to the Tesouro within 10 days; the prestação de contas within 30 of the last prescription', () => {
  assert.equal(treasuryDueBy('2027-05-21'), '2027-05-31');
  assert.equal(filingDueBy(['2027-05-21', '2027-06-02', '2027-04-01']), '2027-07-02');
  assert.equal(filingDueBy([]), null);
});
