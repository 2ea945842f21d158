// verifyWebhook on real deliveries: a `ces serve` child POSTs an entry's three events to an https
// receiver that keeps the raw bytes; each verifies with the campaign's secret (the one `ces demo`
// printed), typed by event_type. Then `ces webhook rotate-secret --grace`: deliveries carry two
// signatures and verify with the old secret, the new one, or both; after a rotation without grace
// only the new one verifies.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generateEntry, luckyNumbersOf, verifyWebhook, WebhookVerificationError, type CesEvent } from '../../src/index.ts';
import { startCes, type Ces } from '../support/ces.ts';
import { startRawReceiver, type Delivery, type RawReceiver } from '../support/receiver.ts';

let ces: Ces;
let receiver: RawReceiver;
before(async () => {
  ces = await startCes();
  receiver = await startRawReceiver({ tls: true });
  // The demo's configuration is paused, to a placeholder: point it at the receiver and resume it.
  const patched = await ces.client().api.PATCH('/v1/webhook', { body: { endpoint_url: receiver.url, is_active: true } });
  assert.equal(patched.response.status, 200);
});
after(async () => {
  await ces?.close();
  await receiver?.close();
});

/** The three deliveries of a new entry, in the order they arrived. */
async function deliveriesOfNewEntry(): Promise<Delivery[]> {
  const { entry_id } = await ces.client().submitEntry(generateEntry());
  return receiver.waitFor(3, (event) => event.data?.entry_id === entry_id);
}

const refusedWith = async (delivery: Delivery, secrets: string | string[]): Promise<string> => {
  const error = await verifyWebhook(delivery.body, delivery.headers, secrets).then(
    () => 'verified',
    (e: unknown) => (e instanceof WebhookVerificationError ? e.reason : String(e)),
  );
  return error;
};

test("an entry's three deliveries verify with the demo's secret, each typed by event_type", async () => {
  const secret = ces.demo.webhook.hmac_secret;
  const events: CesEvent[] = [];
  for (const delivery of await deliveriesOfNewEntry()) events.push(await verifyWebhook(delivery.body, delivery.headers, secret));
  assert.deepEqual(
    events.map((e) => e.event_type),
    ['entry.received', 'entry.completed', 'entry.evaluated'],
  );
  const [received, completed, evaluated] = events;
  assert.ok(received?.event_type === 'entry.received' && received.data.status === 'PENDING');
  assert.ok(completed?.event_type === 'entry.completed' && completed.data.status === 'APPROVED');
  assert.ok(evaluated?.event_type === 'entry.evaluated');
  const lucky = luckyNumbersOf(evaluated.data.mechanics);
  assert.ok(lucky && 'numbers' in lucky.outcome && lucky.outcome.numbers.length === 1);
});

test('rotate-secret --grace: two signatures, either secret verifies; after a rotation without grace only the new one', async () => {
  const first = ces.demo.webhook.hmac_secret;
  const rotated = await ces.cli('webhook', 'rotate-secret', '--campaign', ces.demo.campaign.id, '--grace', '3600');
  const second: string = rotated.hmac_secret;
  assert.match(second, /^whsec_/);
  const during = await deliveriesOfNewEntry();
  for (const delivery of during) {
    assert.match(String(delivery.headers['webhook-signature']), /^v1,\S+ v1,\S+$/);
    for (const secrets of [first, second, [first, second]]) assert.equal(await refusedWith(delivery, secrets), 'verified');
  }

  const third: string = (await ces.cli('webhook', 'rotate-secret', '--campaign', ces.demo.campaign.id)).hmac_secret;
  const later = await deliveriesOfNewEntry();
  for (const delivery of later) {
    assert.match(String(delivery.headers['webhook-signature']), /^v1,\S+$/);
    assert.equal(await refusedWith(delivery, third), 'verified');
    assert.equal(await refusedWith(delivery, [second, third]), 'verified');
    assert.equal(await refusedWith(delivery, second), 'no_matching_signature');
    assert.equal(await refusedWith(delivery, first), 'no_matching_signature');
  }
});
