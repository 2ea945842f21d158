// The POST /v1/entries body: its shape (superstruct, also the source of the OpenAPI schema), the
// field rules of SPEC.md that need no database, and the normalised Submission that the write stage
// stores. Every violation is reported with its field path; none stops the others from being found.
import { unknownFieldErrors } from '../validation/unknown-fields.ts';
import { isIP } from 'node:net';
import { array, boolean, enums, nullable, optional, string, type, validate, type Infer } from 'superstruct';
import { AppError, type FieldError } from '../errors.ts';
import { makePrintable } from '../printable.ts';
import { DATE_TIME_WITH_ZONE, SAO_PAULO_OFFSET_MS } from '../timestamps.ts';
import { parseDocument, type DocumentType } from './documents.ts';
import { isAccessKeyFormat } from './fiscal-key.ts';
import { normalizePhone } from './phone.ts';
import { BRAZILIAN_UFS, ISO_COUNTRIES } from './regions.ts';

export const CONSENT_TYPES = ['regulation', 'privacy_policy', 'marketing', 'data_sharing', 'image_use', 'transactional', 'other'] as const;
export type ConsentType = (typeof CONSENT_TYPES)[number];
/** Recorded even when the submission omits them (SPEC: consent). */
export const IMPLICIT_CONSENTS: readonly ConsentType[] = ['regulation', 'privacy_policy', 'transactional'];
export const USER_AGENT_MAX = 1024;

/**
 * Longest accepted value of each free-text field of the entry body, in characters (code points),
 * after trimming; longer is a 422 with the field's code `too_long`. Without them a 64 KiB body
 * could store a 64 KiB name, copied into every export, webhook and log line about the entry. The
 * fields with a fixed format (state, country, birthdate, document, access key) are bounded by it.
 * `user_agent` is not refused: SPEC truncates it at USER_AGENT_MAX.
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

/** True (and the error added) when `value` is longer than its field's maximum. */
function tooLong(field: keyof typeof TEXT_MAXIMA, value: string, add: (field: string, code: string, message: string) => void): boolean {
  const max = TEXT_MAXIMA[field];
  if ([...value].length <= max) return false;
  add(field, 'too_long', `${field.split('.').at(-1)} must be at most ${max} characters`);
  return true;
}

// Optional strings accept null as "not sent": integrators' serialisers often emit nulls.
const optionalString = () => optional(nullable(string()));

export const AddressStruct = type({
  address_line_1: optionalString(),
  address_line_2: optionalString(),
  neighborhood: optionalString(),
  city: optionalString(),
  state: optionalString(),
  zipcode: optionalString(),
  country: optionalString(),
});

export const EnrollmentStruct = type({
  document_number: string(),
  full_name: optionalString(),
  email: optionalString(),
  phone: optionalString(),
  birthdate: optionalString(),
  address: optional(nullable(AddressStruct)),
});

export const ConsentStruct = type({
  granted_at: string(),
  ip_address: string(),
  user_agent: string(),
  term_version: string(),
  consents: optional(nullable(array(type({ consent_type: enums(CONSENT_TYPES), granted: boolean() })))),
});

export const EvidenceStruct = type({ type: string(), access_key: string() });

export const InstantWinStruct = type({ won: boolean(), prize_definition_id: optionalString() });

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

export type EntrySubmissionBody = Infer<typeof EntrySubmissionStruct>;

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
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type Profile = Partial<Record<ProfileField, string>>;

