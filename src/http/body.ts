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
    return JSON.parse(text);
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
    return JSON.parse(text);
  } catch {
    throw new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
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
