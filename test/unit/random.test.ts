// The random sources (src/kernel/random.ts): the pooled node:crypto source and streamRandom, the per-write
// stream intake's writes draw their ids from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cryptoRandom, seededRandom, streamRandom } from '../../src/kernel/random.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('streamRandom: the same seed gives the same values, in the same order, whatever is drawn', () => {
  const seed = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const draw = () => {
    const r = streamRandom(seed);
    return [r.uuid(), r.int(1000), r.bytes(5).toString('hex'), r.uuid(), r.int(2 ** 48)];
  };
  const first = draw();
  assert.deepEqual(draw(), first);
  assert.match(first[0] as string, UUID_V4);
  assert.notEqual(first[0], first[3]);
  // The seed is not reused in place: the caller's buffer is unchanged.
  assert.equal(seed.toString('hex'), '00112233445566778899aabbccddeeff');
});

test('streamRandom: different seeds give different streams; an all-zero seed still gives a live one', () => {
  const a = streamRandom(Buffer.alloc(16)).bytes(32);
  const b = streamRandom(Buffer.from([1, ...Array(15).fill(0)])).bytes(32);
  assert.notDeepEqual(a, b);
  assert.ok(a.some((x) => x !== 0));
  assert.throws(() => streamRandom(Buffer.alloc(8)), RangeError);
});

test('streamRandom.int is uniform over its range and refuses ranges it cannot serve', () => {
  const r = streamRandom(seededRandom(9).bytes(16));
  const counts = Array.from({ length: 7 }, () => 0);
  const n = 70_000;
  for (let i = 0; i < n; i++) counts[r.int(7)]++;
  // Each bucket expects 10,000; 5 standard deviations is about ±450.
  for (const c of counts) assert.ok(Math.abs(c - n / 7) < 500, `bucket count ${c}`);
  for (let i = 0; i < 1000; i++) {
    const v = r.int(3);
    assert.ok(Number.isInteger(v) && v >= 0 && v < 3);
  }
  assert.throws(() => r.int(0), RangeError);
  assert.throws(() => r.int(2 ** 48 + 1), RangeError);
});

test('cryptoRandom.bytes hands out fresh bytes of the asked length, across pool refills', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    const b = cryptoRandom.bytes(16);
    assert.equal(b.length, 16);
    seen.add(b.toString('hex'));
  }
  assert.equal(seen.size, 1000);
  assert.equal(cryptoRandom.bytes(1000).length, 1000);
  // A returned buffer is a copy: changing it changes no later draw.
  const x = cryptoRandom.bytes(8);
  x.fill(0);
  assert.notDeepEqual(cryptoRandom.bytes(8), Buffer.alloc(8));
});
