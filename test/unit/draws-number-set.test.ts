// The frozen set of a draw (src/draws/number-set.ts, docs/operations.md#the-steps): per-series
// bitmaps, stored as the bitmap, the gaps or the missing elements' gaps, whichever is smallest,
// checked against a naive encoder that lists every element; and the canonical list with its
// SHA-256. The canonical text is rebuilt here naively, line by line, to check the byte writer.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  canonicalChunks,
  canonicalSeriesWidth,
  canonicalSha256,
  ENCODING_BITMAP,
  ENCODING_GAPS,
  ENCODING_MISSING_GAPS,
  formatNumber,
  NumberSet,
  type EncodedSeries,
} from '../../src/draws/number-set.ts';

function setOf(seriesCount: number, numbers: Array<[number, number]>): NumberSet {
  const set = new NumberSet(seriesCount);
  for (const [s, e] of numbers) set.add(s, e);
  return set;
}

/** The canonical list as docs/operations.md#the-steps words it, built without the set's byte writer. */
function naiveCanonicalText(seriesCount: number, numbers: Array<[number, number]>): string {
  const width = Math.max(1, String(seriesCount - 1).length);
  const unique = [...new Set(numbers.map(([s, e]) => s * 100_000 + e))].sort((a, b) => a - b);
  return unique.map((n) => `${String(Math.floor(n / 100_000)).padStart(width, '0')}/${String(n % 100_000).padStart(5, '0')}\n`).join('');
}

const canonicalText = (set: NumberSet): string => Buffer.concat([...canonicalChunks(set)]).toString('latin1');
const range = (from: number, to: number, step = 1): number[] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

test('a number is held once: adding it again does not count it twice', () => {
  const set = setOf(3, [
    [1, 5],
    [1, 5],
    [0, 99_999],
    [2, 0],
  ]);
  assert.equal(set.count, 3);
  assert.ok(set.has(1, 5) && set.has(0, 99_999) && set.has(2, 0));
  assert.ok(!set.has(1, 4) && !set.has(1, 6) && !set.has(0, 0));
  assert.deepEqual(set.series(), [0, 1, 2]);
  assert.deepEqual(
    [...set.numbers()],
    [
      [0, 99_999],
      [1, 5],
      [2, 0],
    ],
  );
});

test('a number outside the series range or outside 00000..99999 is refused', () => {
  const set = new NumberSet(10);
  for (const [s, e] of [
    [10, 0],
    [-1, 0],
    [0, 100_000],
    [0, -1],
    [0.5, 0],
    [0, 1.5],
  ] as const)
    assert.throws(() => set.add(s, e), RangeError, `${s}/${e}`);
  assert.equal(set.count, 0);
});

test('next and previous within a series cross byte boundaries and stop at 00000 and 99999', () => {
  const set = setOf(2, [
    [0, 0],
    [0, 7],
    [0, 8],
    [0, 4_000],
    [0, 99_999],
  ]);
  for (const [from, next] of [
    [0, 0],
    [1, 7],
    [8, 8],
    [9, 4_000],
    [4_001, 99_999],
    [-5, 0],
    [100_000, -1],
  ] as const)
    assert.equal(set.nextInSeries(0, from), next, `next from ${from}`);
  for (const [from, prev] of [
    [99_999, 99_999],
    [99_998, 4_000],
    [3_999, 8],
    [7, 7],
    [6, 0],
    [0, 0],
    [-1, -1],
    [250_000, 99_999],
  ] as const)
    assert.equal(set.prevInSeries(0, from), prev, `prev from ${from}`);
  assert.equal(set.nextInSeries(1, 0), -1, 'an empty series');
  assert.equal(set.prevInSeries(1, 99_999), -1, 'an empty series');
  assert.ok(!set.hasSeries(1));
});

test('a sparse series is stored as LEB128 gaps: 1 byte below 128, 2 below 16,384, 3 above', () => {
  const [part] = setOf(1, [
    [0, 0],
    [0, 200],
    [0, 99_999],
  ]).encode();
  // Gaps from -1: 1, 200, 99,799 (0x185D7).
  assert.deepEqual(part, { series: 0, encoding: ENCODING_GAPS, count: 3, data: Uint8Array.from([0x01, 0xc8, 0x01, 0xd7, 0x8b, 0x06]) });
});

