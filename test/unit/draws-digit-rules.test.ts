// The digit rules that cannot fix the result (src/draws/digit-rules.ts): each refusal's code, the
// field it names and the rule in its words; the lists real plans use pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigitRules } from '../../src/draws/digit-rules.ts';
import { parseDigits } from '../../src/draws/formation.ts';
import { AppError } from '../../src/kernel/errors.ts';

const check = (series: string, element: string, seriesCount: number): void =>
  checkDigitRules(parseDigits(series, 'series'), parseDigits(element, 'element'), seriesCount);

function refusal(code: string, field: string, message: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 422);
    assert.equal(error.code, code);
    assert.deepEqual(
      error.errors?.map((e) => e.field),
      [field],
    );
    assert.match(error.message, message);
    return true;
  };
}

test('lists real plans use pass: the defaults, a fixed leading series digit, other places of the prizes', () => {
  for (const [series, element, count] of [
    ['', '1u,2u,3u,4u,5u', 1],
    ['1d', '1u,2u,3u,4u,5u', 10],
    ['1d,2d', '1u,2u,3u,4u,5u', 100],
    ['=0,1d,2d', '1u,2u,3u,4u,5u', 200],
    ['1c,1d', '1u,2u,3u,4u,5u', 100],
    ['=1,=2,1m', '5dm,4u,3d,2c,1u', 1000],
  ] as const)
    assert.doesNotThrow(() => check(series, element, count), `${series} / ${element}`);
});

test('the element is five prize digits: a literal is refused, draw_element_literal on element_digits', () => {
  assert.throws(
    () => check('=0,=0,=7', '=1,=2,=3,=4,=5', 1000),
    refusal('draw_element_literal', 'element_digits', /item 1 \(=1\) is a fixed digit/),
  );
  assert.throws(() => check('1d', '1u,2u,3u,4u,=7', 10), refusal('draw_element_literal', 'element_digits', /item 5 \(=7\)/));
});

test('no (prize, place) pair is read twice, in the element or across series and element: draw_digit_repeated', () => {
  assert.throws(
    () => check('', '1u,1u,1u,1u,1u', 1),
    refusal(
      'draw_digit_repeated',
      'element_digits',
      /`element_digits` item 2 \(1u\) reads the same digit of the same prize as `element_digits` item 1/,
    ),
  );
  assert.throws(() => check('1d,1d', '1u,2u,3u,4u,5u', 100), refusal('draw_digit_repeated', 'series_digits', /item 2 \(1d\)/));
  assert.throws(
    () => check('5u', '1u,2u,3u,4u,5u', 10),
    refusal('draw_digit_repeated', 'element_digits', /`element_digits` item 5 \(5u\) .* `series_digits` item 1/),
  );
});

test('more than one series: at least one prize digit in the series, draw_series_fixed', () => {
  assert.throws(
    () => check('=3', '1u,2u,3u,4u,5u', 10),
    refusal('draw_series_fixed', 'series_digits', /only fixed digits: with 10 series/),
  );
  assert.throws(() => check('=0,=4', '1u,2u,3u,4u,5u', 50), refusal('draw_series_fixed', 'series_digits', /with 50 series/));
});
