// The POST /v1/entries body: its shape and every rule on a single field (superstruct structs built
// with src/validation/described.ts, which are also the source of the OpenAPI schema), the field
// rules of docs/api.md#entry-submission that no schema can state (check digits, a phone's numbering
// plan, dates relative to now), and the normalised Submission that the write stage stores. Every
// violation is reported with its field path; none stops the others from being found.
import { unknownFieldErrors } from '../validation/unknown-fields.ts';
import { array, boolean, enums, nullable, optional, type, type Infer } from 'superstruct';
import { AppError, type FieldError } from '../kernel/errors.ts';
import { makePrintable } from '../tools/printable.ts';
import { DATE_TIME_AS_SENT, SAO_PAULO_OFFSET_MS } from '../input/timestamps.ts';
import { describedString, requiredWhen, uniqueBy, UUID_PATTERN, type StringRules } from '../validation/described.ts';
import { structErrors } from '../validation/field-errors.ts';
import { DOCUMENT_AS_SENT, describeDocumentShape, parseDocument, type DocumentType } from '../input/documents.ts';
import { ACCESS_KEY_AS_SENT } from './fiscal-key.ts';
import { normalizePhone, PHONE_AS_SENT } from './phone.ts';
import { BRAZILIAN_UFS, ISO_COUNTRIES } from './regions.ts';

const CONSENT_TYPES = ['regulation', 'privacy_policy', 'marketing', 'data_sharing', 'image_use', 'transactional', 'other'] as const;
type ConsentType = (typeof CONSENT_TYPES)[number];
/** Recorded even when the submission omits them (docs/api.md#entry-submission). */
const IMPLICIT_CONSENTS: readonly ConsentType[] = ['regulation', 'privacy_policy', 'transactional'];
export const USER_AGENT_MAX = 1024;

/**
 * Longest accepted value of each free-text field of the entry body, in characters (code points),
 * after trimming; longer is a 422 with the field's code `too_long`. Without them a 64 KiB body
 * could store a 64 KiB name, copied into every export, webhook and log line about the entry. The
 * fields with a fixed format (state, country, birthdate, document, access key) are bounded by it.
 * `user_agent` is not refused: it is truncated at USER_AGENT_MAX.
 */
export const TEXT_MAXIMA = {
  'enrollment.full_name': 200,
  'enrollment.email': 254,
  'enrollment.phone': 32,
  'enrollment.address.address_line_1': 200,
  'enrollment.address.address_line_2': 200,
  'enrollment.address.neighborhood': 100,
  'enrollment.address.city': 100,
  'enrollment.address.zipcode': 16,
  'consent.term_version': 100,
} as const;

