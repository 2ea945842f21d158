// Standard Webhooks signing (docs/api.md#verifying-a-signature-node). The secret is `whsec_` +
// base64 of 32 random bytes, and those bytes are the HMAC-SHA256 key; the public `standardwebhooks`
// package verifies at the receiver (tests and bench). Signing uses node:crypto's HMAC, which
// produces the identical `v1,<base64>` value as the package's pure-JS sha256 at a fraction of the
// CPU (it matters when a backlog drains at thousands of deliveries per second);
// test/unit/signing.test.ts checks the two agree.
import { createHmac } from 'node:crypto';
import type { Random } from '../kernel/random.ts';

export function generateWebhookSecret(random: Random): string {
  return `whsec_${random.bytes(32).toString('base64')}`;
}

interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Headers for one attempt, signed at send time. `secrets` is the campaign's current secret, then,
 * during the grace period of a rotation, the one it replaced: each gives one `v1,<sig>` in
 * `webhook-signature`, space-separated, as Standard Webhooks allows, so a receiver that still
 * holds the old secret and one that already has the new one both verify the delivery.
 */
export function signDelivery(secrets: string | readonly string[], eventId: string, atMs: number, payload: string): SignedHeaders {
  const timestamp = String(Math.floor(atMs / 1000));
  const signed = `${eventId}.${timestamp}.${payload}`;
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': list
      .map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(signed, 'utf8').digest('base64')}`)
      .join(' '),
  };
}

/** The secrets that sign an attempt at `atMs`: the current one, and the previous one until its grace period ends. */
export function signingSecrets(
  config: { secret: string; previous_secret: string | null; previous_secret_expires_at: string | null },
  atMs: number,
): string[] {
  const graceLeft =
    config.previous_secret !== null && config.previous_secret_expires_at !== null && atMs < Date.parse(config.previous_secret_expires_at);
  return graceLeft ? [config.secret, config.previous_secret!] : [config.secret];
}

/**
 * The HMAC key of each webhook secret this process has signed with, by secret: decoding the base64
 * once rather than per attempt. State outside the context (docs/architecture.md#state-outside-the-context),
 * shared by every connection and campaign, since a key depends on its secret alone.
 * Bounded: past MAX_KEYS secrets it is emptied and refills with the secrets still in use (a
 * campaign has one, two during a rotation's grace period). It lives as long as the process, so a
 * rotated-out secret's key stays until then or until the map is emptied.
 */
const keys = new Map<string, Buffer>();
const MAX_KEYS = 1000;

/** The HMAC key: the bytes after `whsec_` (base64), as standardwebhooks decodes them; cached per secret. */
function secretKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
    if (key.length === 0) throw new Error("Secret can't be empty.");
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(secret, key);
  }
  return key;
}
