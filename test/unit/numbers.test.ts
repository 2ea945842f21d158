// parseDecimal (src/kernel/numbers.ts): the numbers an operator types as options and settings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDecimal } from '../../src/kernel/numbers.ts';

test('decimal numbers written in digits are read, with surrounding spaces and a sign', () => {
  for (const [text, value] of [
    ['0', 0],
    ['50', 50],
    ['32.5', 32.5],
    [' 7 ', 7],
    ['-1', -1],
    ['007', 7],
  ] as const)
    assert.equal(parseDecimal(text), value, text);
  assert.equal(parseDecimal(12), 12);
});

test('blank text, hex, exponents, Infinity and stray characters are NaN, not a number Number() would make of them', () => {
  for (const text of ['', ' ', '0x10', '1e3', 'Infinity', '1.', '.5', '1,5', '5s', '+5', '- 1', '1 2'])
    assert.ok(Number.isNaN(parseDecimal(text)), JSON.stringify(text));
});
