// Test data that ces accepts: CPFs and CNPJs (the alphanumeric CNPJ of 2026 included) with valid
// check digits, NF-e (model 55) and NFC-e (65) access keys with their mod-11 check digit, and a
// whole entry body. Each call draws new values, so that entries do not collide on an email or a
// receipt (duplicate_receipt); pass `random` (a function like Math.random) for repeatable values.
import type { EntrySubmission } from './types.ts';

export interface RandomOption {
  /** A number in [0, 1), like Math.random (default: crypto.getRandomValues). */
  random?: () => number;
}

const DIGITS = '0123456789';
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** IBGE codes of the 27 states (cUF, the first two digits of an access key). */
export const STATE_CODES = [
  '11', '12', '13', '14', '15', '16', '17', '21', '22', '23', '24', '25', '26', '27',
  '28', '29', '31', '32', '33', '35', '41', '42', '43', '50', '51', '52', '53',
] as const; // prettier-ignore

/** cNF values that, in test mode, make processing reject the entry (docs/api.md, test-mode triggers). */
export const TEST_TRIGGERS = { fiscal_rejected: '99999901', fraud_suspected: '99999902' } as const;

function secureRandom(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32;
}

function draw(alphabet: string, length: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** A mod-11 check digit: the sum of value × weight, remainders 0 and 1 give 0, any other r gives 11 - r. */
function mod11(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! * weights[i]!;
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/** The two check digits of a CPF's first 9 digits. */
export function cpfCheckDigits(first9: string): string {
  if (!/^[0-9]{9}$/.test(first9)) throw new RangeError('cpfCheckDigits expects 9 digits');
  const values = [...first9].map(Number);
  const first = mod11(values, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11([...values, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${first}${second}`;
}

/** A valid CPF, 11 digits without punctuation (never one repeated digit, which is never issued). */
export function generateCpf({ random = secureRandom }: RandomOption = {}): string {
  for (;;) {
    const first9 = draw(DIGITS, 9, random);
    if (!/^(.)\1+$/.test(first9)) return first9 + cpfCheckDigits(first9);
  }
}

/**
 * The two check digits of a CNPJ's first 12 characters, numeric or alphanumeric (each character
 * is worth its ASCII code minus 48, so '0'-'9' are 0-9 and 'A'-'Z' 17-42).
 */
export function cnpjCheckDigits(first12: string): string {
  if (!/^[0-9A-Z]{12}$/.test(first12)) throw new RangeError('cnpjCheckDigits expects 12 characters 0-9 or A-Z');
  const values = [...first12].map((c) => c.charCodeAt(0) - 48);
  const first = mod11(values, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11([...values, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${first}${second}`;
}

/**
 * A valid CNPJ of 14 characters: by default alphanumeric (the format issued from July 2026: 8
 * characters of root with at least one letter, branch 0001, 2 numeric check digits); `numeric:
 * true` gives a classic all-digit one (the only kind an access key can carry).
 */
export function generateCnpj({ random = secureRandom, numeric = false }: RandomOption & { numeric?: boolean } = {}): string {
  for (;;) {
    const root = draw(numeric ? DIGITS : ALPHANUMERIC, 8, random);
    if (!numeric && /^[0-9]+$/.test(root)) continue;
    if (/^(.)\1+$/.test(root)) continue;
    const first12 = `${root}0001`;
    return first12 + cnpjCheckDigits(first12);
  }
}

/** The check digit (cDV) of an access key's first 43 digits: mod 11 with weights 2 to 9 from the right, repeating. */
export function accessKeyCheckDigit(first43: string): number {
  if (!/^[0-9]{43}$/.test(first43)) throw new RangeError('accessKeyCheckDigit expects 43 digits');
  const values = [...first43].map(Number);
  const weights = values.map((_, i) => 2 + ((values.length - 1 - i) % 8));
  return mod11(values, weights);
}

export interface AccessKeyOptions extends RandomOption {
  /** cUF, the issuing state's IBGE code (default a random one of STATE_CODES). */
  uf?: string;
  /** AAMM, year and month of issue (default the current month in Brasília time; a later month is rejected in processing). */
  yymm?: string;
  /** The issuer's CNPJ, 14 digits (default a random valid one). */
  cnpj?: string;
  /** mod: 55 (NF-e) or 65 (NFC-e, default). */
  model?: '55' | '65';
  /** serie, 3 digits (default 001). */
  serie?: string;
  /** nNF, the document number, 9 digits (default random). */
  number?: string;
  /** tpEmis, the emission type, 1 digit (default 1, normal). */
  tpEmis?: string;
  /** cNF, 8 digits (default random, never a test trigger). */
  cnf?: string;
  /** In test mode, make processing reject the entry: sets cNF to the trigger. */
  testTrigger?: keyof typeof TEST_TRIGGERS;
}

const ACCESS_KEY_PARTS = [
  ['uf', 2],
  ['yymm', 4],
  ['cnpj', 14],
  ['model', 2],
  ['serie', 3],
  ['number', 9],
  ['tpEmis', 1],
  ['cnf', 8],
] as const;

/**
 * A 44-digit NF-e / NFC-e access key with its check digit: cUF (2) AAMM (4) CNPJ (14) mod (2)
 * serie (3) nNF (9) tpEmis (1) cNF (8) cDV (1). New random parts on each call, so no two entries
 * share a receipt.
 */
export function generateAccessKey(options: AccessKeyOptions = {}): string {
  const random = options.random ?? secureRandom;
  const cnf = options.testTrigger ? TEST_TRIGGERS[options.testTrigger] : (options.cnf ?? randomCnf(random));
  const parts: Record<(typeof ACCESS_KEY_PARTS)[number][0], string> = {
    uf: options.uf ?? STATE_CODES[Math.floor(random() * STATE_CODES.length)]!,
    yymm: options.yymm ?? brasiliaYearMonth(Date.now()),
    cnpj: options.cnpj ?? generateCnpj({ random, numeric: true }),
    model: options.model ?? '65',
    serie: options.serie ?? '001',
    number: options.number ?? `${1 + Math.floor(random() * 9)}${draw(DIGITS, 8, random)}`,
    tpEmis: options.tpEmis ?? '1',
    cnf,
  };
  for (const [name, length] of ACCESS_KEY_PARTS)
    if (!new RegExp(`^[0-9]{${length}}$`).test(parts[name]))
      throw new RangeError(`access key ${name} must be ${length} digits, got "${parts[name]}"`);
  const first43 = ACCESS_KEY_PARTS.map(([name]) => parts[name]).join('');
  return first43 + String(accessKeyCheckDigit(first43));
}

function randomCnf(random: () => number): string {
  for (;;) {
    const cnf = draw(DIGITS, 8, random);
    if (!Object.values<string>(TEST_TRIGGERS).includes(cnf)) return cnf;
  }
}

/** AAMM of an instant in Brasília time (UTC-3, no daylight saving since 2019), as ces judges issue months. */
function brasiliaYearMonth(ms: number): string {
  const d = new Date(ms - 3 * 3_600_000);
  return `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface EntryOptions extends RandomOption {
  /** Merged over the generated enrollment (document_number: a new CPF, full_name, email). */
  enrollment?: Partial<EntrySubmission['enrollment']>;
  /** Merged over the generated consent (granted now, from a documentation address). */
  consent?: Partial<EntrySubmission['consent']>;
  /** Options of the generated access key. */
  accessKey?: Omit<AccessKeyOptions, 'random'>;
  instant_win?: EntrySubmission['instant_win'];
}

/** A whole entry body ces accepts: a new participant (CPF, name, email), consent given now, a new NFC-e. */
export function generateEntry(options: EntryOptions = {}): EntrySubmission {
  const random = options.random ?? secureRandom;
  const tag = draw(DIGITS, 8, random);
  const body: EntrySubmission = {
    enrollment: {
      document_number: generateCpf({ random }),
      full_name: `Participante ${tag}`,
      email: `participante.${tag}@example.com`,
      ...options.enrollment,
    },
    consent: {
      granted_at: new Date().toISOString(),
      ip_address: `203.0.113.${1 + Math.floor(random() * 254)}`,
      user_agent: '@ces/client test data',
      term_version: 'v1',
      ...options.consent,
    },
    evidence: { type: 'fiscal_key', access_key: generateAccessKey({ ...options.accessKey, random }) },
  };
  if (options.instant_win !== undefined) body.instant_win = options.instant_win;
  return body;
}
