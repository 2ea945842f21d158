import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  accessKeyIssueMonth,
  accessKeyTestTrigger,
  checkAccessKeyFailFast,
  computeAccessKeyCheckDigit,
  isAccessKeyFormat,
  makeAccessKey,
} from '../../src/entries/fiscal-key.ts';
import { propertySeed } from '../support/property.ts';

// The weight of each of the 43 positions as printed in the NF-e manual (2..9 from the right),
// written out so the oracle below shares no code with the implementation.
const WEIGHTS = '4329876543298765432987654329876543298765432';

function oracleCheckDigit(first43: string): number {
  let sum = 0;
  for (let i = 0; i < 43; i++) sum += Number(first43[i]) * Number(WEIGHTS[i]);
  const r = sum % 11;
  return r === 0 || r === 1 ? 0 : 11 - r;
}

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));

const codes = (key: string) => checkAccessKeyFailFast(key).map((i) => i.code);

const IBGE_STATES = [
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '21',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '31',
  '32',
  '33',
  '35',
  '41',
  '42',
  '43',
  '50',
  '51',
  '52',
  '53',
];

describe('isAccessKeyFormat', () => {
  it('accepts 44 to 50 digits', () => {
    for (let n = 44; n <= 50; n++) assert.equal(isAccessKeyFormat('7'.repeat(n)), true, `${n} digits`);
  });
  const rejected: Array<[string, string]> = [
    ['43 digits', '1'.repeat(43)],
    ['51 digits', '1'.repeat(51)],
    ['empty', ''],
    ['a letter', `${'1'.repeat(43)}A`],
    ['spaces', `3526 1111 2223 3300 0181 6500 1000 0000 0111 2345 6789`],
    ['a trailing newline', `${'1'.repeat(44)}\n`],
    ['full-width digits', '１'.repeat(44)],
  ];
  for (const [what, s] of rejected) {
    it(`rejects ${what}`, () => assert.equal(isAccessKeyFormat(s), false));
  }
});

describe('computeAccessKeyCheckDigit', () => {
  it('matches the manual weights for any 43 digits', () => {
    fc.assert(
      fc.property(digits(43), (first43) => {
        assert.equal(computeAccessKeyCheckDigit(first43), oracleCheckDigit(first43));
      }),
      { numRuns: 1000, seed: propertySeed(103) },
    );
  });

  // Keys printed on published DANFE examples (an AM NFC-e and an RJ NF-e).
  for (const key of ['13181017921427000125650010000000309887251170', '33150308370779000149550010001100931002410775']) {
    it(`agrees with the published key ${key}`, () => {
      assert.equal(computeAccessKeyCheckDigit(key.slice(0, 43)), Number(key[43]));
      assert.deepEqual(checkAccessKeyFailFast(key), []);
    });
  }

  const zeros = '0'.repeat(43);
  const withDigit = (index: number, d: string) => zeros.slice(0, index) + d + zeros.slice(index + 1);
  it('remainder 0 gives 0 (all zeros: sum 0)', () => {
    assert.equal(computeAccessKeyCheckDigit(zeros), 0);
  });
  it('remainder 1 gives 0 (a 2 under weight 6: sum 12)', () => {
    assert.equal(WEIGHTS[38], '6');
    assert.equal(computeAccessKeyCheckDigit(withDigit(38, '2')), 0);
  });
  it('remainder 2 gives 9 (a 1 under weight 2: sum 2)', () => {
    assert.equal(computeAccessKeyCheckDigit(withDigit(42, '1')), 9);
  });
  it('remainder 10 gives 1 (a 5 under weight 2: sum 10)', () => {
    assert.equal(computeAccessKeyCheckDigit(withDigit(42, '5')), 1);
  });
  it('the weights restart at 2 after 9 (a 1 at the ninth position from the right)', () => {
    assert.equal(WEIGHTS[34], '2');
    assert.equal(computeAccessKeyCheckDigit(withDigit(34, '1')), 9);
  });
  it('refuses anything but 43 digits', () => {
    assert.throws(() => computeAccessKeyCheckDigit('1'.repeat(42)), RangeError);
    assert.throws(() => computeAccessKeyCheckDigit('1'.repeat(44)), RangeError);
    assert.throws(() => computeAccessKeyCheckDigit(`${'1'.repeat(42)}x`), RangeError);
  });
});