test('gaps at the byte boundaries (127/128, 16,383/16,384) take 1, 2, 2 and 3 bytes and decode back', () => {
  // Elements 126, 254, 16,637 and 33,021: gaps 127, 128, 16,383 and 16,384 from -1.
  const set = setOf(1, [
    [0, 126],
    [0, 254],
    [0, 16_637],
    [0, 33_021],
  ]);
  const parts = set.encode();
  assert.deepEqual(parts, [
    { series: 0, encoding: ENCODING_GAPS, count: 4, data: Uint8Array.from([0x7f, 0x80, 0x01, 0xff, 0x7f, 0x80, 0x80, 0x01]) },
  ]);
  assert.deepEqual([...NumberSet.decode(1, parts).numbers()], [...set.numbers()]);
});

test('a series is stored as whichever is smaller: 12,499 one-byte gaps as gaps, 12,500 as the 12,500-byte bitmap', () => {
  const gaps = setOf(
    1,
    range(0, 12_498).map((e) => [0, e]),
  ).encode()[0]!;
  assert.equal(gaps.encoding, ENCODING_GAPS);
  assert.equal(gaps.data.length, 12_499);
  const bitmap = setOf(
    1,
    range(0, 12_499).map((e) => [0, e]),
  ).encode()[0]!;
  assert.equal(bitmap.encoding, ENCODING_BITMAP);
  assert.equal(bitmap.data.length, 12_500);
  assert.equal(bitmap.count, 12_500);
  // Every eighth element: 12,500 numbers whose gaps of 8 take one byte each, so the bitmap is kept.
  assert.equal(
    setOf(
      1,
      range(0, 99_999, 8).map((e) => [0, e]),
    ).encode()[0]!.encoding,
    ENCODING_BITMAP,
  );
  // Every 128th: 782 gaps of 2 bytes.
  const wide = setOf(
    1,
    range(0, 99_999, 128).map((e) => [0, e]),
  ).encode()[0]!;
  assert.deepEqual([wide.encoding, wide.count, wide.data.length], [ENCODING_GAPS, 782, 1 + 781 * 2]);
});

test('encode then decode gives back the same numbers, series by series, whatever the encoding', () => {
  const numbers: Array<[number, number]> = [
    ...range(0, 99_999).map((e): [number, number] => [0, e]),
    [3, 0],
    [3, 99_999],
    ...range(50_000, 70_000, 3).map((e): [number, number] => [7, e]),
    [199, 12_345],
  ];
  const set = setOf(200, numbers);
  const parts = set.encode();
  assert.deepEqual(
    parts.map((p) => [p.series, p.encoding, p.count]),
    [
      [0, ENCODING_MISSING_GAPS, 100_000],
      [3, ENCODING_GAPS, 2],
      [7, ENCODING_GAPS, 6_667],
      [199, ENCODING_GAPS, 1],
    ],
  );
  assert.equal(parts[0]!.data.length, 0, 'a full series lacks nothing: no bytes');
  const back = NumberSet.decode(200, parts);
  assert.equal(back.count, set.count);
  assert.deepEqual([...back.numbers()], [...set.numbers()]);
  assert.deepEqual(back.encode(), parts);
  assert.equal(canonicalSha256(back), canonicalSha256(set));
});

