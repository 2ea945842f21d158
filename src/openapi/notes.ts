// Prose for the fields of POST /v1/entries: what a rule means and what the struct cannot state
// (check digits, uniqueness in the campaign, dates relative to now). Notes add a description and
// examples, never a rule: patterns, enums, lengths and formats come from the struct
// (src/validation/described.ts), which also enforces them. A note for a field the struct no longer
// has throws, so a renamed field cannot leave stale documentation behind.
import { TEXT_MAXIMA } from '../entries/submission.ts';
import type { JsonSchema } from './json-schema.ts';

interface FieldNote {
  description: string;
  examples?: unknown[];
}

export const ENTRY_SUBMISSION_NOTES: Record<string, FieldNote> = {
  enrollment: {
    description:
      'Participant identity. The first entry of a document creates the enrollment; later ones fill only its empty fields (a differing stored value is kept, silently).',
  },
  'enrollment.document_number': {
    description:
      'CPF (11 digits) or CNPJ (14 characters: 12 of 0-9 or A-Z, then 2 digits); the punctuation `. - /` and spaces are stripped, case is ignored, and the check digits are verified (422 invalid_document), which the pattern cannot state. CNPJ only when the campaign accepts companies.',
    examples: ['529.982.247-25', '12.ABC.345/01DE-35'],
  },
  'enrollment.full_name': { description: 'At least 3 characters. Required when the campaign requires it and none is stored.' },
  'enrollment.email': { description: 'Unique within the campaign and mode, ignoring case (422 email_taken).' },
  'enrollment.phone': {
    description:
      "E.164 without the leading +, country code included; a leading + and the separators `( ) . -` and spaces are stripped. The number must exist in its country's numbering plan (422 invalid_phone), which the pattern cannot state. Unique within the campaign and mode (422 phone_taken).",
    examples: ['5511987654321'],
  },
  'enrollment.birthdate': { description: 'A real date from 1900 on, before today in Brazil (422 not_in_past).' },
  'enrollment.address.state': { description: 'Two-letter Brazilian UF.', examples: ['SP'] },
  'enrollment.address.country': { description: 'Two-letter ISO 3166-1 code; BR when omitted.' },
  'enrollment.address.city': { description: 'An empty city does not satisfy a city requirement.' },
  consent: { description: 'LGPD consent record; stored once per entry and never updated.' },
  'consent.granted_at': {
    description:
      'ISO 8601 date-time with a timezone, on a real calendar day; stored as sent. Seconds may be omitted and the offset written without a colon, which RFC 3339 (format date-time) does not allow. More than 5 minutes ahead of the server clock is 422 in_future.',
    examples: ['2026-11-20T14:03:00-03:00'],
  },
  'consent.ip_address': { description: 'IPv4 or IPv6 address of the consenting user.' },
  'consent.user_agent': { description: 'Stored values over 1024 characters are truncated.' },
  'consent.term_version': { description: 'Identifier of the accepted terms version.' },
  'consent.consents': {
    description:
      'Explicit per-category choices; regulation, privacy_policy and transactional are recorded implicitly when omitted. A consent_type may appear once (422 duplicate).',
  },
  evidence: { description: 'Proof of purchase.' },
  'evidence.type': { description: 'Only "fiscal_key" is supported.' },
  'evidence.access_key': {
    description:
      'NF-e / NFC-e / SAT access key, 44 to 50 digits; whitespace anywhere is ignored. A 44-digit key with a bad check digit (mod 11 of the first 43 digits), model (55, 65, 59) or state code gives 202 with status REJECTED, not a 422.',
    examples: ['35261112345678000190550010000000011000000016'],
  },
  instant_win: {
    description:
      'Only for INTEGRATOR_DECLARED instant-prize campaigns (else 422 instant_win_not_allowed): the integrator decides the win, the service records it. `prize_definition_id` is a prize of the campaign and mode (GET /v1/prizes; else 422 unknown_prize), required when `won` is true and omitted when it is false (null or a blank value counts as omitted).',
  },
};

// The maxima are the struct's (its maxLength); the sentence says what a longer value gets.
for (const [path, max] of Object.entries(TEXT_MAXIMA)) {
  const note = (ENTRY_SUBMISSION_NOTES[path] ??= { description: '' });
  note.description = `${note.description}${note.description ? ' ' : ''}At most ${max} characters (422 too_long).`;
}

/** A copy of `schema` with the notes applied at their dotted property paths. */
export function annotate(schema: JsonSchema, notes: Record<string, FieldNote>): JsonSchema {
  const copy = structuredClone(schema);
  for (const [path, note] of Object.entries(notes)) {
    let node: JsonSchema = copy;
    for (const part of path.split('.')) {
      const properties = objectBranch(node).properties as Record<string, JsonSchema> | undefined;
      if (!properties?.[part]) throw new Error(`openapi note for "${path}": the schema has no such field`);
      node = properties[part];
    }
    const target = objectBranch(node);
    // The struct's own sentences (trimming, case) follow the note's.
    target.description = [note.description, target.description].filter(Boolean).join(' ');
    if (note.examples) target.examples = note.examples;
  }
  return copy;
}

/** Nullable objects are `anyOf: [object, null]`; notes go on the non-null branch (not on one of a string's formats). */
function objectBranch(node: JsonSchema): JsonSchema {
  const branches = node.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.some((s) => s.type === 'null')) return branches.find((s) => s.type !== 'null') ?? node;
  return node;
}
