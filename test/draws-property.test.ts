// Property test (fast-check) of a draw's winners (src/draws/winners.ts) against a second, naive
// implementation written here from docs/operations.md#the-rules-as-ces-applies-them alone: it holds
// the eligible numbers as one sorted array and finds every winner by sorting candidates by their
// distance or by walking the array around, with no bitmaps and nothing shared with winners.ts
// beyond its types. Random campaigns: 1 to 12 series, or 100, 200 or 1,000 sparse ones; sparse and
// dense numbers (empty series, elements 00000 and 99999, one number, every number of a small range,
// pairs at the same distance on both sides of the formed element, numbers a stride apart, now and
// then a dense stretch stored as a bitmap); several numbers per document; formed numbers at the
// edges of the series and of 00000..99999; 1 to 8 winners; the three approximation readings
// (nearest, above-then-below, up-wrap) under both rules for an empty series (alternate,
// lower-first), with and without one win per document; then a few disqualifications. On every run:
//   - drawWinners gives the oracle's winners, in the same positions, and the same unfilled ones;
//   - each replacement pickNextWinner gives after a disqualification (wired as draws.ts wires it)
//     is the oracle's, and so are the winners left after each one;
//   - NumberSet encode -> decode is the identity and canonicalSha256 is the SHA-256 of the
//     canonical list written naively.
// Environment: CES_PROPERTY_RUNS (default 1000; a tenth of it for the NumberSet property) runs;
// a fixed seed unless CES_PROPERTY_SEED says another or `random` (the slow tier's run); it replays a
// run (the seed is printed as a diagnostic, and by fast-check on a failure with the path to give
// CES_PROPERTY_PATH); CES_PROPERTY_STATS=1 prints how often each
// situation was reached.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { canonicalSha256, ENCODING_BITMAP, ENCODING_GAPS, ENCODING_MISSING_GAPS, NumberSet } from '../src/draws/number-set.ts';
import {
  drawWinners,
  pickNextWinner,
  type Approximation,
  type DrawNumber,
  type EmptySeriesRule,
  type Holder,
} from '../src/draws/winners.ts';
import { propertySeed } from './support/property.ts';

const ELEMENTS = 100_000;
const RUNS = Number(process.env.CES_PROPERTY_RUNS ?? 1000);
// Fixed in the fast tier, random in the slow one (test/support/property.ts); printed so that it can be given back.
const SEED = propertySeed(112);
const PATH = process.env.CES_PROPERTY_PATH;

// ---------------------------------------------------------------------------------------------
// Random campaigns

/** Numbers put into a campaign together: one number, a run of consecutive elements, a pair at the same distance from the formed element, or numbers a stride apart. */
type Group =
  | { kind: 'point'; series: number; element: number; doc: number }
  | { kind: 'run'; series: number; from: number; length: number; doc: number; spread: boolean }
  | { kind: 'mirror'; series: number; distance: number; doc: number }
  /** Numbers `stride` apart: gaps at the byte boundaries of the stored gaps (127/128, 16,383/16,384). */
  | { kind: 'stride'; series: number; from: number; stride: number; length: number; doc: number };

interface Case {
  seriesCount: number;
  formed: DrawNumber;
  groups: Group[];
  /** Documents (participants) the numbers are spread over. */
  documents: number;
  winnersCount: number;
  approximation: Approximation;
  emptySeries: EmptySeriesRule;
  oneWinPerDocument: boolean;
  /** Each disqualification picks the current winner at this index (modulo their count). */
  disqualify: number[];
}

interface Held extends Holder {
  series: number;
  element: number;
}

const clampElement = (e: number): number => Math.min(ELEMENTS - 1, Math.max(0, e));

const seriesCountArb = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 8 },
  { arbitrary: fc.constantFrom(100, 200, 1000), weight: 2 },
);

const edgeElementArb = fc.oneof(fc.constantFrom(0, 1, 99_998, 99_999), fc.integer({ min: 0, max: ELEMENTS - 1 }));

function seriesArb(count: number, formedSeries: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(0, count - 1, formedSeries),
    fc.integer({ min: -3, max: 3 }).map((d) => Math.min(count - 1, Math.max(0, formedSeries + d))),
    fc.integer({ min: 0, max: count - 1 }),
  );
}

function elementArb(formedElement: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(0, 1, 99_998, 99_999, formedElement),
    fc.integer({ min: -40, max: 40 }).map((d) => clampElement(formedElement + d)),
    fc.integer({ min: 0, max: ELEMENTS - 1 }),
  );
}

