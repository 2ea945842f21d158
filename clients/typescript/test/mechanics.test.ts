// narrowMechanics: each outcome of docs/api.md's mechanics (automatic and manual lucky numbers, an
// exhausted pool, a declared win and loss) typed by its mechanic_type, checked at run time and, by
// the @ts-expect-error lines below, at compile time (npm test's tsc fails if they stop erring).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { instantPrizeOf, luckyNumbersOf, narrowMechanics, type Mechanic } from '../src/index.ts';

const PRIZE = '07fb54b8-dd18-40de-8bca-381826688a49';
const automatic: Mechanic = {
  mechanic_type: 'lucky_numbers',
  status: 'APPROVED',
  outcome: { numbers: [{ series: '0', order_number: '04512' }] },
};
const manual: Mechanic = { mechanic_type: 'lucky_numbers', status: 'APPROVED', outcome: { quantity: 2, series_count: 10 } };
const exhausted: Mechanic = {
  mechanic_type: 'lucky_numbers',
  status: 'REJECTED',
  outcome: { reason: 'pool_exhausted', quantity: 2, available: 0, pool_size: 100000 },
};
const won: Mechanic = {
  mechanic_type: 'instant_prize',
  status: 'APPROVED',
  outcome: { won: true, prize_definition_id: PRIZE, prize_name: 'Voucher R$50', award_status: 'AWARDED' },
};
const lost: Mechanic = { mechanic_type: 'instant_prize', status: 'REJECTED', outcome: { won: false } };

/** What an integrator writes: a switch on mechanic_type, each branch seeing only its outcomes. */
function summarise(m: Mechanic): string {
  const [narrowed] = narrowMechanics([m]);
  switch (narrowed!.mechanic_type) {
    case 'lucky_numbers': {
      const outcome = narrowed!.outcome;
      // @ts-expect-error a lucky numbers outcome has no `won`
      void outcome.won;
      if ('numbers' in outcome) return `numbers ${outcome.numbers.map((n) => `${n.series}/${n.order_number}`).join(',')}`;
      if ('reason' in outcome) return `pool exhausted (${outcome.available} left)`;
      return `submit ${outcome.quantity} numbers of ${outcome.series_count} series`;
    }
    case 'instant_prize': {
      const outcome = narrowed!.outcome;
      // @ts-expect-error an instant prize outcome has no `numbers`
      void outcome.numbers;
      return 'prize_definition_id' in outcome ? `won ${outcome.prize_name} (${outcome.award_status})` : 'no prize';
    }
  }
}

test('each outcome is typed and read by its mechanic_type', () => {
  assert.deepEqual([automatic, manual, exhausted, won, lost].map(summarise), [
    'numbers 0/04512',
    'submit 2 numbers of 10 series',
    'pool exhausted (0 left)',
    'won Voucher R$50 (AWARDED)',
    'no prize',
  ]);
});

test('luckyNumbersOf and instantPrizeOf pick the mechanic of their kind, if any', () => {
  assert.equal(luckyNumbersOf([won, automatic]), automatic);
  assert.equal(instantPrizeOf([won, automatic]), won);
  assert.equal(instantPrizeOf([manual]), undefined);
  assert.equal(luckyNumbersOf(null), undefined, 'an entry not evaluated');
  assert.deepEqual(narrowMechanics(undefined), []);
});

test('an outcome that does not belong to its mechanic_type is refused, not guessed', () => {
  // The generated types already know this cannot happen: only a server that broke the schema sends it.
  const swapped = { ...lost, mechanic_type: 'lucky_numbers' } as unknown as Mechanic;
  assert.throws(() => narrowMechanics([swapped]), /lucky_numbers mechanic with the outcome \{"won":false\} is unknown/);
  const unknown = { mechanic_type: 'scratch_card', status: 'APPROVED', outcome: { won: false } } as unknown as Mechanic;
  assert.throws(() => narrowMechanics([unknown]), TypeError);
});
