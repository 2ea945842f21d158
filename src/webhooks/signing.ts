// Standard Webhooks signing (CONTRACT: webhook signing). The secret is `whsec_` + base64 of 32
// random bytes, and those bytes are the HMAC-SHA256 key; the public `standardwebhooks` package
// both signs here and verifies at the receiver, so the two cannot drift apart.
import { Webhook } from 'standardwebhooks';
import type { Random } from '../random.ts';

export function generateWebhookSecret(random: Random): string {
  return `whsec_${random.bytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Headers for one attempt: signed at send time with the campaign's current secret. */
export function signDelivery(secret: string, eventId: string, atMs: number, payload: string): SignedHeaders {
  const at = new Date(atMs);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(atMs / 1000)),
    'webhook-signature': new Webhook(secret).sign(eventId, at, payload),
  };
}
