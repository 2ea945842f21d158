// ces webhook listen --forward-to (docs/operations.md#local-development-ces-webhook-listen): a
// developer's receiver on plain http on loopback gets the campaign's new events, signed with the
// campaign's secret so that standardwebhooks verifies them, one line printed per forward, until the
// command is stopped; the configured endpoint keeps getting its own deliveries.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { configureWebhook, drainAll, makeCampaign, runCli, startTestServer, type TestServer } from '../support/harness.ts';
import { submitEntry } from '../support/mechanics.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

interface Got {
  headers: IncomingMessage['headers'];
  body: string;
}

async function plainReceiver(status = 204): Promise<{ url: string; got: Got[]; server: Server }> {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, got, server };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('ces webhook listen', () => {
  let s: TestServer;
  let endpoint: Receiver;
  before(async () => {
    s = await startTestServer();
    endpoint = await startReceiver();
  });
  after(async () => {
    await s.close();
    await endpoint.close();
  });

  test("forwards an entry's three events to http://127.0.0.1, verifiable with the campaign's secret, and prints a line each", async () => {
    const w = makeCampaign(s.ctx);
    const secret = await configureWebhook(s, w.testKey, endpoint.url);
    endpoint.setSecret(secret);
    const before = await submitEntry(s, w.testKey);
    await drainAll(s);
    const local = await plainReceiver();
    const stop = new AbortController();
    let entry = '';
    // The command says when it has taken its starting point: only then is an entry "new" to it.
    let ready: () => void = () => {};
    const listening = new Promise<void>((resolve) => (ready = resolve));
    const running = runCli(['webhook', 'listen', '--campaign', w.campaign.id, '--forward-to', local.url], {
      dbPath: s.dbPath,
      stop: stop.signal,
      onStderr: (text) => {
        if (text.includes('forwarding new')) ready();
      },
    });
    try {
      await listening;
      entry = await submitEntry(s, w.testKey);
      await submitEntry(s, w.liveKey);
      await drainAll(s);
      await until(() => local.got.length >= 3, 'three forwarded events');
    } finally {
      stop.abort();
    }
    const result = await running;
    assert.equal(result.code, 0, result.stderr);
    local.server.close();
    const verifier = new Webhook(secret);
    const events = local.got.map(
      (g) =>
        verifier.verify(g.body, g.headers as Record<string, string>) as {
          event_type: string;
          livemode: boolean;
          data: { entry_id: string };
        },
    );
    assert.deepEqual(
      events.map((e) => e.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
    assert.ok(
      events.every((e) => e.livemode === false && e.data.entry_id === entry && entry !== before),
      'only new events, of the test mode',
    );
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}entry\.received {3}[0-9a-f-]{36} {2}204 {2}\d+ ms$/);
    assert.match(result.stderr, /forwarding new test events/);
    // The configured endpoint still got its own deliveries.
    await endpoint.waitFor((reqs) => reqs.filter((r) => r.json?.data?.entry_id === events[0]!.data.entry_id).length === 3);
  });

  test('refuses plain http beyond loopback, and a campaign without a webhook secret', async () => {
    const w = makeCampaign(s.ctx);
    const remote = await runCli(['webhook', 'listen', '--campaign', w.campaign.id, '--forward-to', 'http://example.com/hook'], {
      dbPath: s.dbPath,
    });
    assert.equal(remote.code, 1);
    assert.match(remote.stderr, /--forward-to must be https:\/\/, or http:\/\/ on a loopback address/);
    const none = await runCli(['webhook', 'listen', '--campaign', w.campaign.id, '--forward-to', 'http://localhost:9/x', '--json'], {
      dbPath: s.dbPath,
    });
    assert.equal(none.code, 1);
    assert.equal(none.json.error.code, 'not_found');
  });
});
