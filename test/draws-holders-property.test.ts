// Property test (issue 41, point 7): the holders list (`S/EEEEE;H` a line, as `ces draw numbers
// --format holders` prints it) plus the extraction's five prizes are enough for anyone to redo
// the draw, one win per document included, without a single personal datum. For random campaigns
// (1 to 12 series, or 100 or 200), numbers spread over a few documents, random extractions and
// 1 to 6 winners, the list is built by the freeze's own code (holders.ts through encodeHeld, stored,
// decoded and written out as frozen-set.ts does) and the winners by the draw's (formation.ts,
// winners.ts); an independent reimplementation written from docs/operations.md's words, given
// only the list's text and the prizes, must find the same winner at every position.
// The approximation reading is a parameter of the oracle (READINGS): each reading the docs define
// (nearest, above-then-below, up-wrap), under each rule for an empty series (alternate,
// lower-first), is one entry, with the production names it is checked against.
// Environment: CES_PROPERTY_RUNS (default 300), CES_PROPERTY_SEED as in test/draws-property.test.ts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeHeld } from '../src/draws/freeze.ts';
import { defaultElementDigits, defaultSeriesDigits, formNumber } from '../src/draws/formation.ts';
import { addHeld, decodeHolderRuns, holdersSeriesChunks, type HeldSeries } from '../src/draws/holders.ts';
import { canonicalPrefix, LINES_PER_CHUNK, NumberSet } from '../src/draws/number-set.ts';
import { drawWinners, type Approximation, type DrawNumber, type EmptySeriesRule } from '../src/draws/winners.ts';
import { propertySeed } from './support/property.ts';

const ELEMENTS = 100_000;
const EMPTY_SERIES: readonly EmptySeriesRule[] = ['alternate', 'lower-first'];
const RUNS = Number(process.env.CES_PROPERTY_RUNS ?? 300);
const SEED = propertySeed(4107);

// ---------------------------------------------------------------------------------------------
// The oracle: only the list's text and the prizes, read as docs/operations.md words the rules.

interface Line {
  series: number;
  element: number;
  holder: number;
}

function parseHolders(text: string): Line[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const m = /^(\d+)\/(\d{5});(\d+)$/.exec(l);
      assert.ok(m, `a holders line: ${l}`);
      return { series: Number(m[1]), element: Number(m[2]), holder: Number(m[3]) };
    });
}

/** The formed number, default digits: the element is the units of the 1st..5th prizes; the series the tens of the 1st..k-th, less series_count while too large. */
function oracleFormed(prizes: string[], seriesCount: number): DrawNumber {
  const element = Number(prizes.map((p) => p[4]).join(''));
  const k = seriesCount === 1 ? 0 : String(seriesCount - 1).length;
  let series =
    k === 0
      ? 0
      : Number(
          prizes
            .slice(0, k)
            .map((p) => p[3])
            .join(''),
        );
  while (series >= seriesCount) series -= seriesCount;
  return { series, element };
}

const keyOf = (n: DrawNumber): number => n.series * ELEMENTS + n.element;

/** Winner 1 under a reading: the numbers (ascending), the formed number, the series count, the empty-series rule. */
type Reading = (sorted: Line[], formed: DrawNumber, seriesCount: number, emptySeries: EmptySeriesRule) => Line | null;

/**
 * The series a search visits: the formed series first; then with `alternate` +1, −1, +2, −2 …,
 * with `lower-first` every lower series down to 0, then the upper ones upwards; only series that
 * exist, never wrapping.
 */
function seriesVisited(formed: DrawNumber, seriesCount: number, emptySeries: EmptySeriesRule): number[] {
  const all = Array.from({ length: seriesCount }, (_, s) => s);
  if (emptySeries === 'lower-first')
    return [formed.series, ...all.filter((s) => s < formed.series).reverse(), ...all.filter((s) => s > formed.series)];
  return all.sort(
    (a, b) => Math.abs(a - formed.series) - Math.abs(b - formed.series) || (a < formed.series ? 1 : 0) - (b < formed.series ? 1 : 0),
  );
}

/** In the first visited series holding a number, the element `pick` chooses from the formed element (a candidate too, at distance 0, counted as above). */
function inFirstSeries(
  sorted: Line[],
  formed: DrawNumber,
  seriesCount: number,
  emptySeries: EmptySeriesRule,
  pick: (inSeries: Line[]) => Line,
): Line | null {
  for (const s of seriesVisited(formed, seriesCount, emptySeries)) {
    const inSeries = sorted.filter((n) => n.series === s);
    if (inSeries.length > 0) return pick(inSeries);
  }
  return null;
}