test('a series missing few elements is stored as their gaps; half full, as its bitmap', () => {
  // Missing 0, 200 and 99,999: gaps 1, 200, 99,799, as a sparse series with those elements would be.
  const missing = new Set([0, 200, 99_999]);
  const [part] = setOf(
    1,
    range(0, 99_999)
      .filter((e) => !missing.has(e))
      .map((e) => [0, e]),
  ).encode();
  assert.deepEqual(part, {
    series: 0,
    encoding: ENCODING_MISSING_GAPS,
    count: 99_997,
    data: Uint8Array.from([0x01, 0xc8, 0x01, 0xd7, 0x8b, 0x06]),
  });
  const back = NumberSet.decode(1, [part!]);
  assert.equal(back.count, 99_997);
  assert.ok(!back.has(0, 0) && back.has(0, 1) && !back.has(0, 200) && back.has(0, 99_998) && !back.has(0, 99_999));
  // 12,499 missing (one-byte gaps) as their gaps, 12,500 missing as the bitmap, half full as the bitmap.
  const lacking = (n: number) =>
    setOf(
      1,
      range(n, 99_999).map((e) => [0, e]),
    ).encode()[0]!;
  assert.deepEqual([lacking(12_499).encoding, lacking(12_499).data.length], [ENCODING_MISSING_GAPS, 12_499]);
  assert.deepEqual([lacking(12_500).encoding, lacking(12_500).data.length], [ENCODING_BITMAP, 12_500]);
  assert.equal(lacking(50_000).encoding, ENCODING_BITMAP);
});

/** The smallest encoding, found naively: every element listed, each list's LEB128 bytes counted. */
function naiveEncodedSize(elements: ReadonlySet<number>): { encoding: number; bytes: number } {
  const leb = (list: number[]) =>
    list.reduce((n, e, i) => n + Math.ceil(Math.max(1, (e - (i === 0 ? -1 : list[i - 1]!)).toString(2).length) / 7), 0);
  const held = range(0, 99_999).filter((e) => elements.has(e));
  const lacking = range(0, 99_999).filter((e) => !elements.has(e));
  const options = [
    { encoding: ENCODING_GAPS, bytes: leb(held) },
    { encoding: ENCODING_MISSING_GAPS, bytes: leb(lacking) },
    { encoding: ENCODING_BITMAP, bytes: 12_500 },
  ];
  // Ties: gaps before missing gaps before the bitmap; a list only when it is under 12,500 bytes.
  return options.filter((o) => o.encoding === ENCODING_BITMAP || o.bytes < 12_500).sort((a, b) => a.bytes - b.bytes)[0]!;
}

test('random series of every density take the smallest encoding and decode back', () => {
  let x = 7;
  const next = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31);
  for (const density of [0.00005, 0.001, 0.05, 0.12, 0.125, 0.13, 0.5, 0.87, 0.875, 0.88, 0.95, 0.999, 0.99995]) {
    const elements = new Set(range(0, 99_999).filter(() => next() / 2 ** 31 < density));
    if (elements.size === 0) elements.add(next() % 100_000);
    const set = setOf(
      2,
      [...elements].map((e) => [1, e]),
    );
    const [part] = set.encode();
    const naive = naiveEncodedSize(elements);
    assert.deepEqual([part!.encoding, part!.data.length], [naive.encoding, naive.bytes], `density ${density}`);
    const back = NumberSet.decode(2, [part!]);
    assert.equal(back.count, elements.size, `density ${density}`);
    assert.deepEqual(
      [...back.numbers()].map(([, e]) => e),
      [...elements].sort((a, b) => a - b),
      `density ${density}`,
    );
  }
});

test('decode refuses missing gaps that leave the series or repeat an element, and a cut-short gap', () => {
  // Gap 100,001 from -1: element 100,000.
  assert.throws(
    () => NumberSet.decode(1, [{ series: 0, encoding: ENCODING_MISSING_GAPS, count: 99_999, data: Uint8Array.from([0xa1, 0x8d, 0x06]) }]),
    /series 0: missing element 100000 is outside 0..99999/,
  );
  // Gaps 1 and 0: element 0 missing twice, so one number fewer is missing than the count says.
  assert.throws(
    () => NumberSet.decode(1, [{ series: 0, encoding: ENCODING_MISSING_GAPS, count: 99_998, data: Uint8Array.from([0x01, 0x00]) }]),
    /series 0: stored count 99998 does not match/,
  );
  assert.throws(
    () => NumberSet.decode(1, [{ series: 0, encoding: ENCODING_GAPS, count: 1, data: Uint8Array.from([0x81]) }]),
    /series 0: a gap is cut short/,
  );
  assert.throws(
    () => NumberSet.decode(1, [{ series: 1, encoding: ENCODING_MISSING_GAPS, count: 100_000, data: new Uint8Array(0) }]),
    /series 1 is outside 0..0/,
  );
});

