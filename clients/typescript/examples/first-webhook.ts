// Submits one entry with @ces/client and receives its three events through `ces webhook listen`,
// each verified with verifyWebhook (docs/integrating.md). Run: CES_KEY=… CES_WEBHOOK_SECRET=… npx tsx first-webhook.ts
import { createServer } from 'node:http';
import { createCesClient, generateEntry, luckyNumbersOf, verifyWebhook, type CesEvent } from '@ces/client';

const apiKey = process.env.CES_KEY; // the test key `npx ces demo` printed
const secret = process.env.CES_WEBHOOK_SECRET; // the secret it printed
if (!apiKey || !secret) throw new Error('Set CES_KEY and CES_WEBHOOK_SECRET to what `npx ces demo` printed.');
const client = createCesClient({ baseUrl: process.env.CES_URL ?? 'http://127.0.0.1:3000', apiKey });

// The receiver `ces webhook listen --forward-to http://localhost:4000/webhooks` posts to.
const verified: CesEvent[] = [];
let entryId: string | undefined;
let finish: () => void = () => {};
const allThree = new Promise<void>((resolve) => (finish = resolve));
const eventsOfEntry = () => verified.filter((e) => 'entry_id' in e.data && e.data.entry_id === entryId);

const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // The body whole, as the bytes that arrived: the signature is over them.
    verifyWebhook(Buffer.concat(chunks), req.headers, secret).then(
      (event) => {
        res.writeHead(204).end();
        console.log(`verified ${event.event_type} ${event.id}`);
        verified.push(event);
        if (eventsOfEntry().length === 3) finish();
      },
      (error: Error) => {
        res.writeHead(400).end();
        console.error(`refused a delivery: ${error.message}`);
      },
    );
  });
});
await new Promise<void>((resolve) => receiver.listen(Number(process.env.PORT ?? 4000), resolve));

// A new participant, consent and NFC-e, valid for the test key; retried and replay-safe.
const entry = await client.submitEntry(generateEntry());
entryId = entry.entry_id;
console.log(`submitted ${entry.entry_id}: ${entry.status}`);
if (eventsOfEntry().length === 3) finish();

const timeout = setTimeout(() => {
  console.error('no three events within 60 s: is `ces webhook listen` running, forwarding to this port?');
  process.exit(1);
}, 60_000);
await allThree;
clearTimeout(timeout);
receiver.close();

for (const event of eventsOfEntry()) {
  if (event.event_type === 'entry.evaluated') {
    const lucky = luckyNumbersOf(event.data.mechanics);
    if (lucky && 'numbers' in lucky.outcome)
      console.log(`lucky numbers: ${lucky.outcome.numbers.map((n) => `${n.series}/${n.order_number}`).join(', ')}`);
  }
}
console.log(
  `all three events of ${entry.entry_id} verified: ${eventsOfEntry()
    .map((e) => e.event_type)
    .join(', ')}`,
);
