// Formation of the winning number (src/draws/formation.ts,
// docs/operations.md#the-rules-as-ces-applies-them): the DIGITS lists, Caixa's results as typed by
// an operator, and series/element read from five prizes, with the worked examples of real promotion
// plans.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../src/kernel/errors.ts';
import {
  checkDigitLists,
  defaultElementDigits,
  defaultSeriesDigits,
  formatDigitSource,
  formNumber,
  parseDigits,
  parsePrizes,
  type DigitSource,
} from '../../src/draws/formation.ts';

const digits = (list: DigitSource[]): string => list.map(formatDigitSource).join(',');
const ELEMENT = parseDigits('1u,2u,3u,4u,5u', 'element');

/** series/element as the canonical list writes it, for readable expectations. */
function formed(prizes: string[], series: string, seriesCount: number, element = '1u,2u,3u,4u,5u'): string {
  const f = formNumber(parsePrizes(prizes), parseDigits(series, 'series'), parseDigits(element, 'element'), seriesCount);
  const width = Math.max(1, String(seriesCount - 1).length);
  return `${String(f.series).padStart(width, '0')}/${String(f.element).padStart(5, '0')}`;
}

function refusal(code: string, pattern: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof AppError, String(err));
    assert.equal(err.status, 422);
    assert.equal(err.code, code);
    assert.match(err.message, pattern);
    return true;
  };
}

test('Atakarejo 2025: series from the tens of the 1st and 2nd prizes, element from the units of the 1st to 5th', () => {
  assert.equal(formed(['12305', '05437', '13526', '02329', '15458'], '1d,2d', 100), '03/57698');
});

test('Tang: element 10484 from one extraction; series from the tens of the 1st prize in draw 1, of the 2nd in draw 2', () => {
  const prizes = ['20501', '40340', '10534', '27858', '38134'];
  assert.equal(formed(prizes, '1d', 10), '0/10484');
  assert.equal(formed(prizes, '2d', 10), '4/10484');
});

test('the steps of a formation name each item, the digit it gave and the prize it came from', () => {
  const f = formNumber(parsePrizes(['12305', '05437', '13526', '02329', '15458']), parseDigits('1d,2d', 'series'), ELEMENT, 100);
  assert.deepEqual(
    f.series_digits.map((d) => [d.item, d.digit, d.ticket]),
    [
      ['1d', 0, '12305'],
      ['2d', 3, '05437'],
    ],
  );
  assert.deepEqual(
    f.element_digits.map((d) => [d.item, d.digit, d.ticket]),
    [
      ['1u', 5, '12305'],
      ['2u', 7, '05437'],
      ['3u', 6, '13526'],
      ['4u', 9, '02329'],
      ['5u', 8, '15458'],
    ],
  );
  assert.equal(f.series_read, 3);
  assert.equal(f.series_reductions, 0);
});

test('every place of a prize reads its own digit: u units, d tens, c hundreds, m thousands, dm ten-thousands', () => {
  const prizes = ['12345', '67890', '00000', '00000', '00000'];
  for (const [item, digit] of [
    ['1u', 5],
    ['1d', 4],
    ['1c', 3],
    ['1m', 2],
    ['1dm', 1],
    ['2u', 0],
    ['2d', 9],
    ['2c', 8],
    ['2m', 7],
    ['2dm', 6],
  ] as const) {
    const f = formNumber(parsePrizes(prizes), parseDigits(item, 'series'), ELEMENT, 10);
    assert.equal(f.series, digit, item);
    // The same place as the first digit of the element: 10,000 times the digit.
    const e = formNumber(parsePrizes(prizes), [], parseDigits(`${item},=0,=0,=0,=0`, 'element'), 1);
    assert.equal(e.element, digit * 10_000, item);
  }
});