export interface ConsentChoice {
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
const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Error codes that are reported as the top-level `code` when they are the only kind of violation. */
const PROMOTED_CODES = new Set(['invalid_document']);

/** How far ahead of the server's clock a consent's granted_at may be (CONTRACT "Consent from the future"). */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Validates and normalises a parsed JSON body. Throws AppError 422 listing every violation.
 * `nowMs` decides what "in the past" means for birthdate.
 */
export function parseSubmission(body: unknown, nowMs: number): Submission {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(422, 'validation_failed', 'The request body must be a JSON object.', [
      { field: '', code: 'invalid_type', message: 'expected a JSON object' },
    ]);
  }
  const errors: FieldError[] = [];
  // superstruct is the reference and the source of every shape error; the hand check only skips it
  // for a body it would pass (most of them), which halves the cost of this function.
  // The slow path may word a failure message from any value: every object must be printable,
  // whoever parsed the JSON (the HTTP reader already does this; other callers may not).
  const fast = hasEntryShape(body as Record<string, unknown>);
  if (!fast) makePrintable(body);
  const [structError] = fast ? [undefined] : validate(body, EntrySubmissionStruct);
  if (structError) {
    const failures = structError.failures().map(failureToFieldError);
    // superstruct also walks into an array sent where an object belongs; report only the parent.
    for (const f of failures) if (!failures.some((p) => f.field.startsWith(`${p.field}.`))) errors.push(f);
  }
  const failed = errors.map((e) => e.field);
  // A field is checked further only when neither it nor an enclosing object failed its shape...
  const ok = (field: string): boolean => !failed.some((f) => f === field || field.startsWith(`${f}.`));
  // ...and a list only when none of its items failed either.
  const okTree = (field: string): boolean => ok(field) && !failed.some((f) => f.startsWith(`${field}.`));
  const add = (field: string, code: string, message: string): void => {
    errors.push({ field, code, message });
  };
  const b = body as EntrySubmissionBody;

  // enrollment
  let document: Submission['document'] | null = null;
  if (ok('enrollment.document_number')) {
    const parsed = parseDocument(b.enrollment.document_number);
    if (parsed.ok) document = { type: parsed.type, number: parsed.number };
    else add('enrollment.document_number', parsed.code, parsed.message);
  }
  const profile: Profile = {};
  const text = (value: string | null | undefined): string | null => {
    if (value === undefined || value === null) return null;
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  };
  if (ok('enrollment')) {
    const e = b.enrollment;
    const fullName = ok('enrollment.full_name') ? text(e.full_name) : null;
    if (fullName !== null && !tooLong('enrollment.full_name', fullName, add)) {
      if ([...fullName].length < 3) add('enrollment.full_name', 'too_short', 'full_name must have at least 3 characters');
      else profile.full_name = fullName;
    }
    const email = ok('enrollment.email') ? text(e.email) : null;
    if (email !== null && !tooLong('enrollment.email', email, add)) {
      if (!EMAIL.test(email)) add('enrollment.email', 'invalid_email', 'email is not a valid email address');
      else profile.email = email;
    }
    const phone = ok('enrollment.phone') ? text(e.phone) : null;
    if (phone !== null && !tooLong('enrollment.phone', phone, add)) {
      const normalized = normalizePhone(phone);
      if (normalized === null)
        add('enrollment.phone', 'invalid_phone', 'phone must be E.164 without the leading +, country code included (e.g. 5511987654321)');
      else profile.phone = normalized;
    }
    const birthdate = ok('enrollment.birthdate') ? text(e.birthdate) : null;
    if (birthdate !== null) {
      const problem = checkBirthdate(birthdate, nowMs);
      if (problem) add('enrollment.birthdate', problem.code, problem.message);
      else profile.birthdate = birthdate;
    }
    const address = e.address;
    if (address && ok('enrollment.address')) {
      // A sub-field of the wrong type is already reported; it must not reach the string rules.
      const sub = (field: keyof typeof address): string | null => (ok(`enrollment.address.${field}`) ? text(address[field]) : null);
      for (const field of ['address_line_1', 'address_line_2', 'neighborhood', 'city', 'zipcode'] as const) {
        const value = sub(field);
        if (value !== null && !tooLong(`enrollment.address.${field}`, value, add)) profile[field] = value;
      }
      const state = sub('state');
      if (state !== null) {
        if (!BRAZILIAN_UFS.has(state.toUpperCase()))
          add('enrollment.address.state', 'invalid_state', 'state must be a two-letter Brazilian UF (e.g. SP)');
        else profile.state = state.toUpperCase();
      }
      const country = sub('country');
      if (country !== null) {
        if (!ISO_COUNTRIES.has(country.toUpperCase()))
          add('enrollment.address.country', 'invalid_country', 'country must be a two-letter ISO 3166-1 code (e.g. BR)');
        else profile.country = country.toUpperCase();
      } else {
        profile.country = 'BR';
      }
    }
  }

