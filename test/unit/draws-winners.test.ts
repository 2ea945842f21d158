// The pure rules of a draw's winners (src/draws/winners.ts,
// docs/operations.md#the-rules-as-ces-applies-them): winner 1 by SCPC's approximation or up-wrap,
// winners 2..N upwards and wrapping, one win per document, fewer winners than asked, and the
// replacement of a disqualified winner. Numbers are written as the canonical list writes them;
// "0/00010 A" is a number held by the participant of document A (a number without a letter has a
// participant of its own).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NumberSet } from '../../src/draws/number-set.ts';
import {
  drawWinners,
  numberKey,
  pickFirstWinner,
  pickNextWinner,
  seriesOrder,
  type Approximation,
  type DrawNumber,
  type EmptySeriesRule,
  type Holder,
  type PickedWinner,
  type WinnerStep,
} from '../../src/draws/winners.ts';

interface Campaign {
  set: NumberSet;
  holderOf: (n: DrawNumber) => Holder;
}

function parseNumber(text: string): DrawNumber {
  const [s, e] = text.split('/');
  return { series: Number(s), element: Number(e) };
}

function campaign(seriesCount: number, numbers: string[]): Campaign {
  const set = new NumberSet(seriesCount);
  const holders = new Map<number, Holder>();
  for (const line of numbers) {
    const [text, document] = line.split(' ');
    const n = parseNumber(text!);
    set.add(n.series, n.element);
    holders.set(numberKey(n.series, n.element), { entry_id: `entry ${text}`, enrollment_id: document ?? `own ${text}` });
  }
  return {
    set,
    holderOf: (n) => {
      const holder = holders.get(numberKey(n.series, n.element));
      assert.ok(holder, `${n.series}/${n.element} asked for but not in the set`);
      return holder;
    },
  };
}

const show = (n: DrawNumber | null): string | null => (n === null ? null : `${n.series}/${String(n.element).padStart(5, '0')}`);

function firstWinner(
  seriesCount: number,
  numbers: string[],
  formed: string,
  approximation: Approximation,
  emptySeries: EmptySeriesRule = 'alternate',
): PickedWinner | null {
  const c = campaign(seriesCount, numbers);
  return pickFirstWinner(c.set, parseNumber(formed), { approximation, emptySeries }, c.holderOf);
}

function winners(
  seriesCount: number,
  numbers: string[],
  formed: string,
  winnersCount: number,
  options: { approximation?: Approximation; oneWinPerDocument?: boolean } = {},
): { winners: string[]; unfilled: number[]; steps: WinnerStep[][] } {
  const c = campaign(seriesCount, numbers);
  const result = drawWinners(
    c.set,
    parseNumber(formed),
    {
      approximation: options.approximation ?? 'nearest',
      emptySeries: 'alternate',
      winnersCount,
      oneWinPerDocument: options.oneWinPerDocument ?? true,
    },
    c.holderOf,
  );
  result.winners.forEach((w, i) => assert.equal(w.position, i + 1, 'winners fill positions 1, 2, … in order'));
  return {
    winners: result.winners.map((w) => show(w)!),
    unfilled: result.unfilled.map((u) => u.position),
    steps: result.winners.map((w) => w.steps),
  };
}

test('SCPC: winner 1 is the nearest eligible element of the formed series, above first on a tie, never wrapping', () => {
  for (const { rule, numbers, formed, expected } of [
    { rule: 'the formed number when eligible', numbers: ['0/49999', '0/50000', '0/50001'], formed: '0/50000', expected: '0/50000' },
    { rule: 'the nearest above', numbers: ['0/49990', '0/50003'], formed: '0/50000', expected: '0/50003' },
    { rule: 'the nearest below', numbers: ['0/49998', '0/50010'], formed: '0/50000', expected: '0/49998' },
    { rule: 'a tie goes above', numbers: ['0/49995', '0/50005'], formed: '0/50000', expected: '0/50005' },
    { rule: 'a tie at distance 1 goes above', numbers: ['0/49999', '0/50001'], formed: '0/50000', expected: '0/50001' },
    { rule: 'only above', numbers: ['0/70000'], formed: '0/50000', expected: '0/70000' },
    { rule: 'only below', numbers: ['0/00001'], formed: '0/50000', expected: '0/00001' },
    { rule: 'at element 00000 only upwards, not to 99999', numbers: ['0/00007', '0/99999'], formed: '0/00000', expected: '0/00007' },
    { rule: 'near 00000 the search does not wrap to 99999', numbers: ['0/00010', '0/99999'], formed: '0/00002', expected: '0/00010' },
    { rule: 'at element 99999 only downwards, not to 00000', numbers: ['0/00000', '0/99990'], formed: '0/99999', expected: '0/99990' },
    { rule: 'near 99999 the search does not wrap to 00000', numbers: ['0/00000', '0/99900'], formed: '0/99998', expected: '0/99900' },
  ])
    assert.equal(show(firstWinner(1, numbers, formed, 'nearest')), expected, rule);
});

