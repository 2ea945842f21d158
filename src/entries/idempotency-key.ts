// The Idempotency-Key header of POST /v1/entries (docs/api.md#entry-submission: required, 1 to 128 characters), read as
// the client meant it. Node reads header bytes one character each (Latin-1): a key typed as UTF-8
// (curl, most HTTP libraries) is decoded as UTF-8, while bytes that are not valid UTF-8 stay
// Latin-1 (what fetch sends for é and the other characters up to U+00FF), so both spellings of one
// key are one key. Its length is counted in characters (code points), not bytes.
import { AppError } from '../kernel/errors.ts';

const IDEMPOTENCY_KEY_MAX = 128;
const NON_ASCII = /[^\x00-\x7f]/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The key from the header's value as Node read it (`null` when absent). `occurrences` counts the
 * header's lines; it is asked only when the value could be two lines joined by Node (", ").
 */
export function parseIdempotencyKey(raw: string | null, occurrences: () => number): string {
  if (raw !== null && raw.includes(',') && occurrences() > 1) {
    throw new AppError(422, 'idempotency_key_invalid', 'Send exactly one Idempotency-Key header.', [
      { field: 'Idempotency-Key', code: 'repeated', message: 'the header appears more than once' },
    ]);
  }
  if (raw === null || raw === '') {
    throw new AppError(
      422,
      'idempotency_key_missing',
      'The Idempotency-Key header is required (1 to 128 characters; a UUID is recommended).',
      [{ field: 'Idempotency-Key', code: 'required', message: 'header is required' }],
    );
  }
  const key = NON_ASCII.test(raw) ? decodeHeaderText(raw) : raw;
  // UTF-16 units first: a key of at most 128 units has at most 128 characters.
  if (key.length > IDEMPOTENCY_KEY_MAX && [...key].length > IDEMPOTENCY_KEY_MAX) {
    throw new AppError(422, 'idempotency_key_invalid', 'The Idempotency-Key header must be 1 to 128 characters.', [
      { field: 'Idempotency-Key', code: 'too_long', message: 'at most 128 characters' },
    ]);
  }
  return key;
}

/** A header value read as Latin-1, decoded as UTF-8 when its bytes are valid UTF-8. */
function decodeHeaderText(latin1: string): string {
  try {
    return UTF8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}