/** nearest: the formed number, else the element nearest the formed one (plain distance, no wrapping), above first on a tie. */
const nearest: Reading = (sorted, formed, seriesCount, emptySeries) =>
  inFirstSeries(
    sorted,
    formed,
    seriesCount,
    emptySeries,
    (inSeries) =>
      [...inSeries].sort(
        (a, b) =>
          Math.abs(a.element - formed.element) - Math.abs(b.element - formed.element) ||
          (a.element < formed.element ? 1 : 0) - (b.element < formed.element ? 1 : 0),
      )[0]!,
  );

/** above-then-below: the first element at or above the formed one going up, however far; only when none, the first below going down. */
const aboveThenBelow: Reading = (sorted, formed, seriesCount, emptySeries) =>
  inFirstSeries(
    sorted,
    formed,
    seriesCount,
    emptySeries,
    (inSeries) => inSeries.find((n) => n.element >= formed.element) ?? inSeries.filter((n) => n.element < formed.element).at(-1)!,
  );

/** up-wrap: the first number at or above the formed one, across series, else the first of all; the empty-series rule changes nothing. */
const upWrap: Reading = (sorted, formed) => sorted.find((n) => keyOf(n) >= keyOf(formed)) ?? sorted[0] ?? null;

/** Each reading the docs define, under each empty-series rule, with the production names it is checked against. */
const READINGS: Array<{ name: Approximation; emptySeries: EmptySeriesRule; reading: Reading }> = (
  [
    ['nearest', nearest],
    ['above-then-below', aboveThenBelow],
    ['up-wrap', upWrap],
  ] as const
).flatMap(([name, reading]) => EMPTY_SERIES.map((emptySeries) => ({ name, emptySeries, reading })));

/** Winners 1..N: winner 1 by the reading, then upwards around the list, one win per holder. */
function oracleWinners(
  text: string,
  prizes: string[],
  seriesCount: number,
  winnersCount: number,
  reading: Reading,
  emptySeries: EmptySeriesRule,
): string[] {
  const sorted = parseHolders(text);
  const first = reading(sorted, oracleFormed(prizes, seriesCount), seriesCount, emptySeries);
  if (first === null) return [];
  const winners = [first];
  const holders = new Set([first.holder]);
  const k = keyOf(first);
  for (const n of [...sorted.filter((x) => keyOf(x) > k), ...sorted.filter((x) => keyOf(x) < k)]) {
    if (winners.length === winnersCount) break;
    if (holders.has(n.holder)) continue;
    winners.push(n);
    holders.add(n.holder);
  }
  return winners.map((w) => `${w.series}/${w.element}`);
}

// ---------------------------------------------------------------------------------------------
// Random campaigns and extractions

interface Case {
  seriesCount: number;
  numbers: Array<{ series: number; element: number; doc: number }>;
  prizes: string[];
  winnersCount: number;
}

const caseArb: fc.Arbitrary<Case> = fc
  .oneof({ arbitrary: fc.integer({ min: 1, max: 12 }), weight: 8 }, { arbitrary: fc.constantFrom(100, 200), weight: 2 })
  .chain((seriesCount) =>
    fc.record({
      seriesCount: fc.constant(seriesCount),
      numbers: fc.array(
        fc.record({
          series: fc.integer({ min: 0, max: seriesCount - 1 }),
          element: fc.oneof(
            fc.constantFrom(0, 99_999),
            fc.integer({ min: 0, max: ELEMENTS - 1 }),
            fc.integer({ min: 40_000, max: 40_200 }),
          ),
          doc: fc.nat(9),
        }),
        { maxLength: 60 },
      ),
      prizes: fc.array(
        fc.integer({ min: 0, max: 99_999 }).map((p) => String(p).padStart(5, '0')),
        { minLength: 5, maxLength: 5 },
      ),
      winnersCount: fc.integer({ min: 1, max: 6 }),
    }),
  );