test('SCPC: a series with no eligible number passes the search, from the same element, to series +1, -1, +2, -2, …', () => {
  for (const { rule, count, numbers, formed, expected } of [
    { rule: '+1 before -1', count: 10, numbers: ['3/12345', '5/99999'], formed: '4/12345', expected: '5/99999' },
    { rule: '-1 before +2', count: 10, numbers: ['3/00000', '6/12345'], formed: '4/12345', expected: '3/00000' },
    { rule: '+2 before -2', count: 10, numbers: ['2/12345', '6/00000'], formed: '4/12345', expected: '6/00000' },
    {
      rule: 'the nearest to the same element in that series',
      count: 10,
      numbers: ['5/12340', '5/12352'],
      formed: '4/12345',
      expected: '5/12340',
    },
    {
      rule: 'the same element in another series',
      count: 10,
      numbers: ['5/12344', '5/12345', '5/12346'],
      formed: '4/12345',
      expected: '5/12345',
    },
    { rule: 'a tie in another series goes above', count: 10, numbers: ['3/12340', '3/12350'], formed: '4/12345', expected: '3/12350' },
    {
      rule: 'beyond the last series only downwards, never wrapping to 0',
      count: 10,
      numbers: ['0/50000', '7/50000'],
      formed: '9/50000',
      expected: '7/50000',
    },
    {
      rule: 'below series 0 only upwards, never wrapping to the last',
      count: 10,
      numbers: ['9/50000', '2/00001'],
      formed: '0/50000',
      expected: '2/00001',
    },
    { rule: 'far away: 200 series, from 100 to 0', count: 200, numbers: ['0/99999'], formed: '100/00000', expected: '0/99999' },
    { rule: 'far away: 200 series, from 0 to 199', count: 200, numbers: ['199/00000'], formed: '0/99999', expected: '199/00000' },
  ])
    assert.equal(show(firstWinner(count, numbers, formed, 'nearest')), expected, rule);
});

test('SCPC: the steps record the formed number, the empty series passed and each series searched', () => {
  const w = firstWinner(10, ['2/12300', '2/12400', '7/00000'], '4/12345', 'nearest')!;
  assert.deepEqual(w.steps, [
    { kind: 'formed', series: 4, element: 12_345, eligible: false },
    { kind: 'series_empty', series: [4, 5, 3, 6], empty_series: 'alternate' },
    { kind: 'series_search', series: 2, from: 12_345, above: 12_400, below: 12_300, chosen: 12_300, rule: 'nearest' },
  ]);
  const exact = firstWinner(10, ['4/12345'], '4/12345', 'nearest')!;
  assert.deepEqual(exact.steps, [{ kind: 'formed', series: 4, element: 12_345, eligible: true }]);
  assert.deepEqual(exact.entry_id, 'entry 4/12345');
});

