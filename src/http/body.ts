// Reading request bodies: Content-Type check, size limit enforced while streaming (a lying or
// absent Content-Length cannot bypass it), and JSON parsing with a clear 400 instead of a throw.
import type { H3Event } from 'h3';
import { AppError } from '../errors.ts';

export function requireJsonContentType(event: H3Event): void {
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
}

export async function readJsonBody(event: H3Event, limitBytes: number): Promise<unknown> {
  const text = await readTextBody(event, limitBytes);
  if (text.trim() === '') throw new AppError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
  try {
    return parseJson(text);
  } catch {
    throw new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

/** Reads an optional JSON body: empty means `{}`. */
export async function readOptionalJsonBody(event: H3Event, limitBytes: number): Promise<unknown> {
  const text = await readTextBody(event, limitBytes);
  if (text.trim() === '') return {};
  const type = (event.req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  try {
    return parseJson(text);
  } catch {
    throw new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

// A JSON object may carry its own "toString" or "valueOf" key, which is not a function: turning
// such an object into text (as superstruct does to word a failure message) throws a TypeError and
// would become a 500. A non-enumerable Symbol.toPrimitive makes it print as [object Object]; its
// keys, values and JSON are unchanged.
const toPrimitive = { value: () => '[object Object]' };
function parseJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && (Object.hasOwn(value, 'toString') || Object.hasOwn(value, 'valueOf'))) {
      Object.defineProperty(value, Symbol.toPrimitive, toPrimitive);
    }
    return value;
  });
}

const tooLarge = (limit: number): AppError => new AppError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);

async function readTextBody(event: H3Event, limitBytes: number): Promise<string> {
  const declared = Number(event.req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  const stream = event.req.body;
  if (!stream) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  // fatal: invalid UTF-8 is the client's error, not something to store as replacement characters.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError(400, 'invalid_json', 'The request body is not valid UTF-8.');
  }
}
