// Participant phone numbers: turns what an integrator sends into the canonical E.164 digits (no
// '+') that the campaign's phone uniqueness is keyed on, or null when it is not a valid number.
// docs/api.md#entry-submission: E.164 without the '+', country code required, any country accepted, punctuation stripped.
//
// Why `libphonenumber-js/max`: the package's default export uses the "min" metadata, whose
// isValid() only checks a number's length and leading digits. It accepts, for example,
// 55 11 8xxxx-xxxx (an 11-digit São Paulo number not starting with 9, which Anatel never
// assigns) and 55 11 0xxxx-xxxx, and a Brazilian number sent without its 55 that happens to
// fall into another country's plan (11 987654321 read as +1 is rejected by both). "max" matches
// the full per-type patterns of Google's libphonenumber, so validity means "this range exists".
// Its larger metadata (~150 kB) is irrelevant on a server. The price is that a newly opened
// range is rejected until the dependency is updated.
//
// Limits worth knowing: a number sent without its country code is read as if its first digits
// were one, so it is rejected only when that reading is invalid. 51 98765-4321 (a Porto Alegre
// mobile without 55) is a valid Peruvian mobile, +51 987 654 321, and is accepted as such.

import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Separators integrators commonly keep: spaces, "(11)", "9876-5432", "98765.4321".
const SEPARATOR = '[\\s().-]';
const SEPARATORS = new RegExp(SEPARATOR, 'g');
// E.164 allows at most 15 digits; the shortest valid numbers anywhere have 7 or more.
const E164_DIGITS = /^[0-9]{7,15}$/;

/**
 * A phone as sent (after trimming): an optional leading '+', then 7 to 15 digits among
 * separators. The struct of POST /v1/entries checks it and the OpenAPI document publishes it;
 * whether the number exists in its country's plan is normalizePhone's.
 */
export const PHONE_AS_SENT = new RegExp(`^\\+?(?:${SEPARATOR}*[0-9]){7,15}${SEPARATOR}*$`);
// Bounds the work done on hostile input before the regexes run.
const MAX_RAW_LENGTH = 64;

/** Canonical E.164 digits without '+' for a valid number with country code, else null. */
export function normalizePhone(raw: string): string | null {
  if (raw.length > MAX_RAW_LENGTH) return null;
  const trimmed = raw.trim();
  const unsigned = trimmed.startsWith('+') ? trimmed.slice(1) : trimmed;
  const digits = unsigned.replace(SEPARATORS, '');
  // libphonenumber is lenient by design (it ignores trailing letters, reads "x12" as an
  // extension and accepts non-ASCII digits), so the allowed alphabet is enforced here.
  if (!E164_DIGITS.test(digits)) return null;

  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed || !parsed.isValid()) return null;
  // parsed.number is canonical E.164: a national trunk prefix kept after the country code
  // ("55 011 ...") is dropped, so both spellings of one phone collide on uniqueness.
  return parsed.number.slice(1);
}