  // consent
  let consent: Submission['consent'] | null = null;
  if (ok('consent')) {
    const c = b.consent;
    if (
      ok('consent.granted_at') &&
      !(DATE_TIME_WITH_ZONE.test(c.granted_at) && isCalendarDate(c.granted_at.slice(0, 10)) && !Number.isNaN(Date.parse(c.granted_at)))
    ) {
      add(
        'consent.granted_at',
        'invalid_date_time',
        'granted_at must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T14:03:00-03:00)',
      );
    } else if (ok('consent.granted_at') && Date.parse(c.granted_at) > nowMs + CONSENT_CLOCK_SKEW_MS) {
      // A consent cannot have been given after it was sent; five minutes allow for a partner's clock.
      add('consent.granted_at', 'in_future', 'granted_at must not be more than 5 minutes ahead of the server clock');
    }
    if (ok('consent.ip_address') && isIP(c.ip_address.trim()) === 0)
      add('consent.ip_address', 'invalid_ip', 'ip_address must be an IPv4 or IPv6 address');
    if (ok('consent.user_agent') && c.user_agent.trim() === '') add('consent.user_agent', 'required', 'user_agent is required');
    if (ok('consent.term_version') && c.term_version.trim() === '') add('consent.term_version', 'required', 'term_version is required');
    else if (ok('consent.term_version')) tooLong('consent.term_version', c.term_version.trim(), add);
    const choices: ConsentChoice[] = [];
    const seen = new Set<string>();
    // Every item whose own shape passed is checked, so a duplicate is reported beside another
    // item's shape error (every 422 lists every violation at once).
    (ok('consent.consents') && Array.isArray(c.consents) ? c.consents : []).forEach((item, i) => {
      if (!okTree(`consent.consents.${i}`)) return;
      if (seen.has(item.consent_type))
        add(`consent.consents.${i}.consent_type`, 'duplicate', `consent_type ${item.consent_type} appears more than once`);
      seen.add(item.consent_type);
      choices.push({ consent_type: item.consent_type, granted: item.granted, explicit: true });
    });
    for (const implicit of IMPLICIT_CONSENTS) {
      if (!seen.has(implicit)) choices.push({ consent_type: implicit, granted: true, explicit: false });
    }
    // Built only when every consent field passed its shape check (otherwise errors[] is thrown below).
    if (okTree('consent'))
      consent = {
        granted_at: c.granted_at,
        ip_address: c.ip_address.trim(),
        user_agent: [...c.user_agent].slice(0, USER_AGENT_MAX).join(''),
        term_version: c.term_version.trim(),
        choices,
      };
  }

  // evidence
  let accessKey = '';
  if (ok('evidence')) {
    if (ok('evidence.type') && b.evidence.type !== 'fiscal_key')
      add('evidence.type', 'unsupported_evidence_type', 'evidence.type must be "fiscal_key"');
    if (ok('evidence.access_key')) {
      accessKey = b.evidence.access_key.replace(/\s+/g, '');
      if (!isAccessKeyFormat(accessKey)) add('evidence.access_key', 'invalid_access_key', 'access_key must be 44 to 50 digits');
    }
  }

