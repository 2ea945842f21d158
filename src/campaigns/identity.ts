// A campaign's identity as the apuração record states it: the Certificado de Autorização number
// SPA issued, the promoter's razão social, CNPJ and address. Each is one line of the operator's
// text, bounded (src/input/operator-text.ts); the CNPJ must be one (check digits included, the
// alphanumeric CNPJ too) and is kept without punctuation. An empty value clears the setting.
import type { FieldError } from '../kernel/errors.ts';
import { fieldName } from '../kernel/errors.ts';
import { parseDocument } from '../input/documents.ts';
import { MAX_NAME_LENGTH, MAX_NOTE_LENGTH, operatorTextProblem } from '../input/operator-text.ts';
import type { Campaign } from './campaign.ts';

/** The identity's options as typed; `null` or '' clears one. */
export interface IdentityOptions {
  authorization?: string | null;
  promoter?: string | null;
  promoterDocument?: string | null;
  promoterAddress?: string | null;
}

type IdentityField = 'authorization' | 'promoter' | 'promoter_document' | 'promoter_address';

/** Sets the identity fields `o` gives on `next`, or adds why one is refused to `errors`. */
export function applyIdentity(next: Campaign, o: IdentityOptions, errors: FieldError[]): void {
  const text = (field: IdentityField, value: string | null | undefined, max: number): string | null | undefined => {
    if (value === undefined) return undefined;
    const trimmed = (value ?? '').trim();
    if (trimmed === '') return null;
    const problem = operatorTextProblem(fieldName(field), trimmed, max);
    if (problem === null) return trimmed;
    errors.push({ field, ...problem });
    return undefined;
  };
  const authorization = text('authorization', o.authorization, MAX_NAME_LENGTH);
  if (authorization !== undefined) next.authorization = authorization;
  const promoter = text('promoter', o.promoter, MAX_NAME_LENGTH);
  if (promoter !== undefined) next.promoter = promoter;
  const address = text('promoter_address', o.promoterAddress, MAX_NOTE_LENGTH);
  if (address !== undefined) next.promoter_address = address;
  const document = text('promoter_document', o.promoterDocument, MAX_NAME_LENGTH);
  if (document === null) next.promoter_document = null;
  else if (document !== undefined) {
    const parsed = parseDocument(document);
    if (parsed.ok && parsed.type === 'cnpj') next.promoter_document = parsed.number;
    else {
      const why = parsed.ok ? 'it is a CPF' : parsed.message.replace(/^document_number /, 'it ');
      errors.push({
        field: 'promoter_document',
        code: 'invalid_option',
        message: `${fieldName('promoter_document')} must be the promoter's CNPJ (14 characters, check digits included): ${why}`,
      });
    }
  }
}
