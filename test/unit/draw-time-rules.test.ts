// The order of time of a draw (src/draws/time-rules.ts, docs/operations.md#the-order-of-time), in
// Brasília time: the extraction at 19:00 America/Sao_Paulo on its date; a draw created and frozen
// before it; results dated on or after the planned extraction, never after today, later only with
// a reason. The zone's dates come from the zone database: the tests include dates of Brazil's
// daylight saving time (abolished in 2019), when 19:00 was 21:00Z, not 22:00Z.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertBeforeExtraction, checkResultsDate, extractionStartsAt } from '../../src/draws/time-rules.ts';
import { brasiliaDate } from '../../src/tools/brazil-calendar.ts';
import { AppError } from '../../src/kernel/errors.ts';

const at = (iso: string): number => Date.parse(iso);

function refusal(run: () => unknown): { status: number; code: string; message: string; fields: string[] } | null {
  try {
    run();
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return { status: error.status, code: error.code, message: error.message, fields: (error.errors ?? []).map((e) => e.field) };
  }
}

test('an extraction is held at 19:00 in Brasília, from the zone database (UTC-2 in the summers before 2019)', () => {
  assert.equal(new Date(extractionStartsAt('2026-12-02')).toISOString(), '2026-12-02T22:00:00.000Z');
  assert.equal(new Date(extractionStartsAt('2023-01-18')).toISOString(), '2023-01-18T22:00:00.000Z');
  // 18/01/2017: Brazil's daylight saving time, UTC-2.
  assert.equal(new Date(extractionStartsAt('2017-01-18')).toISOString(), '2017-01-18T21:00:00.000Z');
  assert.equal(new Date(extractionStartsAt('2017-07-19')).toISOString(), '2017-07-19T22:00:00.000Z');
});

test("the date in Brasília is the zone's, not UTC's", () => {
  assert.equal(brasiliaDate(at('2026-12-03T02:59:59Z')), '2026-12-02');
  assert.equal(brasiliaDate(at('2026-12-03T03:00:00Z')), '2026-12-03');
  assert.equal(brasiliaDate(at('2017-01-19T01:59:59Z')), '2017-01-18');
  assert.equal(brasiliaDate(at('2017-01-19T02:00:00Z')), '2017-01-19');
});

// [now, planned date, refused]
const BEFORE: Array<[string, string | null, boolean]> = [
  ['2026-12-02T21:59:59Z', '2026-12-02', false],
  ['2026-12-02T22:00:00Z', '2026-12-02', true],
  ['2030-01-01T00:00:00Z', '2026-12-02', true],
  ['2030-01-01T00:00:00Z', null, false],
];
for (const step of ['create', 'freeze'] as const)
  for (const [now, planned, refused] of BEFORE)
    test(`${step} at ${now}, extraction planned ${planned ?? 'never (a draw from before)'}: ${refused ? 'refused' : 'allowed'}`, () => {
      const r = refusal(() => assertBeforeExtraction(at(now), planned, step));
      if (!refused) return assert.equal(r, null);
      assert.equal(r?.status, 409);
      assert.equal(r.code, 'draw_extraction_passed');
      assert.match(r.message, /`extraction_date` 2026-12-02 19:00 \(Brasília\)\) has already been held/);
    });

const NOW = at('2026-12-05T15:00:00Z'); // 12:00 on 05/12 in Brasília
// [date, planned, reason, code or 'on time' / 'postponed']
const RESULTS: Array<[string, string | null, string | null, string]> = [
  ['2026-12-02', '2026-12-02', null, 'on time'],
  ['2026-12-05', '2026-12-02', 'Extração adiada pela Caixa', 'postponed'],
  ['2026-12-05', '2026-12-02', null, 'postponement_reason_required'],
  ['2026-11-28', '2026-12-02', 'earlier', 'extraction_before_planned'],
  ['2026-12-06', '2026-12-02', 'tomorrow', 'extraction_in_future'],
  ['2030-01-01', '2026-12-02', 'the issue: dated 2030', 'extraction_in_future'],
  ['2030-01-01', null, null, 'extraction_in_future'],
  ['2026-11-28', null, null, 'on time'],
];
for (const [date, planned, reason, expected] of RESULTS)
  test(`results of ${date}, planned ${planned ?? 'never'}${reason ? ', with a reason' : ''}: ${expected}`, () => {
    let postponed: boolean | undefined;
    const r = refusal(() => (postponed = checkResultsDate({ date, planned, nowMs: NOW, reason })));
    if (expected === 'on time' || expected === 'postponed') {
      assert.equal(r, null);
      return assert.equal(postponed, expected === 'postponed');
    }
    assert.equal(r?.status, 422);
    assert.equal(r.code, expected);
    assert.deepEqual(r.fields, [expected === 'postponement_reason_required' ? 'reason' : 'date']);
    assert.doesNotMatch(r.message, /--[a-z]|\bces [a-z]/);
  });

test('today is Brasília’s: at 23:30 on 05/12 in Brasília (02:30Z on 06/12) results of 06/12 are still in the future', () => {
  const r = refusal(() => checkResultsDate({ date: '2026-12-06', planned: null, nowMs: at('2026-12-06T02:30:00Z'), reason: null }));
  assert.equal(r?.code, 'extraction_in_future');
  assert.match(r.message, /today is 2026-12-05 in Brasília/);
});