test('above-then-below: every eligible element above, however far, before any below; below only when none is above', () => {
  for (const { rule, numbers, formed, expected } of [
    { rule: 'above even when below is nearer', numbers: ['3/12344', '3/90000'], formed: '3/12345', expected: '3/90000' },
    { rule: 'the first above, not the farthest', numbers: ['3/12350', '3/12400'], formed: '3/12345', expected: '3/12350' },
    { rule: 'none above: the first below, downwards', numbers: ['3/00001', '3/12000'], formed: '3/12345', expected: '3/12000' },
    { rule: 'at 99999 nothing is above', numbers: ['3/99998'], formed: '3/99999', expected: '3/99998' },
    { rule: 'another series: the same element counts first', numbers: ['4/12345', '4/12346'], formed: '3/12345', expected: '4/12345' },
  ])
    assert.equal(show(firstWinner(10, numbers, formed, 'above-then-below')), expected, rule);
  const w = firstWinner(10, ['3/12344', '3/90000'], '3/12345', 'above-then-below')!;
  assert.deepEqual(w.steps.at(-1), {
    kind: 'series_search',
    series: 3,
    from: 12_345,
    above: 90_000,
    below: 12_344,
    chosen: 90_000,
    rule: 'above-then-below',
  });
});

test('lower-first: an empty series passes to the nearest lower series with eligible numbers, then upwards', () => {
  for (const { rule, numbers, formed, expected, emptySeries } of [
    {
      rule: 'lower even when the upper is nearer',
      numbers: ['5/00000', '1/00000'],
      formed: '4/00000',
      expected: '1/00000',
      emptySeries: 'lower-first',
    },
    {
      rule: 'alternate takes the upper',
      numbers: ['5/00000', '1/00000'],
      formed: '4/00000',
      expected: '5/00000',
      emptySeries: 'alternate',
    },
    {
      rule: 'no lower series: upwards',
      numbers: ['9/00000', '7/00000'],
      formed: '4/00000',
      expected: '7/00000',
      emptySeries: 'lower-first',
    },
    {
      rule: 'series 0 is the last lower one',
      numbers: ['0/50000', '9/00000'],
      formed: '4/00000',
      expected: '0/50000',
      emptySeries: 'lower-first',
    },
  ] as const)
    assert.equal(show(firstWinner(10, [...numbers], formed, 'nearest', emptySeries)), expected, rule);
  assert.deepEqual([...seriesOrder(4, 7, 'lower-first')], [4, 3, 2, 1, 0, 5, 6]);
  const w = firstWinner(10, ['1/00000'], '4/00000', 'above-then-below', 'lower-first')!;
  assert.deepEqual(w.steps.slice(1), [
    { kind: 'series_empty', series: [4, 3, 2], empty_series: 'lower-first' },
    { kind: 'series_search', series: 1, from: 0, above: 0, below: 0, chosen: 0, rule: 'above-then-below' },
  ]);
});

test('up-wrap: winner 1 is the next eligible number upwards across series, after the last series the first of series 0', () => {
  for (const { rule, count, numbers, formed, expected, wrapped } of [
    { rule: 'the formed number when eligible', count: 10, numbers: ['4/12345'], formed: '4/12345', expected: '4/12345', wrapped: null },
    {
      rule: 'upwards even when below is nearer',
      count: 1,
      numbers: ['0/49999', '0/50007'],
      formed: '0/50000',
      expected: '0/50007',
      wrapped: false,
    },
    {
      rule: 'into the next series holding numbers',
      count: 10,
      numbers: ['3/00001', '5/00003'],
      formed: '3/99990',
      expected: '5/00003',
      wrapped: false,
    },
    {
      rule: 'from element 99999 into the next series',
      count: 10,
      numbers: ['3/00000', '4/00000'],
      formed: '3/99999',
      expected: '4/00000',
      wrapped: false,
    },
    {
      rule: 'from the last series to series 0',
      count: 10,
      numbers: ['0/00000', '8/00000'],
      formed: '9/00000',
      expected: '0/00000',
      wrapped: true,
    },
    {
      rule: 'past the last number to the first',
      count: 10,
      numbers: ['1/00005', '8/00000'],
      formed: '8/00001',
      expected: '1/00005',
      wrapped: true,
    },
    { rule: 'within a single series, wrapping', count: 1, numbers: ['0/00003'], formed: '0/99999', expected: '0/00003', wrapped: true },
  ]) {
    const w = firstWinner(count, numbers, formed, 'up-wrap');
    assert.equal(show(w), expected, rule);
    const step = w!.steps.find((s) => s.kind === 'next_upwards');
    assert.equal(step === undefined ? null : step.wrapped, wrapped, rule);
  }
});

