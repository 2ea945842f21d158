import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDocument } from '../../src/input/documents.ts';
import { propertySeed } from '../support/property.ts';

// An independent implementation of the Receita Federal CNPJ check digits (manual-dv-cnpj), so the
// property below does not just compare the library with itself: each character is worth its ASCII
// code minus 48 ('0'..'9' -> 0..9, 'A'..'Z' -> 17..42), weights 2..9 repeat from the right.
function cnpjCheckDigits(base12: string): string {
  const dv = (s: string): number => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) {
      const weight = 2 + ((s.length - 1 - i) % 8);
      sum += (s.charCodeAt(i) - 48) * weight;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const first = dv(base12);
  const second = dv(base12 + String(first));
  return `${first}${second}`;
}

const ALPHANUMERIC = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
const base12 = fc.array(fc.constantFrom(...ALPHANUMERIC), { minLength: 12, maxLength: 12 }).map((a) => a.join(''));

describe('parseDocument: CPF', () => {
  const valid: Array<[string, string]> = [
    ['529.982.247-25', '52998224725'],
    ['52998224725', '52998224725'],
    ['123.456.789-09', '12345678909'],
    ['111 444 777 35', '11144477735'],
    ['  111.444.777-35\t', '11144477735'],
  ];
  for (const [raw, number] of valid) {
    it(`accepts ${JSON.stringify(raw)} as CPF ${number}`, () => {
      assert.deepEqual(parseDocument(raw), { ok: true, type: 'cpf', number });
    });
  }

  const badChecksum = ['529.982.247-24', '12345678900', '11144477736', '52998224715'];
  for (const raw of badChecksum) {
    it(`rejects ${raw}: check digits do not match`, () => {
      const r = parseDocument(raw);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.code === 'invalid_document' && /check digits/.test(r.message), JSON.stringify(r));
    });
  }

  for (const digit of '0123456789') {
    const raw = digit.repeat(11);
    it(`rejects the repeated-digit CPF ${raw}`, () => {
      const r = parseDocument(raw);
      assert.ok(!r.ok && /repeated digit/.test(r.message), JSON.stringify(r));
    });
  }
});

describe('parseDocument: classic CNPJ', () => {
  const valid: Array<[string, string]> = [
    ['11.222.333/0001-81', '11222333000181'],
    ['11222333000181', '11222333000181'],
    ['12.345.678/0001-95', '12345678000195'],
    ['12 345 678 0001 95', '12345678000195'],
  ];
  for (const [raw, number] of valid) {
    it(`accepts ${JSON.stringify(raw)} as CNPJ ${number}`, () => {
      assert.deepEqual(parseDocument(raw), { ok: true, type: 'cnpj', number });
    });
  }

  for (const raw of ['11.222.333/0001-80', '11222333000191', '12345678000190']) {
    it(`rejects ${raw}: check digits do not match`, () => {
      const r = parseDocument(raw);
      assert.ok(!r.ok && r.code === 'invalid_document' && /CNPJ.*check digits/.test(r.message), JSON.stringify(r));
    });
  }

  it('rejects the repeated-digit CNPJ 00000000000000 even though its checksum works out', () => {
    const r = parseDocument('00.000.000/0000-00');
    assert.ok(!r.ok && /repeated digit/.test(r.message), JSON.stringify(r));
  });
});

describe('parseDocument: alphanumeric CNPJ (from July 2026)', () => {
  const valid: Array<[string, string]> = [
    ['12.ABC.345/01DE-35', '12ABC34501DE35'],
    ['12ABC34501DE35', '12ABC34501DE35'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['Q0.SLF.MBD/7VX4-39', 'Q0SLFMBD7VX439'],
    ['q0slfmbd7vx439', 'Q0SLFMBD7VX439'],
  ];
  for (const [raw, number] of valid) {
    it(`accepts ${JSON.stringify(raw)} as CNPJ ${number}`, () => {
      assert.deepEqual(parseDocument(raw), { ok: true, type: 'cnpj', number });
    });
  }

  for (const raw of ['12.ABC.345/01DE-36', '12ABC34501DE53', '12ABD34501DE35']) {
    it(`rejects ${raw}: check digits do not match`, () => {
      const r = parseDocument(raw);
      assert.ok(!r.ok && /check digits/.test(r.message), JSON.stringify(r));
    });
  }

  it('rejects letters in the two check-digit positions', () => {
    const r = parseDocument('12ABC34501DEAB');
    assert.ok(!r.ok && /last two of a CNPJ are numeric/.test(r.message), JSON.stringify(r));
  });

  it('an independently computed pair of check digits makes any 12-character base valid', () => {
    fc.assert(
      fc.property(base12, (base) => {
        const cnpj = base + cnpjCheckDigits(base);
        fc.pre(!/^([0-9])\1{13}$/.test(cnpj)); // reserved repeated-digit numbers are rejected on purpose
        assert.deepEqual(parseDocument(cnpj), { ok: true, type: 'cnpj', number: cnpj });
        assert.deepEqual(parseDocument(cnpj.toLowerCase()), { ok: true, type: 'cnpj', number: cnpj });
      }),
      { numRuns: 500, seed: propertySeed(101) },
    );
  });

  it('changing either check digit of a valid CNPJ makes it invalid', () => {
    fc.assert(
      fc.property(base12, fc.integer({ min: 12, max: 13 }), fc.integer({ min: 1, max: 9 }), (base, position, delta) => {
        const cnpj = base + cnpjCheckDigits(base);
        const altered = String((Number(cnpj[position]) + delta) % 10);
        const broken = cnpj.slice(0, position) + altered + cnpj.slice(position + 1);
        const r = parseDocument(broken);
        assert.equal(r.ok, false, broken);
      }),
      { numRuns: 500, seed: propertySeed(102) },
    );
  });
});

describe('parseDocument: shape errors say what is wrong', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['  .-/ ', /empty/],
    ['1234567890', /CPF \(11 digits\) or a CNPJ \(14 characters\); it has 10 characters/],
    ['123456789012', /it has 12 characters/],
    ['123456789012345', /it has 15 characters/],
    ['1234567890A', /CPF is digits only/],
    ['123.456.789_09', /may contain only digits/],
    ['529982247-25!', /may contain only digits/],
    ['５２９９８２２４７２５', /may contain only digits/],
  ];
  for (const [raw, message] of cases) {
    it(`rejects ${JSON.stringify(raw)} with a message matching ${message}`, () => {
      const r = parseDocument(raw);
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.code === 'invalid_document' && message.test(r.message), JSON.stringify(r));
    });
  }
});
