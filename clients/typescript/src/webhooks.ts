// Verifying a ces webhook delivery (Standard Webhooks): the signature is `v1,` + base64
// HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the bytes of the secret
// after `whsec_`. It is computed over the body's bytes exactly as they arrived (never over a
// re-serialised or chunk-by-chunk decoded text), accepts any `v1,` value of the header (during a
// secret rotation's grace the header carries the new secret's and the old one's) under any of the
// given secrets, and refuses a timestamp outside the tolerance, so a captured delivery cannot be
// replayed later. Web Crypto only: Node 20+, Deno, Bun and workers alike.
import type { CesEvent } from './types.ts';

type HeaderValue = string | readonly string[] | undefined;

/** Headers as any server gives them: fetch's Headers, Node's `req.headers`, or an object with the three webhook headers. */
export type HeadersLike =
  | Headers
  | Readonly<Record<string, HeaderValue>>
  | { readonly 'webhook-id'?: HeaderValue; readonly 'webhook-timestamp'?: HeaderValue; readonly 'webhook-signature'?: HeaderValue };

export interface VerifyWebhookOptions {
  /** Largest distance between `webhook-timestamp` and now, in seconds (default 300, as Standard Webhooks libraries). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (default Date.now). */
  now?: () => number;
}

export type WebhookVerificationReason =
  'missing_header' | 'invalid_timestamp' | 'timestamp_out_of_tolerance' | 'invalid_secret' | 'no_matching_signature' | 'invalid_body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Why the delivery was refused, for logs and tests; the message says it in words. */
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

const encoder = new TextEncoder();
const SECRET_PREFIX = 'whsec_';

/**
 * Checks a delivery and returns its event, typed by `event_type`; throws WebhookVerificationError
 * otherwise. Pass the raw body (the bytes read whole, or their text) and every secret you accept
 * (the current one, and during a rotation the one it replaces).
 */
export async function verifyWebhook(
  rawBody: Uint8Array | string,
  headers: HeadersLike,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<CesEvent> {
  const id = readHeader(headers, 'webhook-id');
  const timestamp = readHeader(headers, 'webhook-timestamp');
  const signature = readHeader(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signature === undefined)
    throw new WebhookVerificationError('missing_header', 'webhook-id, webhook-timestamp and webhook-signature are all required');
  if (!/^[0-9]{1,15}$/.test(timestamp)) throw new WebhookVerificationError('invalid_timestamp', 'webhook-timestamp is not Unix seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now?.() ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `webhook-timestamp is ${nowSeconds - Number(timestamp)} s from now, more than ${tolerance} s`,
    );

  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const candidates = signature
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => fromBase64(s.slice(3)))
    .filter((s): s is Uint8Array<ArrayBuffer> => s !== null);
  let matched = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const key = await crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const candidate of candidates) {
      // subtle.verify compares in constant time.
      if (await crypto.subtle.verify('HMAC', key, candidate, signed)) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'no v1 signature of webhook-signature matches the secrets');

  let event: CesEvent;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as CesEvent;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the signed body is not JSON in UTF-8');
  }
  if (typeof event !== 'object' || event === null || event.id !== id)
    throw new WebhookVerificationError('invalid_body', 'the body is not an event whose id is webhook-id');
  return event;
}

function readHeader(headers: HeadersLike, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Readonly<Record<string, HeaderValue>>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(' ');
  }
  return undefined;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (bytes === null || bytes.length === 0) throw new WebhookVerificationError('invalid_secret', 'a secret is whsec_ and base64 bytes');
  return bytes;
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
