// The frozen set's text and storage (docs/operations.md#the-steps) do not depend on how they are
// cut: the canonical list comes in chunks of whole lines that add up to one line per number in
// order, and a series is stored as whichever of bitmap, gaps and missing elements' gaps is
// smallest, read back to the same set.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  canonicalChunks,
  canonicalPrefix,
  canonicalSeriesChunks,
  canonicalSha256,
  encodeBitmap,
  ENCODING_BITMAP,
  ENCODING_GAPS,
  ENCODING_MISSING_GAPS,
  formatNumber,
  NumberSet,
} from '../../src/draws/number-set.ts';
import { seededRandom } from '../../src/kernel/random.ts';

function randomSet(seriesCount: number, perSeries: number[], seed: number): NumberSet {
  const random = seededRandom(seed);
  const set = new NumberSet(seriesCount);
  perSeries.forEach((n, series) => {
    while (set.count < perSeries.slice(0, series + 1).reduce((a, b) => a + b, 0)) set.add(series, random.int(100_000));
  });
  return set;
}

test('the canonical chunks end on whole lines and add up to one line per number, ascending', () => {
  const set = randomSet(12, [0, 1, 9_999, 10_000, 10_001, 25_000, 100_000, 3], 1);
  const chunks = [...canonicalChunks(set)];
  assert.ok(chunks.length > set.series().length, 'a large series comes in more than one chunk');
  for (const chunk of chunks) assert.equal(chunk.at(-1), 0x0a);
  const text = Buffer.concat(chunks).toString('latin1');
  const expected = [...set.numbers()].map(([s, e]) => `${formatNumber(s, e, 12)}\n`).join('');
  assert.equal(text, expected);
  assert.equal(canonicalSha256(set), createHash('sha256').update(expected).digest('hex'));
});

test('a series is stored as the smallest of its bitmap, its gaps and its missing elements, and read back unchanged', () => {
  // 12,500 numbers and more: a bitmap (a byte a gap at least); a few hundred: gaps; full: nothing missing.
  const set = randomSet(4, [300, 12_499, 12_500, 100_000], 2);
  const parts = set.encode();
  assert.deepEqual(
    parts.map((p) => [p.series, p.count]),
    [
      [0, 300],
      [1, 12_499],
      [2, 12_500],
      [3, 100_000],
    ],
  );
  assert.equal(parts[0]!.encoding, ENCODING_GAPS);
  assert.equal(parts[2]!.encoding, ENCODING_BITMAP);
  assert.deepEqual([parts[3]!.encoding, parts[3]!.data.length], [ENCODING_MISSING_GAPS, 0]);
  for (const p of parts) assert.ok(p.data.length <= 12_500);
  const back = NumberSet.decode(4, parts);
  assert.equal(back.count, set.count);
  assert.equal(canonicalSha256(back), canonicalSha256(set));
});

test("canonicalSeriesChunks' source alone, as the freeze's thread evaluates it, writes the same list", () => {
  const set = randomSet(12, [0, 1, 99_999, 40_000, 100_000, 7], 3);
  const isolated = new Function(`return ${canonicalSeriesChunks.toString()}`)() as typeof canonicalSeriesChunks;
  const parts: Uint8Array[] = [];
  for (const s of set.series())
    parts.push(...isolated(Buffer.from(canonicalPrefix(s, set.seriesCount), 'latin1'), set.bitmapOf(s)!, 1_000));
  assert.equal(Buffer.concat(parts).toString('latin1'), Buffer.concat([...canonicalChunks(set)]).toString('latin1'));
  assert.ok(parts.length > 40, 'chunks of 1,000 lines');
});

test("encodeBitmap's source alone, as the freeze's thread evaluates it, stores every series as NumberSet.encode does", () => {
  const set = randomSet(6, [1, 300, 12_500, 60_000, 99_000, 100_000], 4);
  const isolated = new Function(`return ${encodeBitmap.toString()}`)() as typeof encodeBitmap;
  const parts = set.series().map((series) => ({ series, ...isolated(set.bitmapOf(series)!) }));
  assert.deepEqual(parts, set.encode());
  assert.deepEqual(
    parts.map((p) => p.encoding),
    [ENCODING_GAPS, ENCODING_GAPS, ENCODING_BITMAP, ENCODING_BITMAP, ENCODING_MISSING_GAPS, ENCODING_MISSING_GAPS],
  );
});
