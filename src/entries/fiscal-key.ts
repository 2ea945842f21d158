// Fiscal access keys ("chave de acesso") of NF-e (model 55), NFC-e (65) and CF-e SAT (59): the
// format accepted at intake, the fail-fast checks that reject an entry at once (check digit,
// model, state), the fields the processing stage reads (issue month, test trigger), and a builder
// of valid keys for tests and the benchmark. Nothing here talks to SEFAZ.
//
// Layout of a 44-digit key (0-based positions):
//   NF-e/NFC-e: cUF 0-1 | AAMM 2-5 | emitter CNPJ 6-19 | mod 20-21 | serie 22-24 | nNF 25-33 |
//               tpEmis 34 | cNF 35-42 | cDV 43
//   CF-e SAT:   cUF, AAMM, CNPJ, mod and cDV at the same places; the middle (22-42) is the SAT
//               serial number, the coupon number and the random code instead.
// Keys of 45 to 50 digits are accepted (docs/api.md#entry-submission: 44 to 50 digits) but have no layout we can check,
// so every structural function below answers "nothing to say" for them.

import type { RejectionReason } from './rejection-reasons.ts';

type AccessKeyIssue = RejectionReason;

interface AccessKeyParts {
  uf?: string;
  yymm?: string;
  cnpj?: string;
  model?: string;
  serie?: string;
  number?: string;
  tpEmis?: string;
  cnf?: string;
}

const ACCESS_KEY_FORMAT = /^[0-9]{44,50}$/;
/**
 * An access key as sent: ACCESS_KEY_FORMAT once whitespace is removed (keys are printed in groups
 * of four). The struct of POST /v1/entries checks it and the OpenAPI document publishes it.
 */
export const ACCESS_KEY_AS_SENT = /^(?:\s*[0-9]){44,50}\s*$/;
const CLASSIC_KEY = /^[0-9]{44}$/;
const DIGITS = /^[0-9]+$/;

const VALID_MODELS: ReadonlySet<string> = new Set(['55', '65', '59']);

// IBGE state codes (cUF), the only values SEFAZ issues keys under.
const VALID_STATES: ReadonlySet<string> = new Set([
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
]);

/** True when `s` is 44 to 50 ASCII digits: the shape intake accepts (else 422). */
export function isAccessKeyFormat(s: string): boolean {
  return ACCESS_KEY_FORMAT.test(s);
}

/**
 * The modulo-11 check digit (cDV) of the first 43 digits: weights 2..9 repeating from the
 * rightmost digit leftwards; remainders 0 and 1 give 0, any other remainder r gives 11 - r.
 */
export function computeAccessKeyCheckDigit(first43: string): number {
  if (!/^[0-9]{43}$/.test(first43)) {
    throw new RangeError('computeAccessKeyCheckDigit expects exactly 43 digits');
  }
  let sum = 0;
  let weight = 2;
  for (let i = first43.length - 1; i >= 0; i--) {
    sum += (first43.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const remainder = sum % 11;
  return remainder === 0 || remainder === 1 ? 0 : 11 - remainder;
}

/**
 * Reasons to reject a 44-digit key at intake (docs/api.md#processing-rejection-reasons: 202 with
 * status REJECTED). Returns every reason found, in a stable order; [] for a key that passes and for
 * 45-50 digit keys.
 */
export function checkAccessKeyFailFast(key: string): AccessKeyIssue[] {
  if (!CLASSIC_KEY.test(key)) return [];
  const issues: AccessKeyIssue[] = [];

  const dv = computeAccessKeyCheckDigit(key.slice(0, 43));
  if (key.charCodeAt(43) - 48 !== dv) {
    issues.push({
      code: 'access_key_invalid_check_digit',
      message: `The access key's check digit is ${key[43]} but its first 43 digits give ${dv}.`,
    });
  }

  const model = key.slice(20, 22);
  if (!VALID_MODELS.has(model)) {
    issues.push({
      code: 'access_key_invalid_model',
      message: `The access key's model is ${model}; only 55 (NF-e), 65 (NFC-e) and 59 (CF-e SAT) are accepted.`,
    });
  }

  const state = key.slice(0, 2);
  if (!VALID_STATES.has(state)) {
    issues.push({
      code: 'access_key_invalid_state',
      message: `The access key's state code ${state} is not an IBGE state code.`,
    });
  }

  return issues;
}

/**
 * The issue year and month (AAMM) of a 44-digit key, or null for longer keys and for a month
 * outside 01-12. An impossible month is judged in processing, not at intake, so it is not a
 * fail-fast reason.
 */
export function accessKeyIssueMonth(key: string): { year: number; month: number } | null {
  if (!CLASSIC_KEY.test(key)) return null;
  const month = Number(key.slice(4, 6));
  if (month < 1 || month > 12) return null;
  return { year: 2000 + Number(key.slice(2, 4)), month };
}

/**
 * The 8 digits before the check digit (cNF of an NF-e/NFC-e) of a 44-digit key, '' otherwise.
 * The pipeline reads particular values here as test-mode triggers, because integrators control
 * them when they build test keys and they carry no fiscal meaning.
 */
export function accessKeyTestTrigger(key: string): string {
  return CLASSIC_KEY.test(key) ? key.slice(35, 43) : '';
}

const DEFAULT_PARTS: Required<AccessKeyParts> = {
  uf: '35',
  yymm: '2611',
  cnpj: '11222333000181',
  model: '65',
  serie: '001',
  number: '000000001',
  tpEmis: '1',
  cnf: '12345678',
};

const PART_LENGTHS: Record<keyof AccessKeyParts, number> = {
  uf: 2,
  yymm: 4,
  cnpj: 14,
  model: 2,
  serie: 3,
  number: 9,
  tpEmis: 1,
  cnf: 8,
};

/**
 * Builds a 44-digit NF-e/NFC-e-layout key with a correct check digit. Parts are not judged (a
 * test may want model '99' or state '00'), only their length and digits, so a typo in a test
 * fails loudly instead of shifting every later field.
 */
export function makeAccessKey(parts: AccessKeyParts = {}): string {
  const p = { ...DEFAULT_PARTS, ...definedOnly(parts) };
  for (const name of Object.keys(PART_LENGTHS) as Array<keyof AccessKeyParts>) {
    const length = PART_LENGTHS[name];
    if (p[name].length !== length || !DIGITS.test(p[name])) {
      throw new RangeError(`makeAccessKey: ${name} must be ${length} digits, got "${p[name]}"`);
    }
  }
  const first43 = p.uf + p.yymm + p.cnpj + p.model + p.serie + p.number + p.tpEmis + p.cnf;
  return first43 + String(computeAccessKeyCheckDigit(first43));
}

// `{ uf: undefined }` must fall back to the default rather than erase it.
function definedOnly(parts: AccessKeyParts): AccessKeyParts {
  const out: AccessKeyParts = {};
  for (const [name, value] of Object.entries(parts) as Array<[keyof AccessKeyParts, string | undefined]>) {
    if (value !== undefined) out[name] = value;
  }
  return out;
}
