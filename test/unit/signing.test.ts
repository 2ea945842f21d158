// signDelivery signs with node:crypto; the public standardwebhooks package must produce the very
// same header and accept it, for any secret, event id, time and payload (including non-ASCII).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { signDelivery } from '../../src/webhooks/signing.ts';
import { propertySeed } from '../support/property.ts';

test('signDelivery matches standardwebhooks sign() and passes its verify()', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.integer({ min: 0, max: 4_000_000_000 }),
      (bytes, id, payload, seconds) => {
        const secret = `whsec_${Buffer.from(bytes).toString('base64')}`;
        const atMs = seconds * 1000 + 123;
        const headers = signDelivery(secret, id, atMs, payload);
        const wh = new Webhook(secret);
        assert.equal(headers['webhook-signature'], wh.sign(id, new Date(atMs), payload));
        assert.equal(headers['webhook-timestamp'], String(seconds));
        assert.equal(headers['webhook-id'], id);
      },
    ),
    { numRuns: 300, seed: propertySeed(105) },
  );
  // verify() also checks the timestamp is recent: sign now, verify with the package.
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const payload = JSON.stringify({ id: 'evt_1', data: { nome: 'João' } });
  const headers = signDelivery(secret, 'evt_1', Date.now(), payload);
  assert.deepEqual(new Webhook(secret).verify(payload, { ...headers }), JSON.parse(payload));
  assert.throws(() => new Webhook(secret).verify(`${payload} `, { ...headers }));
});
