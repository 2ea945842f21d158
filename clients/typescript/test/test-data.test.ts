// The test-data generators against the server's own rules: every CPF and CNPJ they make passes
// src/input/documents.ts (the check digits of @brazilian-utils), every access key passes the
// intake's fail-fast checks with the same check digit, and every entry body passes the intake's
// parser. Random seeds (fast-check) and known documents from the Receita Federal's examples.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from '../../../src/input/documents.ts';
import {
  accessKeyIssueMonth,
  accessKeyTestTrigger,
  checkAccessKeyFailFast,
  computeAccessKeyCheckDigit,
} from '../../../src/entries/fiscal-key.ts';
import { parseSubmission } from '../../../src/entries/submission.ts';
import {
  accessKeyCheckDigit,
  cnpjCheckDigits,
  cpfCheckDigits,
  generateAccessKey,
  generateCnpj,
  generateCpf,
  generateEntry,
  STATE_CODES,
  TEST_TRIGGERS,
} from '../src/index.ts';
import { propertySeed } from '../../../test/support/property.ts';

/** A repeatable random source (mulberry32) from a seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seeds = fc.integer({ min: 0, max: 2 ** 32 - 1 });

describe('documents', () => {
  test('check digits of known documents: CPF 529.982.247-25, CNPJ 11.222.333/0001-81, alphanumeric 12.ABC.345/01DE-35', () => {
    assert.equal(cpfCheckDigits('529982247'), '25');
    assert.equal(cnpjCheckDigits('112223330001'), '81');
    assert.equal(cnpjCheckDigits('12ABC34501DE'), '35');
  });

  test('every generated CPF and CNPJ is one the server accepts, and changing a check digit makes it one it refuses', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const random = seeded(seed);
        const cpf = generateCpf({ random });
        const cnpj = generateCnpj({ random });
        const numeric = generateCnpj({ random, numeric: true });
        assert.match(cpf, /^[0-9]{11}$/);
        assert.match(cnpj, /^[0-9A-Z]{8}0001[0-9]{2}$/);
        assert.match(cnpj, /[A-Z]/, 'alphanumeric by default');
        assert.match(numeric, /^[0-9]{14}$/);
        assert.deepEqual(parseDocument(cpf), { ok: true, type: 'cpf', number: cpf });
        assert.deepEqual(parseDocument(cnpj), { ok: true, type: 'cnpj', number: cnpj });
        assert.deepEqual(parseDocument(numeric), { ok: true, type: 'cnpj', number: numeric });
        for (const document of [cpf, cnpj, numeric]) {
          const wrong = document.slice(0, -1) + String((Number(document.at(-1)) + 1) % 10);
          assert.equal(parseDocument(wrong).ok, false, `${wrong} is refused`);
        }
      }),
      { numRuns: 300, seed: propertySeed(110) },
    );
  });

  test('the same random source gives the same documents', () => {
    assert.equal(generateCpf({ random: seeded(7) }), generateCpf({ random: seeded(7) }));
    assert.equal(generateCnpj({ random: seeded(7) }), generateCnpj({ random: seeded(7) }));
    assert.notEqual(generateCpf(), generateCpf());
  });

  test('check-digit helpers refuse what is not a document body', () => {
    assert.throws(() => cpfCheckDigits('12345678'), RangeError);
    assert.throws(() => cnpjCheckDigits('12abc34501de'), RangeError);
    assert.throws(() => accessKeyCheckDigit('1'.repeat(44)), RangeError);
  });
});

describe('access keys', () => {
  test("every generated key passes the intake's fail-fast checks, with the server's check digit, issued this month", () => {
    const now = new Date(Date.now() - 3 * 3_600_000);
    const thisMonth = { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
    fc.assert(
      fc.property(seeds, fc.constantFrom('55' as const, '65' as const), (seed, model) => {
        const key = generateAccessKey({ random: seeded(seed), model });
        assert.match(key, /^[0-9]{44}$/);
        assert.deepEqual(checkAccessKeyFailFast(key), []);
        assert.equal(accessKeyCheckDigit(key.slice(0, 43)), computeAccessKeyCheckDigit(key.slice(0, 43)));
        assert.equal(key.slice(20, 22), model);
        assert.ok((STATE_CODES as readonly string[]).includes(key.slice(0, 2)));
        assert.deepEqual(accessKeyIssueMonth(key), thisMonth);
        assert.ok(!Object.values<string>(TEST_TRIGGERS).includes(accessKeyTestTrigger(key)), 'never a test trigger by chance');
        const wrong = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
        assert.deepEqual(
          checkAccessKeyFailFast(wrong).map((i) => i.code),
          ['access_key_invalid_check_digit'],
        );
      }),
      { numRuns: 300, seed: propertySeed(111) },
    );
  });

  test('the parts given are placed as the layout says: cUF AAMM CNPJ mod serie nNF tpEmis cNF cDV', () => {
    const key = generateAccessKey({
      uf: '35',
      yymm: '2611',
      cnpj: '11222333000181',
      model: '55',
      serie: '002',
      number: '000012345',
      tpEmis: '1',
      cnf: '87654321',
    });
    assert.equal(key.slice(0, 43), '35' + '2611' + '11222333000181' + '55' + '002' + '000012345' + '1' + '87654321');
    assert.equal(key, '3526111122233300018155002000012345187654321' + String(computeAccessKeyCheckDigit(key.slice(0, 43))));
    assert.equal(accessKeyTestTrigger(generateAccessKey({ testTrigger: 'fraud_suspected' })), '99999902');
    assert.throws(() => generateAccessKey({ serie: '1' }), /serie must be 3 digits/);
    assert.throws(() => generateAccessKey({ cnpj: '12ABC34501DE35' }), /cnpj must be 14 digits/);
  });
});

describe('entries', () => {
  test("every generated entry passes the intake's parser, each with a new participant and receipt", () => {
    const bodies = Array.from({ length: 50 }, () => generateEntry());
    for (const body of bodies) assert.doesNotThrow(() => parseSubmission(structuredClone(body), Date.now()));
    assert.equal(new Set(bodies.map((b) => b.enrollment.document_number)).size, 50);
    assert.equal(new Set(bodies.map((b) => b.enrollment.email)).size, 50);
    assert.equal(new Set(bodies.map((b) => b.evidence.access_key)).size, 50);
    const company = generateEntry({ enrollment: { document_number: generateCnpj() }, accessKey: { model: '55' } });
    assert.doesNotThrow(() => parseSubmission(structuredClone(company), Date.now()));
    assert.equal(company.evidence.access_key.slice(20, 22), '55');
  });
});
