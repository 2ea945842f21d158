// Reading request bodies: Content-Type check, size limit enforced while streaming (a lying or
// absent Content-Length cannot bypass it), and JSON parsing with a clear 400 instead of a throw.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { H3Event } from 'h3';
import { AppError } from '../kernel/errors.ts';
import { makePrintable } from '../tools/printable.ts';

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
  if (type !== 'application/json')
    throw new AppError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  try {
    return parseJson(text);
  } catch {
    throw new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
}

// Objects with their own "toString" key are made printable (src/tools/printable.ts). A walk after the
// parse, not a reviver: JSON.parse with a reviver takes V8's slow path, several times the cost.
function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  makePrintable(value);
  return value;
}

/** The Node request behind an h3 event (undefined off Node's adapter). */
export function nodeRequest(event: H3Event): IncomingMessage | undefined {
  return (event.req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/** Sockets the server closed because they sent nothing for CES_REQUEST_TIMEOUT_MS (./server.ts). */
const timedOutSockets = new WeakSet<Socket>();

/** Closes a socket that stalled mid-request; a body being read from it is then a 408, not a 499. */
export function closeTimedOutSocket(socket: Socket): void {
  timedOutSockets.add(socket);
  socket.destroy();
}

const tooLarge = (limit: number): AppError => new AppError(413, 'payload_too_large', `The request body is larger than ${limit} bytes.`);

/** The body as UTF-8 text, at most `limitBytes` (413 past it, counted while it streams). */
export async function readTextBody(event: H3Event, limitBytes: number): Promise<string> {
  const bytes = await readBodyBytes(event, limitBytes);
  // fatal: invalid UTF-8 is the client's error, not something to store as replacement characters.
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(400, 'invalid_json', 'The request body is not valid UTF-8.');
  }
}

/** The body's bytes, at most `limitBytes` (413 past it: a declared length at once, else counted while it streams). */
export async function readBodyBytes(event: H3Event, limitBytes: number): Promise<Uint8Array> {
  const header = event.req.headers.get('content-length');
  const declared = Number(header);
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  // Fast path: with a Content-Length within the limit, Node's parser already bounds the body, so
  // read the IncomingMessage directly instead of through a web ReadableStream, which costs a
  // visible share of a small request's CPU. Chunked bodies take the streaming path that counts
  // bytes.
  const node = nodeRequest(event);
  // Kept now: Node may drop req.socket once the connection is gone.
  const socket = node?.socket;
  try {
    return node && header !== null && Number.isInteger(declared) && !node.readableDidRead
      ? await readNodeBody(node)
      : await readWebBody(event, limitBytes);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The stream failed before the body was complete. Nobody reads the answer either way; the
    // request is logged and counted as 408 when the server closed a connection that had stalled,
    // else as 499, nginx's "client closed request": the client hung up (or its socket broke).
    if (socket && timedOutSockets.has(socket)) {
      throw new AppError(
        408,
        'request_timeout',
        'The request sent nothing for the request timeout (CES_REQUEST_TIMEOUT_MS) before its body was complete; the server closed the connection.',
      );
    }
    throw new AppError(499, 'client_closed_request', 'The client closed the connection before the body was complete.');
  }
}

function readNodeBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const done = (error: Error | null): void => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
    };
    const onEnd = (): void => done(null);
    const onClose = (): void => done(new Error('the client closed the connection before the body was complete'));
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

async function readWebBody(event: H3Event, limitBytes: number): Promise<Uint8Array> {
  const stream = event.req.body;
  if (!stream) return new Uint8Array(0);
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
  return Buffer.concat(chunks);
}