const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** A real YYYY-MM-DD (the format's check) from 1900 on. */
const BIRTHDATE = /^(?:19|[2-9][0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}$/;

// Optional text is trimmed, and a blank value counts as not sent; null means not sent too, as
// integrators' serialisers often emit nulls.
const optionalText = (rules: Omit<StringRules, 'trim' | 'blank'> = {}) =>
  optional(nullable(describedString({ ...rules, trim: true, blank: 'omitted' })));
const limitedText = (field: keyof typeof TEXT_MAXIMA, rules: Omit<StringRules, 'trim' | 'blank'> = {}) =>
  optionalText({ ...rules, maxLength: TEXT_MAXIMA[field] });

const AddressStruct = type({
  address_line_1: limitedText('enrollment.address.address_line_1'),
  address_line_2: limitedText('enrollment.address.address_line_2'),
  neighborhood: limitedText('enrollment.address.neighborhood'),
  city: limitedText('enrollment.address.city'),
  state: optionalText({
    enum: [...BRAZILIAN_UFS],
    ignoreCase: true,
    code: 'invalid_state',
    message: 'state must be a two-letter Brazilian UF (e.g. SP)',
  }),
  zipcode: limitedText('enrollment.address.zipcode'),
  country: optionalText({
    enum: [...ISO_COUNTRIES],
    ignoreCase: true,
    code: 'invalid_country',
    message: 'country must be a two-letter ISO 3166-1 code (e.g. BR)',
  }),
});

const EnrollmentStruct = type({
  document_number: describedString({ pattern: DOCUMENT_AS_SENT, code: 'invalid_document', message: describeDocumentShape }),
  full_name: limitedText('enrollment.full_name', { minLength: 3 }),
  email: limitedText('enrollment.email', {
    pattern: EMAIL,
    format: 'email',
    code: 'invalid_email',
    message: 'email is not a valid email address',
  }),
  phone: limitedText('enrollment.phone', {
    pattern: PHONE_AS_SENT,
    code: 'invalid_phone',
    message: 'phone must be E.164 without the leading +, country code included (e.g. 5511987654321)',
  }),
  birthdate: optionalText({
    pattern: BIRTHDATE,
    format: 'date',
    code: 'invalid_date',
    message: 'birthdate must be a real date formatted YYYY-MM-DD',
  }),
  address: optional(nullable(AddressStruct)),
});

const ConsentItemStruct = uniqueBy(type({ consent_type: enums(CONSENT_TYPES), granted: boolean() }), 'consent_type', CONSENT_TYPES);

const ConsentStruct = type({
  granted_at: describedString({
    pattern: DATE_TIME_AS_SENT,
    format: 'date-time',
    code: 'invalid_date_time',
    message: 'granted_at must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T14:03:00-03:00)',
  }),
  ip_address: describedString({
    trim: true,
    format: ['ipv4', 'ipv6'],
    code: 'invalid_ip',
    message: 'ip_address must be an IPv4 or IPv6 address',
  }),
  user_agent: describedString({ trim: true, blank: 'required' }),
  term_version: describedString({ trim: true, blank: 'required', maxLength: TEXT_MAXIMA['consent.term_version'] }),
  consents: optional(nullable(array(ConsentItemStruct))),
});

const EvidenceStruct = type({
  type: describedString({ enum: ['fiscal_key'], code: 'unsupported_evidence_type', message: 'evidence.type must be "fiscal_key"' }),
  access_key: describedString({ pattern: ACCESS_KEY_AS_SENT, code: 'invalid_access_key', message: 'access_key must be 44 to 50 digits' }),
});

const InstantWinStruct = requiredWhen(
  type({
    won: boolean(),
    // Not a uuid cannot be a prize of the campaign: the same answer as an unknown one.
    prize_definition_id: optionalText({
      pattern: UUID_PATTERN,
      format: 'uuid',
      code: 'unknown_prize',
      message: 'prize_definition_id is not a prize of this campaign',
    }),
  }),
  'won',
  'prize_definition_id',
);

/**
 * `type`, not `object`: superstruct would stop at an unknown field with a message of its own;
 * unknown fields at any depth are reported by unknownFieldErrors instead, as `unknown_field`.
 */
export const EntrySubmissionStruct = type({
  enrollment: EnrollmentStruct,
  consent: ConsentStruct,
  evidence: EvidenceStruct,
  instant_win: optional(nullable(InstantWinStruct)),
});

type EntrySubmissionBody = Infer<typeof EntrySubmissionStruct>;

export const PROFILE_FIELDS = [
  'full_name',
  'email',
  'phone',
  'birthdate',
  'address_line_1',
  'address_line_2',
  'neighborhood',
  'city',
  'state',
  'zipcode',
  'country',
] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];
type Profile = Partial<Record<ProfileField, string>>;

interface ConsentChoice {
  consent_type: ConsentType;
  granted: boolean;
  explicit: boolean;
}

export interface Submission {
  document: { type: DocumentType; number: string };
  /** Only the fields sent non-empty, normalised (phone digits, upper-case UF and country). */
  profile: Profile;
  consent: { granted_at: string; ip_address: string; user_agent: string; term_version: string; choices: ConsentChoice[] };
  evidence: { type: 'fiscal_key'; access_key: string };
  instantWin: { won: boolean; prize_definition_id: string | null } | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Error codes that are reported as the top-level `code` when they are the only kind of violation. */
const PROMOTED_CODES = new Set(['invalid_document']);

/** How far ahead of the server's clock a consent's granted_at may be (docs/api.md#errors, `in_future`). */
const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Validates and normalises a parsed JSON body. Throws AppError 422 listing every violation.
 * `nowMs` decides what "in the past" means for birthdate and "ahead" for granted_at.
 */
export function parseSubmission(body: unknown, nowMs: number): Submission {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(422, 'validation_failed', 'The request body must be a JSON object.', [
      { field: '', code: 'invalid_type', message: 'expected a JSON object' },
    ]);
  }
  // A failure message may print any value: every object must be printable, whoever parsed the
  // JSON (the HTTP reader already does this; other callers may not).
  makePrintable(body);
  // Shape and single-field rules: the struct, as the OpenAPI document shows it.
  const errors = structErrors(body, EntrySubmissionStruct);
  const ruleErrors = errors.length;
  const failed = errors.map((e) => e.field);
  // The rules no schema states are checked on fields whose own rules passed.
  const ok = (field: string): boolean => !failed.some((f) => f === field || f === '' || field.startsWith(`${f}.`));
  const add = (field: string, code: FieldError['code'], message: string): void => {
    errors.push({ field, code, message });
  };
  const b = body as EntrySubmissionBody;
  const text = (value: string | null | undefined): string | null => {
    if (value === undefined || value === null) return null;
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  };

  // Check digits, a phone's numbering plan, a birthdate before today, a consent not from the future.
  let document: Submission['document'] | null = null;
  if (ok('enrollment.document_number')) {
    const parsed = parseDocument(b.enrollment.document_number);
    if (parsed.ok) document = { type: parsed.type, number: parsed.number };
    else add('enrollment.document_number', parsed.code, parsed.message);
  }
  const phone = ok('enrollment.phone') ? text(b.enrollment.phone) : null;
  const phoneDigits = phone === null ? null : normalizePhone(phone);
  if (phone !== null && phoneDigits === null)
    add('enrollment.phone', 'invalid_phone', 'phone must be E.164 without the leading +, country code included (e.g. 5511987654321)');
  const birthdate = ok('enrollment.birthdate') ? text(b.enrollment.birthdate) : null;
  // "In the past" is judged on the calendar date in Brazil (UTC-3): today itself is not past.
  if (birthdate !== null && birthdate >= new Date(nowMs + SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10))
    add('enrollment.birthdate', 'not_in_past', 'birthdate must be a date in the past');
  // A consent cannot have been given after it was sent; five minutes allow for a partner's clock.
  if (ok('consent.granted_at') && Date.parse(b.consent.granted_at) > nowMs + CONSENT_CLOCK_SKEW_MS)
    add('consent.granted_at', 'in_future', 'granted_at must not be more than 5 minutes ahead of the server clock');

  if (errors.length > ruleErrors) errors.splice(0, errors.length, ...inFieldOrder(errors.slice(0, ruleErrors), errors.slice(ruleErrors)));
  errors.push(...unknownFieldErrors(body, EntrySubmissionStruct));
  if (errors.length > 0) throw submissionError(errors);

  // The body is valid: normalise it (trimmed text, upper-case UF and country, phone digits).
  const e = b.enrollment;
  const profile: Profile = {};
  const put = (field: ProfileField, value: string | null | undefined): void => {
    const t = text(value);
    if (t !== null) profile[field] = t;
  };
  put('full_name', e.full_name);
  put('email', e.email);
  if (phoneDigits !== null) profile.phone = phoneDigits;
  put('birthdate', e.birthdate);
  if (e.address) {
    for (const field of ['address_line_1', 'address_line_2', 'neighborhood', 'city', 'zipcode'] as const) put(field, e.address[field]);
    put('state', e.address.state?.toUpperCase());
    // Country defaults to BR only when an address is sent.
    profile.country = text(e.address.country)?.toUpperCase() ?? 'BR';
  }
  const c = b.consent;
  const choices: ConsentChoice[] = (c.consents ?? []).map((item) => ({
    consent_type: item.consent_type,
    granted: item.granted,
    explicit: true,
  }));
  for (const implicit of IMPLICIT_CONSENTS) {
    if (!choices.some((choice) => choice.consent_type === implicit))
      choices.push({ consent_type: implicit, granted: true, explicit: false });
  }
  const prizeId = b.instant_win ? text(b.instant_win.prize_definition_id) : null;
  return {
    document: document!,
    profile,
    consent: {
      granted_at: c.granted_at,
      ip_address: c.ip_address.trim(),
      user_agent: [...c.user_agent].slice(0, USER_AGENT_MAX).join(''),
      term_version: c.term_version.trim(),
      choices,
    },
    evidence: { type: 'fiscal_key', access_key: b.evidence.access_key.replace(/\s+/g, '') },
    // UUIDs are case-insensitive on input (RFC 9562); prize ids are stored in lower case.
    instantWin: b.instant_win ? { won: b.instant_win.won, prize_definition_id: prizeId === null ? null : prizeId.toLowerCase() } : null,
  };
}

/** Every field path of the body, in the order of the struct (array items as `*`). */
const FIELD_ORDER: readonly string[] = (() => {
  const out: string[] = [];
  const walk = (struct: { type: string; schema: unknown }, path: string): void => {
    if (struct.type === 'type' || struct.type === 'object') {
      for (const [name, member] of Object.entries(struct.schema as Record<string, { type: string; schema: unknown }>)) {
        const field = path === '' ? name : `${path}.${name}`;
        out.push(field);
        walk(member, field);
      }
    } else if (struct.type === 'array' && struct.schema) {
      walk(struct.schema as { type: string; schema: unknown }, `${path}.*`);
    }
  };
  walk(EntrySubmissionStruct, '');
  return out;
})();

/** The struct's errors (in the order of the body) with the later checks' errors put among them by field. */
function inFieldOrder(structErrors: FieldError[], later: FieldError[]): FieldError[] {
  const rank = (field: string): number => FIELD_ORDER.indexOf(field.replace(/\.[0-9]+(?=\.|$)/g, '.*'));
  const out = [...structErrors];
  for (const error of later) {
    const at = out.findIndex((other) => rank(other.field) > rank(error.field));
    out.splice(at === -1 ? out.length : at, 0, error);
  }
  return out;
}

function submissionError(errors: FieldError[]): AppError {
  const codes = new Set(errors.map((e) => e.code));
  if (codes.size === 1) {
    const [code] = codes;
    if (PROMOTED_CODES.has(code)) return new AppError(422, code, errors[0].message, errors);
    if (code === 'unknown_prize') return new AppError(422, 'unknown_prize', errors[0].message, errors);
  }
  return new AppError(
    422,
    'validation_failed',
    `The entry is invalid: ${errors.map((e) => `${e.field || 'body'}: ${e.message}`).join('; ')}`,
    errors,
  );
}