test('an empty set encodes to nothing and decodes to an empty set', () => {
  const set = new NumberSet(5);
  assert.deepEqual(set.encode(), []);
  assert.equal(NumberSet.decode(5, []).count, 0);
});

test('decode refuses a series whose stored count does not match its numbers', () => {
  const set = setOf(10, [[2, 10], [2, 20], ...range(0, 99_999, 2).map((e): [number, number] => [5, e])]);
  const [gaps, bitmap] = set.encode() as [EncodedSeries, EncodedSeries];
  assert.equal(gaps.encoding, ENCODING_GAPS);
  assert.equal(bitmap.encoding, ENCODING_BITMAP);
  assert.throws(() => NumberSet.decode(10, [{ ...gaps, count: 3 }]), /series 2: stored count 3 does not match/);
  assert.throws(
    () => NumberSet.decode(10, [{ ...gaps, data: new Uint8Array(0) }]),
    /series 2: stored count \d+ does not match/,
    'a series whose data is gone',
  );
  assert.throws(() => NumberSet.decode(10, [{ ...bitmap, count: 49_999 }]), /series 5: stored count 49999 does not match/);
  assert.throws(() => NumberSet.decode(10, [{ ...bitmap, data: bitmap.data.subarray(1) }]), /series 5: a bitmap of 12499 bytes/);
});

test('the canonical list pads the series to the digits of series_count - 1, at least 1', () => {
  for (const [count, width, line] of [
    [1, 1, '0/00042'],
    [2, 1, '0/00042'],
    [10, 1, '0/00042'],
    [11, 2, '00/00042'],
    [100, 2, '00/00042'],
    [101, 3, '000/00042'],
    [1000, 3, '000/00042'],
    [1001, 4, '0000/00042'],
  ] as const) {
    assert.equal(canonicalSeriesWidth(count), width, `${count} series`);
    assert.equal(formatNumber(0, 42, count), line, `${count} series`);
  }
  assert.equal(formatNumber(73, 57_698, 200), '073/57698');
});

test('the canonical list is one `S/EEEEE\\n` line per number, ascending by series then element', () => {
  const set = setOf(11, [
    [10, 42],
    [0, 99_999],
    [3, 12_345],
    [0, 0],
  ]);
  assert.equal(canonicalText(set), '00/00000\n00/99999\n03/12345\n10/00042\n');
  assert.equal(canonicalText(setOf(1, [[0, 7]])), '0/00007\n');
  assert.equal(canonicalText(new NumberSet(3)), '');
});

test('numbers_sha256 is the sha256sum of the canonical list', () => {
  // Printed by `printf '…' | sha256sum`.
  const set = setOf(11, [
    [10, 42],
    [0, 99_999],
    [3, 12_345],
    [0, 0],
  ]);
  assert.equal(canonicalSha256(set), 'be4c755eab4597f596fb708c953f2576b0dbe141af9ed9fa6246fde0b7430aad');
  assert.equal(canonicalSha256(setOf(1, [[0, 7]])), 'ec3d274cba213adef3b83336178d1a4f7de81f29249c69efddb4d410d17c02f4');
  assert.equal(canonicalSha256(new NumberSet(4)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('numbers_sha256 of a large mixed set equals the SHA-256 of the list built line by line', () => {
  const numbers: Array<[number, number]> = [];
  let x = 12_345;
  for (let i = 0; i < 30_000; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    numbers.push([x % 150, (x >> 8) % 100_000]);
  }
  numbers.push(...range(0, 99_999).map((e): [number, number] => [149, e]));
  const set = setOf(150, numbers);
  const text = naiveCanonicalText(150, numbers);
  assert.equal(set.count, text.split('\n').length - 1);
  assert.equal(canonicalText(set), text);
  assert.equal(canonicalSha256(set), createHash('sha256').update(text, 'latin1').digest('hex'));
});
