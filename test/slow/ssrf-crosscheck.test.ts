// SSRF cross-check, end to end through the real server and tick (the unit table is in
// webhooks-ssrf.test.ts): with CES_ALLOW_PRIVATE_WEBHOOKS unset, a configuration pointing at this
// machine in any spelling (127.0.0.1, localhost, 127.1, decimal, [::1], IPv4-mapped IPv6) gets no
// request at all, and the delivery records why. With it set, a redirect from the endpoint is not
// followed. Only loopback targets are used, so a broken check could never send traffic elsewhere.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { patchWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { entryBody, makeCampaign, startTestServer, type TestServer, OPERATOR } from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';

async function deliverAll(s: TestServer): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await s.server.tick();
    const pending = (
      s.ctx.db.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND attempts = 0").get() as { n: number }
    ).n;
    if (pending === 0) return;
  }
}

test('without CES_ALLOW_PRIVATE_WEBHOOKS no spelling of a loopback target receives a delivery', async () => {
  const receiver = await startReceiver();
  const s = await startTestServer({ env: { CES_ALLOW_PRIVATE_WEBHOOKS: '0' } });
  try {
    const port = new URL(receiver.url).port;
    const targets = [
      receiver.url,
      `https://localhost:${port}/hooks`,
      `https://127.1:${port}/hooks`,
      `https://2130706433:${port}/hooks`,
      `https://0x7f000001:${port}/hooks`,
      `https://[::1]:${port}/hooks`,
      `https://[::ffff:127.0.0.1]:${port}/hooks`,
    ];
    for (const [i, target] of targets.entries()) {
      const w = makeCampaign(s.ctx, { name: `ssrf ${i}` });
      // The configuration itself may be stored (the check is at delivery time, when DNS is current).
      patchWebhookConfig(s.ctx, w.campaign.id, { endpointUrl: target }, OPERATOR);
      const res = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody({}, i), idempotencyKey: `ssrf-${i}` });
      assert.equal(res.status, 202, res.text);
      await deliverAll(s);
      const attempts = s.ctx.db
        .prepare('SELECT d.attempts, d.last_error FROM webhook_deliveries d WHERE d.campaign_id = ?')
        .all(w.campaign.id) as Array<{ attempts: number; last_error: string | null }>;
      assert.ok(attempts.length > 0, `${target}: no delivery queued`);
      for (const a of attempts) {
        assert.ok(a.attempts >= 1, `${target}: never attempted`);
        assert.match(a.last_error ?? '', /refused/, `${target}: ${a.last_error}`);
      }
    }
    assert.equal(receiver.requests.length, 0, `the receiver got ${receiver.requests.length} request(s)`);
  } finally {
    await s.close();
    await receiver.close();
  }
});

test('a redirect from the endpoint is not followed, even when private targets are allowed', async () => {
  const target = await startReceiver();
  const tls = new URL('../fixtures/tls/', import.meta.url);
  let redirects = 0;
  const redirector = createServer(
    { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
    (req, res) => {
      redirects++;
      req.resume();
      res.writeHead(307, { location: target.url }).end();
    },
  );
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  const s = await startTestServer({ env: { CES_ALLOW_PRIVATE_WEBHOOKS: '1' } });
  try {
    const w = makeCampaign(s.ctx);
    patchWebhookConfig(
      s.ctx,
      w.campaign.id,
      { endpointUrl: `https://127.0.0.1:${(redirector.address() as AddressInfo).port}/hooks` },
      OPERATOR,
    );
    const res = await s.request('POST', '/v1/entries', { key: w.liveKey, body: entryBody(), idempotencyKey: 'redirect-1' });
    assert.equal(res.status, 202);
    await deliverAll(s);
    assert.ok(redirects >= 1, 'the redirecting endpoint was called');
    assert.equal(target.requests.length, 0, 'the redirect was followed');
    const rows = s.ctx.db
      .prepare('SELECT status, last_status_code FROM webhook_deliveries WHERE campaign_id = ?')
      .all(w.campaign.id) as Array<{ status: string; last_status_code: number | null }>;
    for (const r of rows) {
      assert.notEqual(r.status, 'delivered', 'a 307 counted as delivered');
      assert.equal(r.last_status_code, 307);
    }
  } finally {
    await s.close();
    redirector.closeAllConnections();
    await new Promise<void>((resolve) => redirector.close(() => resolve()));
    await target.close();
  }
});