test('winner 1 of an empty set is nobody, under either approximation', () => {
  assert.equal(firstWinner(10, [], '4/12345', 'nearest'), null);
  assert.equal(firstWinner(10, [], '4/12345', 'up-wrap'), null);
});

test('winners 2..N are the next eligible numbers upwards across series, wrapping after the last', () => {
  const numbers = ['0/00010', '0/00020', '0/00030', '1/00005', '3/99999'];
  for (const { rule, formed, count, expected } of [
    { rule: 'upwards from winner 1', formed: '0/00020', count: 3, expected: ['0/00020', '0/00030', '1/00005'] },
    { rule: 'across series and their empty ones', formed: '0/00030', count: 3, expected: ['0/00030', '1/00005', '3/99999'] },
    { rule: 'wrapping after the last number', formed: '1/00005', count: 4, expected: ['1/00005', '3/99999', '0/00010', '0/00020'] },
    {
      rule: 'winner 1 approximated (series 2 empty, +1 first), then upwards from it',
      formed: '2/50000',
      count: 2,
      expected: ['3/99999', '0/00010'],
    },
  ])
    assert.deepEqual(winners(4, numbers, formed, count).winners, expected, rule);
});

test('a number never wins twice: fewer eligible numbers than N give fewer winners, the rest unfilled', () => {
  const two = winners(10, ['2/00100', '7/00200'], '7/00200', 4);
  assert.deepEqual(
    [two.winners, two.unfilled],
    [
      ['7/00200', '2/00100'],
      [3, 4],
    ],
  );
  const one = winners(1, ['0/00001'], '0/99999', 3, { approximation: 'up-wrap' });
  assert.deepEqual([one.winners, one.unfilled], [['0/00001'], [2, 3]]);
  const none = winners(10, [], '0/00000', 2);
  assert.deepEqual([none.winners, none.unfilled], [[], [1, 2]]);
});

test('one win per document: a number whose participant already won is skipped', () => {
  const numbers = ['0/00010 A', '0/00020 A', '0/00030 B', '0/00040 A', '0/00050 C'];
  const one = winners(1, numbers, '0/00010', 3);
  assert.deepEqual([one.winners, one.unfilled], [['0/00010', '0/00030', '0/00050'], []]);
  assert.deepEqual(
    one.steps[1]!.filter((s) => s.kind === 'skipped'),
    [{ kind: 'skipped', series: 0, element: 20, reason: 'document_already_won' }],
  );
  assert.deepEqual(
    one.steps[2]!.filter((s) => s.kind === 'skipped'),
    [{ kind: 'skipped', series: 0, element: 40, reason: 'document_already_won' }],
  );
  const any = winners(1, numbers, '0/00010', 3, { oneWinPerDocument: false });
  assert.deepEqual([any.winners, any.unfilled], [['0/00010', '0/00020', '0/00030'], []]);
});

test('one win per document with fewer documents than winners leaves positions unfilled', () => {
  const numbers = ['0/00010 A', '0/00020 A', '1/00030 B', '1/00040 A'];
  const one = winners(2, numbers, '1/00040', 4);
  assert.deepEqual(
    [one.winners, one.unfilled],
    [
      ['1/00040', '1/00030'],
      [3, 4],
    ],
  );
  assert.deepEqual(winners(2, numbers, '1/00040', 4, { oneWinPerDocument: false }).winners, ['1/00040', '0/00010', '0/00020', '1/00030']);
});

test('a position left unfilled records that the numbers ran out', () => {
  const c = campaign(1, ['0/00001']);
  const result = drawWinners(
    c.set,
    { series: 0, element: 1 },
    { approximation: 'nearest', emptySeries: 'alternate', winnersCount: 2, oneWinPerDocument: true },
    c.holderOf,
  );
  assert.deepEqual(result.unfilled, [{ position: 2, steps: [{ kind: 'exhausted' }] }]);
  const empty = drawWinners(
    new NumberSet(1),
    { series: 0, element: 1 },
    { approximation: 'nearest', emptySeries: 'alternate', winnersCount: 1, oneWinPerDocument: true },
    c.holderOf,
  );
  assert.deepEqual(empty.unfilled, [
    { position: 1, steps: [{ kind: 'formed', series: 0, element: 1, eligible: false }, { kind: 'exhausted' }] },
  ]);
});

