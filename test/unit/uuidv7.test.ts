// Time-ordered ids: RFC 9562 version 7, the millisecond time first, so ids sort by creation time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cryptoRandom, seededRandom, uuidv7 } from '../../src/kernel/random.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('version 7, RFC 9562 variant, the Unix milliseconds in the first 48 bits', () => {
  const at = Date.parse('2026-11-22T06:30:00.123Z');
  const id = uuidv7(cryptoRandom, at);
  assert.match(id, V7);
  assert.equal(parseInt(id.replaceAll('-', '').slice(0, 12), 16), at);
});

test('ids of later milliseconds sort after earlier ones, whatever their random bits', () => {
  const random = seededRandom(3);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const ids = Array.from({ length: 500 }, (_, i) => uuidv7(random, start + i * 7));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});

test('the same random source and time give the same id (group-commit re-runs, seeded tests)', () => {
  assert.equal(uuidv7(seededRandom(9), 1_700_000_000_000), uuidv7(seededRandom(9), 1_700_000_000_000));
});
