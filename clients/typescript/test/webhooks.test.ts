// verifyWebhook against deliveries signed by the server's own signing code
// (src/webhooks/signing.ts): raw bytes whose UTF-8 characters straddle any chunk boundary, both
// signatures of a rotation's grace, the timestamp tolerance, and every way a delivery is refused.
// Its verdicts agree with the standardwebhooks package's on the same deliveries.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signDelivery } from '../../../src/webhooks/signing.ts';
import { verifyWebhook, WebhookVerificationError, type WebhookVerificationReason } from '../src/index.ts';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const OLD = secret();
const NEW = secret();
const NOW = 1_795_352_700_000;
const now = () => NOW;

const event = {
  id: 'evt_48f79e8a0a294f3ca7a39c04110766ad',
  event_type: 'award.updated',
  created_at: '2026-11-22T13:05:00.000Z',
  livemode: false,
  campaign_id: 'a00087fb-f747-4cb8-adfe-747d23673f27',
  data: {
    entry_id: '8761c743-15ff-4a03-9c1c-649b8662b622',
    enrollment_id: 'a41f11d0-24b5-46a4-8b8b-ec121c2cae0b',
    award: { entry_id: '8761c743-15ff-4a03-9c1c-649b8662b622', won: true, prize_definition_id: null, status: 'revoked' },
    note: 'Prêmio revogado: ação do operador ✓',
  },
};
const payload = JSON.stringify(event);
const bytes = new TextEncoder().encode(payload);