test('the replacement of a disqualified winner is the next number after the last one picked, skipping disqualified numbers and current winners', () => {
  const c = campaign(1, ['0/00010', '0/00020', '0/00030', '0/00040', '0/00050', '0/00060']);
  const keyOf = (text: string) => {
    const n = parseNumber(text);
    return numberKey(n.series, n.element);
  };
  /** The replacement as draws.ts asks for it: after the last pick, avoiding the current winners and every disqualified number. */
  const replace = (position: number, last: string, current: string[], disqualified: string[]) =>
    pickNextWinner(
      c.set,
      parseNumber(last),
      position,
      { numbers: new Set(current.map(keyOf)), enrollments: new Set(current.map((t) => `own ${t}`)) },
      true,
      c.holderOf,
      new Set(disqualified.map(keyOf)),
    );
  // Winners 0/00010, 0/00020, 0/00030; position 3 disqualified: the number after 0/00030.
  const third = replace(3, '0/00030', ['0/00010', '0/00020'], ['0/00030'])!;
  assert.deepEqual([third.position, show(third)], [3, '0/00040']);
  // Then position 2: after the last pick (0/00040).
  assert.equal(show(replace(2, '0/00040', ['0/00010', '0/00040'], ['0/00030', '0/00020'])), '0/00050');
  // Every number disqualified or a current winner: after a full turn nobody is left.
  const none = pickNextWinner(
    c.set,
    parseNumber('0/00060'),
    1,
    { numbers: new Set(['0/00040', '0/00060'].map(keyOf)), enrollments: new Set() },
    true,
    c.holderOf,
    new Set(['0/00010', '0/00020', '0/00030', '0/00050'].map(keyOf)),
  );
  assert.equal(none, null);
  // After the last number the search wraps to the first, and records each skip and its reason.
  const w = replace(1, '0/00050', ['0/00040', '0/00050'], ['0/00010', '0/00020', '0/00030'])!;
  assert.equal(show(w), '0/00060');
  const wrapped = replace(1, '0/00060', ['0/00040'], ['0/00010', '0/00020', '0/00030', '0/00060'])!;
  assert.equal(show(wrapped), '0/00050');
  assert.deepEqual(
    wrapped.steps.filter((s) => s.kind === 'skipped'),
    [
      { kind: 'skipped', series: 0, element: 10, reason: 'disqualified' },
      { kind: 'skipped', series: 0, element: 20, reason: 'disqualified' },
      { kind: 'skipped', series: 0, element: 30, reason: 'disqualified' },
      { kind: 'skipped', series: 0, element: 40, reason: 'already_won' },
    ],
  );
  assert.ok(wrapped.steps.some((s) => s.kind === 'next_upwards' && s.wrapped));
});

test('the replacement skips numbers of a current winner’s document, with one win per document only', () => {
  const c = campaign(1, ['0/00010 A', '0/00020 B', '0/00030 A', '0/00040 C']);
  const exclusions = () => ({ numbers: new Set([numberKey(0, 10)]), enrollments: new Set(['A']) });
  const disqualified = new Set([numberKey(0, 20)]);
  assert.equal(show(pickNextWinner(c.set, { series: 0, element: 20 }, 2, exclusions(), true, c.holderOf, disqualified)), '0/00040');
  assert.equal(show(pickNextWinner(c.set, { series: 0, element: 20 }, 2, exclusions(), false, c.holderOf, disqualified)), '0/00030');
});

test('the series searched by SCPC: the formed one, then +1, -1, +2, -2, … within 0..count-1', () => {
  for (const [start, count, order] of [
    [4, 10, [4, 5, 3, 6, 2, 7, 1, 8, 0, 9]],
    [0, 3, [0, 1, 2]],
    [9, 10, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]],
    [1, 5, [1, 2, 0, 3, 4]],
    [0, 1, [0]],
  ] as const)
    assert.deepEqual([...seriesOrder(start, count)], order, `from ${start} of ${count}`);
});
