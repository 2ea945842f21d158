// Participant documents: turns the `document_number` an integrator sends into a normalised CPF or
// CNPJ, or into an `invalid_document` failure whose message says what is wrong (length, characters
// or check digits). Punctuation and case are forgiven; the checksum never is. The check-digit
// arithmetic is the library's (`@brazilian-utils/brazilian-utils`), including the alphanumeric
// CNPJ in force since July 2026; this module owns only normalisation and the CPF-or-CNPJ decision.
// Whether a CNPJ participant is allowed at all is a campaign rule, decided by the caller.

import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';

export type DocumentType = 'cpf' | 'cnpj';

type ParsedDocument = { ok: true; type: DocumentType; number: string } | { ok: false; code: 'invalid_document'; message: string };

// The mask characters of both formats ("123.456.789-09", "12.ABC.345/01DE-35") plus whitespace.
const PUNCTUATION = /[.\-/\s]/g;
const CPF_SHAPE = /^[0-9]{11}$/;
// Alphanumeric CNPJ: 12 characters of root + branch, each 0-9 or A-Z, then 2 numeric check digits.
const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;
const ALLOWED_CHARS = /^[0-9A-Z]*$/;

/**
 * The document as sent: a CPF or CNPJ shape once PUNCTUATION is stripped and letters upper-cased,
 * written for the value before either (the struct of POST /v1/entries checks it, and the OpenAPI
 * document publishes it). The check digits are parseDocument's.
 */
export const DOCUMENT_AS_SENT = /^[.\-/\s]*(?:(?:[0-9][.\-/\s]*){11}|(?:[0-9A-Za-z][.\-/\s]*){12}(?:[0-9][.\-/\s]*){2})$/;

/** Why a value does not have DOCUMENT_AS_SENT's shape, in words. */
export function describeDocumentShape(raw: string): string {
  return describeShapeError(raw.replace(PUNCTUATION, '').toUpperCase());
}
const REPEATED_DIGITS = /^([0-9])\1+$/;

/** Normalises and validates a CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric). */
export function parseDocument(raw: string): ParsedDocument {
  const value = raw.replace(PUNCTUATION, '').toUpperCase();

  if (CPF_SHAPE.test(value)) {
    if (isValidCpf(value)) return { ok: true, type: 'cpf', number: value };
    return invalid(
      REPEATED_DIGITS.test(value)
        ? 'document_number is a CPF made of one repeated digit, which is never issued.'
        : 'document_number has the 11 digits of a CPF but its check digits do not match.',
    );
  }

  if (CNPJ_SHAPE.test(value)) {
    if (isValidCnpj(value, { version: 2 })) return { ok: true, type: 'cnpj', number: value };
    return invalid(
      REPEATED_DIGITS.test(value)
        ? 'document_number is a CNPJ made of one repeated digit, which is never issued.'
        : 'document_number has the 14 characters of a CNPJ but its check digits do not match.',
    );
  }

  return invalid(describeShapeError(value));
}

// Only reached when the value is neither CPF- nor CNPJ-shaped: pick the most useful explanation.
function describeShapeError(value: string): string {
  if (value.length === 0) return 'document_number is empty.';
  if (!ALLOWED_CHARS.test(value)) {
    return 'document_number may contain only digits, the letters A-Z of an alphanumeric CNPJ, and the punctuation ". - /".';
  }
  if (value.length === 11) {
    return 'document_number has 11 characters but a CPF is digits only; letters are allowed only in a 14-character CNPJ.';
  }
  if (value.length === 14) {
    return 'document_number has 14 characters but the last two of a CNPJ are numeric check digits.';
  }
  return `document_number must be a CPF (11 digits) or a CNPJ (14 characters); it has ${value.length} characters after removing punctuation.`;
}

function invalid(message: string): ParsedDocument {
  return { ok: false, code: 'invalid_document', message };
}