  // instant_win (shape; the prize is checked against the campaign in the write stage)
  let instantWin: Submission['instantWin'] = null;
  if (b.instant_win && okTree('instant_win')) {
    const prizeId = text(b.instant_win.prize_definition_id);
    if (b.instant_win.won && prizeId === null)
      add('instant_win.prize_definition_id', 'required', 'prize_definition_id is required when won is true');
    else if (!b.instant_win.won && prizeId !== null)
      add('instant_win.prize_definition_id', 'not_allowed', 'prize_definition_id must be omitted when won is false');
    else if (prizeId !== null && !isUuid(prizeId))
      add('instant_win.prize_definition_id', 'unknown_prize', 'prize_definition_id is not a prize of this campaign');
    // UUIDs are case-insensitive on input (RFC 9562); prize ids are stored in lower case.
    instantWin = { won: b.instant_win.won, prize_definition_id: prizeId === null ? null : prizeId.toLowerCase() };
  }

  errors.push(...unknownFieldErrors(body, EntrySubmissionStruct));
  if (errors.length > 0) throw submissionError(errors);
  return {
    document: document!,
    profile,
    consent: consent!,
    evidence: { type: 'fiscal_key', access_key: accessKey },
    instantWin,
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isOptionalString = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const CONSENT_TYPE_SET: ReadonlySet<unknown> = new Set(CONSENT_TYPES);

/**
 * True only for a body EntrySubmissionStruct accepts without a failure (it may say false for some
 * that it accepts, which then simply go through superstruct). Kept beside the structs it mirrors;
 * test/unit/submission-shape.test.ts checks the implication on generated bodies.
 */
export function hasEntryShape(b: Record<string, unknown>): boolean {
  const e = b.enrollment;
  if (!isPlainObject(e) || !isString(e.document_number)) return false;
  if (!isOptionalString(e.full_name) || !isOptionalString(e.email) || !isOptionalString(e.phone) || !isOptionalString(e.birthdate))
    return false;
  const a = e.address;
  if (a !== undefined && a !== null) {
    if (!isPlainObject(a)) return false;
    if (
      !isOptionalString(a.address_line_1) ||
      !isOptionalString(a.address_line_2) ||
      !isOptionalString(a.neighborhood) ||
      !isOptionalString(a.city)
    )
      return false;
    if (!isOptionalString(a.state) || !isOptionalString(a.zipcode) || !isOptionalString(a.country)) return false;
  }
  const c = b.consent;
  if (!isPlainObject(c) || !isString(c.granted_at) || !isString(c.ip_address) || !isString(c.user_agent) || !isString(c.term_version))
    return false;
  const consents = c.consents;
  if (consents !== undefined && consents !== null) {
    if (!Array.isArray(consents)) return false;
    for (const item of consents) {
      if (!isPlainObject(item) || !CONSENT_TYPE_SET.has(item.consent_type) || typeof item.granted !== 'boolean') return false;
    }
  }
  const ev = b.evidence;
  if (!isPlainObject(ev) || !isString(ev.type) || !isString(ev.access_key)) return false;
  const iw = b.instant_win;
  if (iw !== undefined && iw !== null) {
    if (!isPlainObject(iw) || typeof iw.won !== 'boolean' || !isOptionalString(iw.prize_definition_id)) return false;
  }
  return true;
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

function failureToFieldError(failure: { path: Array<string | number>; value: unknown; type: string; message: string }): FieldError {
  const field = failure.path.join('.');
  if (failure.value === undefined) return { field, code: 'required', message: `${field} is required` };
  if (failure.type === 'enums') return { field, code: 'invalid_value', message: `${field}: ${failure.message}` };
  return { field, code: 'invalid_type', message: `${field}: ${failure.message}` };
}

/** True for a YYYY-MM-DD that exists on the calendar (Date.parse alone accepts 2026-02-30). */
function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function checkBirthdate(value: string, nowMs: number): { code: string; message: string } | null {
  const invalid = { code: 'invalid_date', message: 'birthdate must be a real date formatted YYYY-MM-DD' };
  if (!isCalendarDate(value) || Number(value.slice(0, 4)) < 1900) return invalid;
  // "In the past" is judged on the calendar date in Brazil (UTC-3): today itself is not past.
  const today = new Date(nowMs + SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);
  if (value >= today) return { code: 'not_in_past', message: 'birthdate must be a date in the past' };
  return null;
}