test('a literal =D item gives its digit whatever the prizes are', () => {
  const prizes = ['99999', '99999', '99999', '99999', '99999'];
  assert.equal(formed(prizes, '=0,1d', 100), '09/99999');
  assert.equal(formed(prizes, '=1,=2', 100), '12/99999');
  assert.equal(formed(prizes, '', 1, '=0,=0,=0,=4,=2'), '0/00042');
  const f = formNumber(parsePrizes(prizes), parseDigits('=7', 'series'), ELEMENT, 10);
  assert.deepEqual(f.series_digits, [{ item: '=7', digit: 7, ticket: null }]);
});

test('a series read beyond the range is brought back by subtracting the series count as often as needed', () => {
  for (const { count, series, prizes, read, expected, reductions } of [
    // 200 series: series from the tens of the 1st, 2nd and 3rd prizes, read 873 -> 73.
    { count: 200, series: '1d,2d,3d', prizes: ['11185', '22276', '33334', '44444', '55555'], read: 873, expected: 73, reductions: 4 },
    { count: 200, series: '1d,2d,3d', prizes: ['00000', '00000', '00000', '00000', '00000'], read: 0, expected: 0, reductions: 0 },
    { count: 200, series: '1d,2d,3d', prizes: ['00010', '00090', '00090', '00000', '00000'], read: 199, expected: 199, reductions: 0 },
    { count: 200, series: '1d,2d,3d', prizes: ['00020', '00000', '00000', '00000', '00000'], read: 200, expected: 0, reductions: 1 },
    { count: 200, series: '1d,2d,3d', prizes: ['00090', '00090', '00090', '00000', '00000'], read: 999, expected: 199, reductions: 4 },
    // 7 series, read 9 -> 2.
    { count: 7, series: '1d', prizes: ['00090', '00000', '00000', '00000', '00000'], read: 9, expected: 2, reductions: 1 },
    // 3 series, read 8 -> 2 after two subtractions.
    { count: 3, series: '1d', prizes: ['00080', '00000', '00000', '00000', '00000'], read: 8, expected: 2, reductions: 2 },
    // 150 series, read 99 stays.
    { count: 150, series: '1d,2d,3d', prizes: ['00000', '00090', '00090', '00000', '00000'], read: 99, expected: 99, reductions: 0 },
  ]) {
    const f = formNumber(parsePrizes(prizes), parseDigits(series, 'series'), ELEMENT, count);
    assert.deepEqual([f.series_read, f.series, f.series_reductions], [read, expected, reductions], `${count} series, read ${read}`);
  }
});

test('10 series from the tens of the 1st prize never reduce', () => {
  for (let tens = 0; tens <= 9; tens++) {
    const f = formNumber(parsePrizes([`000${tens}0`, '00000', '00000', '00000', '00000']), parseDigits('1d', 'series'), ELEMENT, 10);
    assert.deepEqual([f.series, f.series_reductions], [tens, 0]);
  }
});

test('a single series forms series 0 from an empty --series list', () => {
  assert.equal(formed(['12345', '23456', '34567', '45678', '56789'], '', 1), '0/56789');
});

test('the default --series is the tens of the 1st..k-th prizes, k the digits of series_count - 1 (none for one series)', () => {
  for (const [count, expected] of [
    [1, ''],
    [2, '1d'],
    [10, '1d'],
    [11, '1d,2d'],
    [100, '1d,2d'],
    [101, '1d,2d,3d'],
    [200, '1d,2d,3d'],
    [1000, '1d,2d,3d'],
    [1001, '1d,2d,3d,4d'],
  ] as const)
    assert.equal(digits(defaultSeriesDigits(count)), expected, `${count} series`);
});

test('the default --element is the units of the 1st to 5th prizes', () => {
  assert.equal(digits(defaultElementDigits()), '1u,2u,3u,4u,5u');
});