function groupArb(count: number, formed: DrawNumber): fc.Arbitrary<Group> {
  const series = seriesArb(count, formed.series);
  const doc = fc.nat(7);
  return fc.oneof(
    { arbitrary: fc.record({ kind: fc.constant('point' as const), series, element: elementArb(formed.element), doc }), weight: 4 },
    {
      arbitrary: fc.record({
        kind: fc.constant('run' as const),
        series,
        from: elementArb(formed.element),
        length: fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 9 },
          { arbitrary: fc.integer({ min: 1, max: 2_000 }), weight: 1 },
        ),
        doc,
        spread: fc.boolean(),
      }),
      weight: 2,
    },
    { arbitrary: fc.record({ kind: fc.constant('mirror' as const), series, distance: fc.integer({ min: 1, max: 12 }), doc }), weight: 2 },
    {
      arbitrary: fc.record({
        kind: fc.constant('stride' as const),
        series,
        from: edgeElementArb,
        stride: fc.oneof(fc.constantFrom(127, 128, 129, 16_383, 16_384, 16_385), fc.integer({ min: 1, max: 40_000 })),
        length: fc.integer({ min: 1, max: 12 }),
        doc,
      }),
      weight: 1,
    },
  );
}

const caseArb: fc.Arbitrary<Case> = seriesCountArb
  .chain((seriesCount) =>
    fc.record({
      seriesCount: fc.constant(seriesCount),
      formed: fc.record({
        series: fc.oneof(fc.constantFrom(0, seriesCount - 1), fc.integer({ min: 0, max: seriesCount - 1 })),
        element: edgeElementArb,
      }),
    }),
  )
  .chain(({ seriesCount, formed }) =>
    fc.record({
      seriesCount: fc.constant(seriesCount),
      formed: fc.constant(formed),
      groups: fc.oneof(
        { arbitrary: fc.array(groupArb(seriesCount, formed), { minLength: 0, maxLength: 3 }), weight: 2 },
        { arbitrary: fc.array(groupArb(seriesCount, formed), { minLength: 1, maxLength: 14 }), weight: 5 },
      ),
      documents: fc.integer({ min: 1, max: 6 }),
      winnersCount: fc.integer({ min: 1, max: 8 }),
      approximation: fc.constantFrom<Approximation>('nearest', 'above-then-below', 'up-wrap'),
      emptySeries: fc.constantFrom<EmptySeriesRule>('alternate', 'lower-first'),
      oneWinPerDocument: fc.boolean(),
      disqualify: fc.array(fc.nat(7), { maxLength: 5 }),
    }),
  );

/** Every number of the case with its holder; a number two groups give is held by the first. */
function numbersOf(c: Case): Held[] {
  const held = new Map<number, Held>();
  const put = (series: number, element: number, doc: number, group: number): void => {
    const k = series * ELEMENTS + element;
    if (held.has(k)) return;
    const document = doc % c.documents;
    held.set(k, { series, element, entry_id: `entry g${group} d${document}`, enrollment_id: `document ${document}` });
  };
  c.groups.forEach((g, i) => {
    if (g.kind === 'point') put(g.series, g.element, g.doc, i);
    else if (g.kind === 'mirror') {
      if (c.formed.element - g.distance >= 0) put(g.series, c.formed.element - g.distance, g.doc, i);
      if (c.formed.element + g.distance < ELEMENTS) put(g.series, c.formed.element + g.distance, g.doc + 1, i);
    } else if (g.kind === 'stride') {
      for (let j = 0, e = g.from; j < g.length && e < ELEMENTS; j++, e += g.stride) put(g.series, e, g.doc + j, i);
    } else for (let e = g.from; e < Math.min(ELEMENTS, g.from + g.length); e++) put(g.series, e, g.spread ? g.doc + e : g.doc, i);
  });
  return [...held.values()];
}

// ---------------------------------------------------------------------------------------------
// The naive oracle: one array sorted by (series, element), every rule written as docs/operations.md#the-rules-as-ces-applies-them
// says it.

interface Oracle {
  sorted: Held[];
  seriesCount: number;
}

const keyOf = (n: DrawNumber): number => n.series * ELEMENTS + n.element;

function buildOracle(numbers: Held[], seriesCount: number): Oracle {
  return { sorted: [...numbers].sort((a, b) => keyOf(a) - keyOf(b)), seriesCount };
}

/**
 * The series a search visits, as the docs list them: with `alternate` the formed series, then +1,
 * −1, +2, −2 … (only series that exist); with `lower-first` the formed series, every lower one
 * downwards to 0, then every upper one upwards.
 */
