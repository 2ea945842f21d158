// Prose for request fields whose rules are checked by code rather than by the struct (checksums,
// formats, uniqueness). Notes may add a description, a format or examples, never a type: the
// shape always comes from the struct. A note for a field the struct no longer has throws, so a
// renamed field cannot leave stale documentation behind.
import { TEXT_MAXIMA } from '../entries/submission.ts';
import type { JsonSchema } from './json-schema.ts';

export interface FieldNote {
  description: string;
  format?: string;
  examples?: unknown[];
  /** In characters (code points); longer is a 422 with the field's code too_long. */
  maxLength?: number;
}

export const ENTRY_SUBMISSION_NOTES: Record<string, FieldNote> = {
  enrollment: {
    description:
      'Participant identity. The first entry of a document creates the enrollment; later ones fill only its empty fields (a differing stored value is kept, silently).',
  },
  'enrollment.document_number': {
    description:
      'CPF (11 digits) or CNPJ (14 characters); punctuation is stripped and the checksum verified. CNPJ only when the campaign accepts companies.',
    examples: ['529.982.247-25'],
  },
  'enrollment.full_name': { description: 'At least 3 characters. Required when the campaign requires it and none is stored.' },
  'enrollment.email': { description: 'Unique within the campaign and mode (422 email_taken).', format: 'email' },
  'enrollment.phone': {
    description:
      'E.164 without the leading +, country code included; punctuation stripped. Unique within the campaign and mode (422 phone_taken).',
    examples: ['5511987654321'],
  },
  'enrollment.birthdate': { description: 'YYYY-MM-DD, a date in the past.', format: 'date' },
  'enrollment.address.state': { description: 'Two-letter Brazilian UF.', examples: ['SP'] },
  'enrollment.address.country': { description: 'Two-letter ISO 3166-1 code; BR when omitted.' },
  'enrollment.address.city': { description: 'An empty city does not satisfy a city requirement.' },
  consent: { description: 'LGPD consent record; stored once per entry and never updated.' },
  'consent.granted_at': {
    description: 'ISO 8601 date-time with a timezone.',
    format: 'date-time',
    examples: ['2026-11-20T14:03:00-03:00'],
  },
  'consent.ip_address': { description: 'IPv4 or IPv6 address of the consenting user.' },
  'consent.user_agent': { description: 'Stored values over 1024 characters are truncated.' },
  'consent.term_version': { description: 'Identifier of the accepted terms version.' },
  'consent.consents': {
    description:
      'Explicit per-category choices; regulation, privacy_policy and transactional are recorded implicitly when omitted. A consent_type may appear once.',
  },
  evidence: { description: 'Proof of purchase.' },
  'evidence.type': { description: 'Only "fiscal_key" is supported.', examples: ['fiscal_key'] },
  'evidence.access_key': {
    description:
      'NF-e / NFC-e / SAT access key, 44 to 50 digits (spaces ignored). A 44-digit key with a bad check digit, model or state gives 202 REJECTED; other lengths give 422.',
  },
  instant_win: {
    description: 'Only for INTEGRATOR_DECLARED instant-prize campaigns: the integrator decides the win, the service records it.',
  },
  'instant_win.prize_definition_id': {
    description: 'A prize id of the campaign (GET /v1/prizes); required when won is true, omitted when false.',
    format: 'uuid',
  },
};

// The maxima come from the validation itself, so the document cannot disagree with it.
for (const [path, max] of Object.entries(TEXT_MAXIMA)) {
  const note = (ENTRY_SUBMISSION_NOTES[path] ??= { description: '' });
  note.maxLength = max;
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
    target.description = note.description;
    if (note.format) target.format = note.format;
    if (note.examples) target.examples = note.examples;
    if (note.maxLength !== undefined) target.maxLength = note.maxLength;
  }
  return copy;
}

/** Nullable objects are `anyOf: [object, null]`; notes go on the non-null branch. */
function objectBranch(node: JsonSchema): JsonSchema {
  if (Array.isArray(node.anyOf)) return (node.anyOf as JsonSchema[]).find((s) => s.type !== 'null') ?? node;
  return node;
}