/** The holders list as the freeze stores it and `ces draw numbers --format holders` prints it. */
function holdersText(c: Case): { text: string; set: NumberSet; docOf: Map<number, number> } {
  const bySeries = new Map<number, HeldSeries>();
  const docOf = new Map<number, number>();
  for (const n of c.numbers) {
    if (docOf.has(n.series * ELEMENTS + n.element)) continue;
    docOf.set(n.series * ELEMENTS + n.element, n.doc);
    let s = bySeries.get(n.series);
    if (s === undefined) {
      s = { series: n.series, count: 0, data: new Uint8Array(ELEMENTS / 8), dense: null, els: null, keys: null, len: 0 };
      bySeries.set(n.series, s);
    }
    s.data[n.element >> 3]! |= 1 << (n.element & 7);
    s.count++;
    // The key is what the freeze reads as the holder (an enrollment's rowid): any integer per document.
    addHeld(s, n.element, 1000 + n.doc * 7, ELEMENTS);
  }
  const series = [...bySeries.values()].sort((a, b) => a.series - b.series);
  const frozen = encodeHeld(series, 1000, 1000 + 9 * 7, c.seriesCount);
  const set = NumberSet.decode(c.seriesCount, frozen.parts);
  const chunks: Buffer[] = [];
  frozen.parts.forEach((p, i) => {
    const indexes = decodeHolderRuns(frozen.holders[i]!, p.count, p.series);
    const prefix = Buffer.from(canonicalPrefix(p.series, c.seriesCount), 'latin1');
    for (const chunk of holdersSeriesChunks(prefix, set.bitmapOf(p.series)!, indexes, LINES_PER_CHUNK)) chunks.push(Buffer.from(chunk));
  });
  const text = Buffer.concat(chunks).toString('latin1');
  assert.equal(createHash('sha256').update(text).digest('hex'), frozen.holdersSha256, 'holders_sha256 is the SHA-256 of the list');
  return { text, set, docOf };
}

for (const { name, emptySeries, reading } of READINGS) {
  test(`the holders list and the five prizes redo every winner, one win per document (${name}, empty series ${emptySeries})`, (t) => {
    t.diagnostic(`holders property (${name}, ${emptySeries}): ${RUNS} runs, seed ${SEED}`);
    fc.assert(
      fc.property(caseArb, (c) => {
        const { text, set, docOf } = holdersText(c);
        const formed = formNumber(c.prizes, defaultSeriesDigits(c.seriesCount), defaultElementDigits(), c.seriesCount);
        const drawn = drawWinners(
          set,
          { series: formed.series, element: formed.element },
          { approximation: name, emptySeries, winnersCount: c.winnersCount, oneWinPerDocument: true },
          (n) => ({ entry_id: `entry ${n.series}/${n.element}`, enrollment_id: `document ${docOf.get(keyOf(n))}` }),
        );
        assert.deepEqual(
          oracleWinners(text, c.prizes, c.seriesCount, c.winnersCount, reading, emptySeries),
          drawn.winners.map((w) => `${w.series}/${w.element}`),
        );
        // One holder index per document, and no index shared by two documents.
        const lines = parseHolders(text);
        const byHolder = new Map<number, Set<number>>();
        for (const l of lines) byHolder.set(l.holder, (byHolder.get(l.holder) ?? new Set()).add(docOf.get(keyOf(l))!));
        for (const docs of byHolder.values()) assert.equal(docs.size, 1);
        assert.equal(byHolder.size, new Set(lines.map((l) => docOf.get(keyOf(l)))).size);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
}

test('a series that outgrows its pairs keeps every holder, and indexes past 127 are stored and read back', () => {
  // 30,000 numbers of one series (past the pairs' limit: an array indexed by element), ten elements a document.
  const bySeries: HeldSeries = { series: 1, count: 0, data: new Uint8Array(ELEMENTS / 8), dense: null, els: null, keys: null, len: 0 };
  for (let i = 0; i < 30_000; i++) {
    const e = (i * 7919) % ELEMENTS;
    bySeries.data[e >> 3]! |= 1 << (e & 7);
    bySeries.count++;
    addHeld(bySeries, e, 5 + Math.floor(e / 10), ELEMENTS);
  }
  assert.ok(bySeries.dense !== null, 'dense');
  const frozen = encodeHeld([bySeries], 5, 5 + 9_999, 2);
  const indexes = decodeHolderRuns(frozen.holders[0]!, 30_000, 1);
  // Elements e and e' share a holder exactly when floor(e / 10) does; indexes go up by first appearance.
  const set = NumberSet.decode(2, frozen.parts);
  let i = 0;
  let last = 0;
  let lastGroup = -1;
  for (const [, e] of set.numbers()) {
    const group = Math.floor(e / 10);
    if (group !== lastGroup) {
      assert.equal(indexes[i], last + 1);
      last++;
      lastGroup = group;
    } else assert.equal(indexes[i], last);
    i++;
  }
  assert.ok(last > 127);
});