function seriesVisited(o: Oracle, formed: DrawNumber, emptySeries: EmptySeriesRule): number[] {
  const all = Array.from({ length: o.seriesCount }, (_, s) => s);
  if (emptySeries === 'lower-first')
    return [formed.series, ...all.filter((s) => s < formed.series).reverse(), ...all.filter((s) => s > formed.series)];
  return all.sort(
    (a, b) => Math.abs(a - formed.series) - Math.abs(b - formed.series) || (a < formed.series ? 1 : 0) - (b < formed.series ? 1 : 0),
  );
}

/**
 * nearest and above-then-below: the formed number if eligible; else the first series visited
 * holding any number gives, from the formed element: `nearest` its element nearest to the formed
 * one, above on a tie; `above-then-below` its first element at or above the formed one going up,
 * else its first below going down. No wrapping: the distance is plain |e - formed|.
 */
function oracleInSeries(o: Oracle, formed: DrawNumber, rule: 'nearest' | 'above-then-below', emptySeries: EmptySeriesRule): Held | null {
  for (const s of seriesVisited(o, formed, emptySeries)) {
    const inSeries = o.sorted.filter((n) => n.series === s);
    if (inSeries.length === 0) continue;
    if (rule === 'above-then-below') {
      const above = inSeries.filter((n) => n.element >= formed.element);
      return above.length > 0 ? above[0]! : inSeries.at(-1)!;
    }
    inSeries.sort(
      (a, b) =>
        Math.abs(a.element - formed.element) - Math.abs(b.element - formed.element) ||
        (a.element < formed.element ? 1 : 0) - (b.element < formed.element ? 1 : 0),
    );
    return inSeries[0]!;
  }
  return null;
}

/** up-wrap: the first number at or above the formed one, else the first of all. */
function oracleUpWrap(o: Oracle, formed: DrawNumber): Held | null {
  return o.sorted.find((n) => keyOf(n) >= keyOf(formed)) ?? o.sorted[0] ?? null;
}

/** The numbers after `from` going upwards and around, ending with `from` itself when it is in the set. */
function around(o: Oracle, from: DrawNumber): Held[] {
  const k = keyOf(from);
  return [...o.sorted.filter((n) => keyOf(n) > k), ...o.sorted.filter((n) => keyOf(n) <= k)];
}

interface Seat {
  position: number;
  number: Held;
}

/** Winners 1..N in one walk around the set from winner 1, passing documents that already won. */
function oracleDraw(o: Oracle, c: Case): { winners: Seat[]; unfilled: number[] } {
  const first = c.approximation === 'up-wrap' ? oracleUpWrap(o, c.formed) : oracleInSeries(o, c.formed, c.approximation, c.emptySeries);
  const winners: Seat[] = [];
  if (first !== null) {
    winners.push({ position: 1, number: first });
    const documents = new Set([first.enrollment_id]);
    for (const n of around(o, first)) {
      if (winners.length === c.winnersCount) break;
      if (keyOf(n) === keyOf(first)) continue;
      if (c.oneWinPerDocument && documents.has(n.enrollment_id)) continue;
      winners.push({ position: winners.length + 1, number: n });
      documents.add(n.enrollment_id);
    }
  }
  const unfilled = Array.from({ length: c.winnersCount - winners.length }, (_, i) => winners.length + i + 1);
  return { winners, unfilled };
}

/**
 * Disqualify: the number is never eligible again; the position gets the first number after the
 * last one picked in the draw (disqualified or not), going around, that is not disqualified, not a
 * current winner and (with one win per document) not held by a current winner's document.
 */
function oracleReplace(o: Oracle, current: Seat[], disqualified: Set<number>, lastPicked: Held, oneWinPerDocument: boolean): Held | null {
  const taken = new Set(current.map((w) => keyOf(w.number)));
  const documents = new Set(current.map((w) => w.number.enrollment_id));
  return (
    around(o, lastPicked).find(
      (n) => !disqualified.has(keyOf(n)) && !taken.has(keyOf(n)) && !(oneWinPerDocument && documents.has(n.enrollment_id)),
    ) ?? null
  );
}

// ---------------------------------------------------------------------------------------------
// One run

const stats = new Map<string, number>();
function count(what: string, when = true): void {
  if (when) stats.set(what, (stats.get(what) ?? 0) + 1);
}

/** What a pick of winners.ts says of its number: where it is and who holds it. */
const heldOf = (w: Held): Held => ({ series: w.series, element: w.element, entry_id: w.entry_id, enrollment_id: w.enrollment_id });
const seat = (s: Seat): string => `${s.position}: ${s.number.series}/${s.number.element} ${s.number.entry_id} (${s.number.enrollment_id})`;