test('a DIGITS list is read left to right, trimmed and case-insensitive', () => {
  assert.equal(digits(parseDigits(' 1D , 2dm,=3 ', 'series')), '1d,2dm,=3');
  assert.deepEqual(parseDigits('', 'series'), []);
  assert.deepEqual(parseDigits('5c', 'series'), [{ kind: 'prize', prize: 5, place: 'c' }]);
});

test('a DIGITS item that is neither <prize><place> nor =D is refused, naming the flag and the item', () => {
  for (const [list, item] of [
    ['6u', 1],
    ['0d', 1],
    ['1d,1x', 2],
    ['1d,,2d', 2],
    ['=12', 1],
    ['=', 1],
    ['1', 1],
    ['u1', 1],
    ['1d;2d', 1],
  ] as const)
    assert.throws(() => parseDigits(list, 'series'), refusal('invalid_option', new RegExp(`^\`series\` item ${item} `)), list);
});

test('the digit lists must fit the campaign: 5 element items, series items for several series, none for one', () => {
  const series = (s: string) => parseDigits(s, 'series');
  checkDigitLists(series('1d,2d'), ELEMENT, 100);
  checkDigitLists(series(''), ELEMENT, 1);
  checkDigitLists(series('1d,2d,3d,4d,5d,=0'), ELEMENT, 1_000_000);
  assert.throws(
    () => checkDigitLists(series('1d'), ELEMENT.slice(0, 4), 10),
    refusal('invalid_option', /`element` must have exactly 5 items, got 4/),
  );
  assert.throws(
    () => checkDigitLists(series('1d'), [...ELEMENT, ...series('=0')], 10),
    refusal('invalid_option', /`element` must have exactly 5 items, got 6/),
  );
  assert.throws(() => checkDigitLists(series(''), ELEMENT, 10), refusal('invalid_option', /`series` must have at least one item/));
  assert.throws(() => checkDigitLists(series('1d'), ELEMENT, 1), refusal('invalid_option', /`series` must be empty/));
  assert.throws(() => checkDigitLists(series('1d,2d,3d,4d,5d,1u,2u'), ELEMENT, 100), refusal('invalid_option', /at most 6 items, got 7/));
  // Series 10..199 could never be formed from one digit: their holders would never be drawn directly.
  assert.throws(
    () => checkDigitLists(series('1d'), ELEMENT, 200),
    refusal('invalid_option', /at least 3 items to reach every one of the 200 series, got 1/),
  );
  assert.throws(() => checkDigitLists(series('1d'), ELEMENT, 11), refusal('invalid_option', /at least 2 items/));
});

test("Caixa's 6-character form with a leading 0 is read as the 5-digit ticket", () => {
  assert.deepEqual(parsePrizes(['050366', '12305', '000000', ' 099999 ', '00001']), ['50366', '12305', '00000', '99999', '00001']);
});

test('a bad prize is refused with a message naming it', () => {
  const ok = ['12305', '05437', '13526', '02329', '15458'];
  for (const [at, value] of [
    [0, '1234567'],
    [1, '150366'],
    [2, '5O366'],
    [3, ''],
    [4, '1234'],
    [4, '12 34'],
    [0, '-1234'],
    [1, '0050366'],
  ] as const) {
    const prizes = [...ok];
    prizes[at] = value;
    assert.throws(() => parsePrizes(prizes), refusal('invalid_results', new RegExp(`^prize ${at + 1} \\(`)), `${at + 1}: ${value}`);
  }
});

test('an extraction has exactly five prizes: four or six are refused', () => {
  const ok = ['12305', '05437', '13526', '02329', '15458'];
  assert.throws(() => parsePrizes(ok.slice(0, 4)), refusal('invalid_results', /exactly 5 prizes \(1st to 5th\), got 4/));
  assert.throws(() => parsePrizes([...ok, '12345']), refusal('invalid_results', /exactly 5 prizes \(1st to 5th\), got 6/));
  assert.throws(() => parsePrizes([]), refusal('invalid_results', /got 0/));
});