describe('makeAccessKey', () => {
  it('builds the default NFC-e key field by field with a correct check digit', () => {
    const key = makeAccessKey({});
    assert.equal(key.length, 44);
    assert.equal(key.slice(0, 43), '35' + '2611' + '11222333000181' + '65' + '001' + '000000001' + '1' + '12345678');
    assert.equal(Number(key[43]), oracleCheckDigit(key.slice(0, 43)));
    assert.equal(isAccessKeyFormat(key), true);
    assert.deepEqual(checkAccessKeyFailFast(key), []);
  });

  it('any valid state, model and random fields give a key that passes fail-fast', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...IBGE_STATES),
        fc.constantFrom('55', '65', '59'),
        digits(14),
        digits(9),
        digits(8),
        (uf, model, cnpj, number, cnf) => {
          const key = makeAccessKey({ uf, model, cnpj, number, cnf });
          assert.deepEqual(checkAccessKeyFailFast(key), []);
          assert.equal(accessKeyTestTrigger(key), cnf);
        },
      ),
      { seed: propertySeed(104) },
    );
  });

  it('treats an undefined part as the default', () => {
    assert.equal(makeAccessKey({ uf: undefined }), makeAccessKey());
  });

  it('refuses parts of the wrong length or with non-digits', () => {
    assert.throws(() => makeAccessKey({ uf: '3' }), /uf must be 2 digits/);
    assert.throws(() => makeAccessKey({ cnf: '1234567' }), /cnf must be 8 digits/);
    assert.throws(() => makeAccessKey({ cnpj: '12ABC34501DE35' }), /cnpj must be 14 digits/);
  });
});

describe('checkAccessKeyFailFast', () => {
  const good = makeAccessKey();
  const withLastDigit = (key: string, d: number) => key.slice(0, 43) + String(d);

  it('a wrong check digit is access_key_invalid_check_digit', () => {
    for (let delta = 1; delta <= 9; delta++) {
      const bad = withLastDigit(good, (Number(good[43]) + delta) % 10);
      assert.deepEqual(codes(bad), ['access_key_invalid_check_digit']);
    }
  });

  it('the message names the expected digit', () => {
    const bad = withLastDigit(good, (Number(good[43]) + 1) % 10);
    const [issue] = checkAccessKeyFailFast(bad);
    assert.match(issue!.message, new RegExp(`give ${good[43]}`));
  });

  for (const model of ['00', '01', '57', '58', '62', '66', '99']) {
    it(`model ${model} is access_key_invalid_model`, () => {
      assert.deepEqual(codes(makeAccessKey({ model })), ['access_key_invalid_model']);
    });
  }

  for (const uf of ['00', '10', '18', '20', '30', '34', '36', '40', '44', '54', '99']) {
    it(`state ${uf} is access_key_invalid_state`, () => {
      assert.deepEqual(codes(makeAccessKey({ uf })), ['access_key_invalid_state']);
    });
  }

  it('every IBGE state code passes', () => {
    for (const uf of IBGE_STATES) assert.deepEqual(codes(makeAccessKey({ uf })), [], uf);
  });

  it('reports every reason at once, in a stable order', () => {
    const key = makeAccessKey({ uf: '99', model: '01' });
    const bad = withLastDigit(key, (Number(key[43]) + 1) % 10);
    assert.deepEqual(codes(bad), ['access_key_invalid_check_digit', 'access_key_invalid_model', 'access_key_invalid_state']);
  });

  it('an impossible month is not a fail-fast reason', () => {
    assert.deepEqual(codes(makeAccessKey({ yymm: '2613' })), []);
  });

  it('keys of 45 to 50 digits have nothing to check', () => {
    for (let n = 45; n <= 50; n++) {
      const key = '9'.repeat(n);
      assert.deepEqual(checkAccessKeyFailFast(key), [], `${n} digits`);
      assert.equal(accessKeyIssueMonth(key), null);
      assert.equal(accessKeyTestTrigger(key), '');
    }
  });

  it('values that are not 44-50 digits are left to format validation', () => {
    assert.deepEqual(checkAccessKeyFailFast('123'), []);
    assert.deepEqual(checkAccessKeyFailFast(`${'1'.repeat(43)}A`), []);
  });
});

describe('accessKeyIssueMonth', () => {
  const cases: Array<[string, { year: number; month: number } | null]> = [
    ['2611', { year: 2026, month: 11 }],
    ['2601', { year: 2026, month: 1 }],
    ['0512', { year: 2005, month: 12 }],
    ['2600', null],
    ['2613', null],
    ['2699', null],
  ];
  for (const [yymm, expected] of cases) {
    it(`AAMM ${yymm} gives ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(accessKeyIssueMonth(makeAccessKey({ yymm })), expected);
    });
  }
});

describe('accessKeyTestTrigger', () => {
  it('is the 8 digits before the check digit', () => {
    assert.equal(accessKeyTestTrigger(makeAccessKey({ cnf: '00000042' })), '00000042');
  });
  it('is empty for anything but a 44-digit key', () => {
    assert.equal(accessKeyTestTrigger(''), '');
    assert.equal(accessKeyTestTrigger('1'.repeat(43)), '');
  });
});