function checkCase(c: Case): void {
  const numbers = numbersOf(c);
  const set = new NumberSet(c.seriesCount);
  const holders = new Map<number, Held>();
  for (const n of numbers) {
    set.add(n.series, n.element);
    holders.set(keyOf(n), n);
  }
  const holderOf = (n: DrawNumber): Holder => {
    const h = holders.get(keyOf(n));
    assert.ok(h, `holder asked for ${n.series}/${n.element}, not in the set`);
    return { entry_id: h.entry_id, enrollment_id: h.enrollment_id };
  };
  const oracle = buildOracle(numbers, c.seriesCount);

  // Winners 1..N.
  const fast = drawWinners(
    set,
    c.formed,
    { approximation: c.approximation, emptySeries: c.emptySeries, winnersCount: c.winnersCount, oneWinPerDocument: c.oneWinPerDocument },
    holderOf,
  );
  const naive = oracleDraw(oracle, c);
  let fastSeats: Seat[] = fast.winners.map((w) => ({ position: w.position, number: heldOf(w) }));
  assert.deepEqual(fastSeats.map(seat), naive.winners.map(seat), 'winners 1..N');
  assert.deepEqual(
    fast.unfilled.map((u) => u.position),
    naive.unfilled,
    'unfilled positions',
  );

  count(`${c.approximation}: formed number eligible`, set.has(c.formed.series, c.formed.element));
  count(`${c.approximation}: empty set`, set.count === 0);
  count('nearest: tie at the same distance above and below', c.approximation === 'nearest' && hasTie(oracle, c.formed));
  count(
    `${c.approximation} (${c.emptySeries}): winner 1 in another series`,
    c.approximation !== 'up-wrap' && fast.winners[0] !== undefined && fast.winners[0].series !== c.formed.series,
  );
  count(
    'above-then-below: winner 1 below the formed element',
    c.approximation === 'above-then-below' &&
      fast.winners[0] !== undefined &&
      fast.winners[0].series === c.formed.series &&
      fast.winners[0].element < c.formed.element,
  );
  count(
    'winner 1 at element 00000 or 99999',
    fast.winners[0] !== undefined && (fast.winners[0].element === 0 || fast.winners[0].element === 99_999),
  );
  count(
    'winners wrapped past the last number',
    fast.winners.some((w) => w.steps.some((s) => s.kind === 'next_upwards' && s.wrapped)),
  );
  count(
    'a document already won skipped',
    fast.winners.some((w) => w.steps.some((s) => s.kind === 'skipped' && s.reason === 'document_already_won')),
  );
  count('positions unfilled', fast.unfilled.length > 0 && set.count > 0);
  count(`${c.seriesCount > 12 ? 'many' : '1..12'} series`);

  // Disqualifications, each side keeping its own winners.
  const fastPicks: Array<{ position: number; number: Held; disqualified: boolean }> = fastSeats.map((s) => ({ ...s, disqualified: false }));
  let naiveSeats = naive.winners;
  const naivePicks = naive.winners.map((s) => ({ ...s, disqualified: false }));
  for (const index of c.disqualify) {
    if (fastSeats.length === 0) break;
    const target = fastSeats[index % fastSeats.length]!;
    // Fast side, as disqualifyWinner calls it.
    fastPicks.find((p) => p.position === target.position && !p.disqualified)!.disqualified = true;
    const current = fastPicks.filter((p) => !p.disqualified);
    const last = fastPicks.at(-1)!.number;
    const pick = pickNextWinner(
      set,
      { series: last.series, element: last.element },
      target.position,
      { numbers: new Set(current.map((p) => keyOf(p.number))), enrollments: new Set(current.map((p) => p.number.enrollment_id)) },
      c.oneWinPerDocument,
      holderOf,
      new Set(fastPicks.filter((p) => p.disqualified).map((p) => keyOf(p.number))),
    );
    if (pick !== null) fastPicks.push({ position: pick.position, number: heldOf(pick), disqualified: false });
    fastSeats = fastPicks.filter((p) => !p.disqualified).sort((a, b) => a.position - b.position);

    // Oracle side.
    const naiveTarget = naivePicks.find((p) => p.position === target.position && !p.disqualified)!;
    naiveTarget.disqualified = true;
    const naiveCurrent = naivePicks.filter((p) => !p.disqualified);
    const replacement = oracleReplace(
      oracle,
      naiveCurrent,
      new Set(naivePicks.filter((p) => p.disqualified).map((p) => keyOf(p.number))),
      naivePicks.at(-1)!.number,
      c.oneWinPerDocument,
    );
    if (replacement !== null) naivePicks.push({ position: target.position, number: replacement, disqualified: false });
    naiveSeats = naivePicks.filter((p) => !p.disqualified).sort((a, b) => a.position - b.position);

    assert.equal(
      pick === null ? null : `${pick.position}: ${pick.series}/${pick.element}`,
      replacement === null ? null : `${target.position}: ${replacement.series}/${replacement.element}`,
      `replacement of position ${target.position}`,
    );
    assert.deepEqual(fastSeats.map(seat), naiveSeats.map(seat), `winners after disqualifying position ${target.position}`);
    count('disqualification replaced', pick !== null);
    count('disqualification left the position empty', pick === null);
    count(
      'replacement skipped a disqualified number',
      pick !== null && pick.steps.some((s) => s.kind === 'skipped' && s.reason === 'disqualified'),
    );
  }
}

