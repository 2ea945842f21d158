// makePrintable (src/tools/printable.ts): untrusted JSON can be turned into text, as superstruct does to
// word its messages, without a throw, however it is nested, and without changing its data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PRINT_DEPTH, makePrintable } from '../../src/tools/printable.ts';

const nested = (levels: number, open: string, close: string, inner = '1'): unknown =>
  JSON.parse(open.repeat(levels) + inner + close.repeat(levels));

test('an object with its own toString or valueOf key prints as [object Object]', () => {
  const value = JSON.parse('{"a":{"toString":1},"b":[{"valueOf":"x"}]}') as { a: object; b: object[] };
  assert.throws(() => `${value.a}`, TypeError);
  makePrintable(value);
  assert.equal(`${value.a}`, '[object Object]');
  assert.equal(`${value.b}`, '[object Object]');
  assert.equal(JSON.stringify(value), '{"a":{"toString":1},"b":[{"valueOf":"x"}]}');
});

test('arrays nested 30,000 deep (a body within the 64 KiB limit) print without overflowing the stack', () => {
  const value = nested(30_000, '[', ']');
  assert.throws(() => `${value}`, RangeError);
  makePrintable(value);
  assert.equal(`${value}`, '[...]');
  let inner = value;
  for (let i = 0; i < 30_000; i++) inner = (inner as unknown[])[0];
  assert.equal(inner, 1);
});

test('arrays up to the print depth print as before, deeper ones as [...]', () => {
  const shallow = JSON.parse('[[1,2],[3,[4]],"a"]');
  makePrintable(shallow);
  assert.equal(`${shallow}`, '1,2,3,4,a');
  const atLimit = nested(MAX_PRINT_DEPTH, '[', ']');
  makePrintable(atLimit);
  assert.equal(`${atLimit}`, '1');
  const beyond = nested(MAX_PRINT_DEPTH + 1, '[', ']');
  makePrintable(beyond);
  assert.equal(`${beyond}`, '[...]');
});

test('the walk reaches objects 100,000 levels down without recursing', () => {
  const value = nested(100_000, '{"a":', '}', '{"toString":1}');
  makePrintable(value);
  let inner = value as Record<string, unknown>;
  for (let i = 0; i < 100_000; i++) inner = inner.a as Record<string, unknown>;
  assert.equal(`${inner}`, '[object Object]');
});