function delivery(secrets: string | string[], atMs = NOW) {
  return signDelivery(secrets, event.id, atMs, payload);
}

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationReason> {
  const error = await promise.then(
    () => assert.fail('verified'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof WebhookVerificationError, String(error));
  return error.reason;
}

describe('verifyWebhook', () => {
  test('verifies the raw bytes and returns the event, typed by event_type', async () => {
    const verified = await verifyWebhook(bytes, delivery(NEW), NEW, { now });
    assert.deepEqual(verified, event);
    if (verified.event_type === 'award.updated') assert.equal(verified.data.award.status, 'revoked');
    else assert.fail('narrowed to award.updated');
    assert.deepEqual(await verifyWebhook(payload, delivery(NEW), NEW, { now }), event, 'or the text of the body');
  });

  test('the body read in chunks split inside a UTF-8 character, joined as bytes, verifies and decodes whole', async () => {
    const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "ê"
    const chunks = [bytes.subarray(0, split), bytes.subarray(split)];
    const joined = new Uint8Array(Buffer.concat(chunks));
    const verified = await verifyWebhook(joined, delivery(NEW), NEW, { now });
    assert.equal((verified.data as { note?: string }).note, event.data.note);
    // What decoding chunk by chunk does to that body: the signature no longer matches.
    const chunkwise = chunks.map((c) => Buffer.from(c).toString('utf8')).join('');
    assert.notEqual(chunkwise, payload);
    assert.equal(await refusal(verifyWebhook(chunkwise, delivery(NEW), NEW, { now })), 'no_matching_signature');
  });

  test("during a rotation's grace the header has two signatures: the old secret, the new one, or both verify", async () => {
    const headers = delivery([NEW, OLD]);
    assert.match(headers['webhook-signature'], /^v1,\S+ v1,\S+$/);
    for (const accepted of [OLD, NEW, [OLD, NEW], [secret(), OLD]])
      assert.deepEqual(await verifyWebhook(bytes, headers, accepted, { now }), event);
    assert.equal(await refusal(verifyWebhook(bytes, headers, secret(), { now })), 'no_matching_signature');
    assert.equal(await refusal(verifyWebhook(bytes, delivery(NEW), OLD, { now })), 'no_matching_signature', 'after the grace');
  });

  test('headers as Node gives them (lower case, arrays) or as fetch does (Headers)', async () => {
    const h = delivery(NEW);
    assert.deepEqual(await verifyWebhook(bytes, new Headers({ ...h }), NEW, { now }), event);
    const node = {
      'Webhook-Id': h['webhook-id'],
      'webhook-timestamp': [h['webhook-timestamp']],
      'webhook-signature': h['webhook-signature'],
    };
    assert.deepEqual(await verifyWebhook(bytes, node, NEW, { now }), event);
  });

  test('the timestamp: within 5 minutes either way by default, or the tolerance given', async () => {
    assert.deepEqual(await verifyWebhook(bytes, delivery(NEW, NOW - 299_000), NEW, { now }), event);
    assert.deepEqual(await verifyWebhook(bytes, delivery(NEW, NOW + 299_000), NEW, { now }), event);
    assert.equal(await refusal(verifyWebhook(bytes, delivery(NEW, NOW - 301_000), NEW, { now })), 'timestamp_out_of_tolerance');
    assert.equal(await refusal(verifyWebhook(bytes, delivery(NEW, NOW + 301_000), NEW, { now })), 'timestamp_out_of_tolerance');
    assert.equal(
      await refusal(verifyWebhook(bytes, delivery(NEW, NOW - 61_000), NEW, { now, toleranceSeconds: 60 })),
      'timestamp_out_of_tolerance',
    );
    assert.equal(
      await refusal(verifyWebhook(bytes, delivery(NEW, Date.now() - 3_600_000), NEW)),
      'timestamp_out_of_tolerance',
      'real clock',
    );
  });

  test('refused: a changed byte, another id or timestamp, missing headers, a bad secret, a body that is not the event', async () => {
    const h = delivery(NEW);
    const tampered = bytes.slice();
    tampered[10] ^= 1;
    const cases: Array<[() => Promise<unknown>, WebhookVerificationReason]> = [
      [() => verifyWebhook(tampered, h, NEW, { now }), 'no_matching_signature'],
      [() => verifyWebhook(bytes, { ...h, 'webhook-id': 'evt_00000000000000000000000000000000' }, NEW, { now }), 'no_matching_signature'],
      [
        () => verifyWebhook(bytes, { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) + 1) }, NEW, { now }),
        'no_matching_signature',
      ],
      [
        () => verifyWebhook(bytes, { ...h, 'webhook-signature': h['webhook-signature'].replace('v1,', 'v2,') }, NEW, { now }),
        'no_matching_signature',
      ],
      [() => verifyWebhook(bytes, { ...h, 'webhook-signature': 'v1,not base64!' }, NEW, { now }), 'no_matching_signature'],
      [
        () => verifyWebhook(bytes, { 'webhook-id': h['webhook-id'], 'webhook-timestamp': h['webhook-timestamp'] }, NEW, { now }),
        'missing_header',
      ],
      [() => verifyWebhook(bytes, { ...h, 'webhook-timestamp': '1795352700.5' }, NEW, { now }), 'invalid_timestamp'],
      [() => verifyWebhook(bytes, h, 'whsec_', { now }), 'invalid_secret'],
      [() => verifyWebhook(bytes, h, 'whsec_***', { now }), 'invalid_secret'],
    ];
    for (const [attempt, reason] of cases) assert.equal(await refusal(attempt()), reason);
    // Signed, but not an event of that id, or not JSON: refused after the signature.
    const other = JSON.stringify({ ...event, id: 'evt_ffffffffffffffffffffffffffffffff' });
    assert.equal(await refusal(verifyWebhook(other, signDelivery(NEW, event.id, NOW, other), NEW, { now })), 'invalid_body');
    assert.equal(await refusal(verifyWebhook('{"id":', signDelivery(NEW, event.id, NOW, '{"id":'), NEW, { now })), 'invalid_body');
    const latin1 = new Uint8Array([0x7b, 0xe9, 0x7d]);
    const signed = signDelivery(NEW, event.id, NOW, '{\u00e9}');
    assert.equal(await refusal(verifyWebhook(latin1, signed, NEW, { now })), 'no_matching_signature');
  });

  test('agrees with the standardwebhooks package on good and bad deliveries', async () => {
    const realNow = Date.now();
    const variants = [
      { headers: signDelivery(NEW, event.id, realNow, payload), body: payload },
      { headers: signDelivery([NEW, OLD], event.id, realNow, payload), body: payload },
      { headers: signDelivery(OLD, event.id, realNow, payload), body: payload },
      { headers: signDelivery(NEW, event.id, realNow, payload), body: payload.replace('revoked', 'awarded') },
      { headers: signDelivery(NEW, event.id, realNow - 400_000, payload), body: payload },
    ];
    for (const { headers, body } of variants) {
      let theirs: boolean;
      try {
        new Webhook(NEW).verify(body, headers);
        theirs = true;
      } catch {
        theirs = false;
      }
      const ours = await verifyWebhook(body, headers, NEW).then(
        () => true,
        () => false,
      );
      assert.equal(ours, theirs, JSON.stringify(headers));
    }
  });
});