/** Whether the formed series, or the first non-empty series `nearest` reaches, holds two numbers at the same distance. */
function hasTie(o: Oracle, formed: DrawNumber): boolean {
  const w = oracleInSeries(o, formed, 'nearest', 'alternate');
  if (w === null || w.element <= formed.element) return false;
  const d = w.element - formed.element;
  return o.sorted.some((n) => n.series === w.series && n.element === formed.element - d);
}

// ---------------------------------------------------------------------------------------------

after(() => {
  if (process.env.CES_PROPERTY_STATS === '1')
    process.stderr.write(
      `${[...stats]
        .sort()
        .map(([k, n]) => `${String(n).padStart(6)} ${k}`)
        .join('\n')}\n`,
    );
});

function parameters<T>(numRuns: number): fc.Parameters<T> {
  return { numRuns, seed: SEED, ...(PATH === undefined ? {} : { path: PATH }), includeErrorInReport: true };
}

test('drawWinners and pickNextWinner agree with a naive scan: winner 1 (nearest, above-then-below, up-wrap; alternate, lower-first), winners 2..N, one win per document, replacements', (t) => {
  t.diagnostic(`draws property: ${RUNS} runs, seed ${SEED} (replay: CES_PROPERTY_SEED=${SEED} CES_PROPERTY_RUNS=${RUNS})`);
  fc.assert(fc.property(caseArb, checkCase), parameters<[Case]>(RUNS));
});

test('a NumberSet encoded and decoded is the same set, and its SHA-256 is that of the canonical list written naively', (t) => {
  const runs = Math.max(1, Math.ceil(RUNS / 10));
  t.diagnostic(`number-set property: ${runs} runs, seed ${SEED}`);
  fc.assert(
    fc.property(caseArb, fc.constantFrom('sparse', 'dense', 'full'), fc.integer({ min: 0, max: ELEMENTS - 1 }), (c, fill, from) => {
      const added = new Set<number>();
      const set = new NumberSet(c.seriesCount);
      const add = (series: number, element: number): void => {
        set.add(series, element);
        added.add(series * ELEMENTS + element);
      };
      for (const n of numbersOf(c)) add(n.series, n.element);
      // A dense stretch of the last series (2 numbers in 3), or the whole of it but one number in
      // 499, so that every encoding is exercised.
      const last = c.seriesCount - 1;
      if (fill === 'dense') for (let e = from; e < Math.min(ELEMENTS, from + 20_000); e++) if (e % 3 !== 0) add(last, e);
      if (fill === 'full') for (let e = 0; e < ELEMENTS; e++) if (e % 499 !== from % 499) add(last, e);
      const parts = set.encode();
      count(
        'number set: a series stored as a bitmap',
        parts.some((p) => p.encoding === ENCODING_BITMAP),
      );
      count(
        'number set: a series stored as gaps',
        parts.some((p) => p.encoding === ENCODING_GAPS),
      );
      count(
        'number set: a series stored as its missing elements',
        parts.some((p) => p.encoding === ENCODING_MISSING_GAPS),
      );
      const back = NumberSet.decode(c.seriesCount, parts);
      const sorted = [...added].sort((a, b) => a - b);
      assert.equal(set.count, sorted.length);
      assert.equal(back.count, sorted.length);
      assert.deepEqual(
        [...back.numbers()].map(([s, e]) => s * ELEMENTS + e),
        sorted,
      );
      assert.deepEqual(back.encode(), parts);
      const width = Math.max(1, String(c.seriesCount - 1).length);
      const text = sorted
        .map((k) => `${String(Math.floor(k / ELEMENTS)).padStart(width, '0')}/${String(k % ELEMENTS).padStart(5, '0')}\n`)
        .join('');
      assert.equal(canonicalSha256(back), createHash('sha256').update(text).digest('hex'));
    }),
    parameters<[Case, 'sparse' | 'dense' | 'full', number]>(runs),
  );
});
