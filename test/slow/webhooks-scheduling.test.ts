// Webhook delivery against receivers as they are on the internet, through the real server: each
// campaign's endpoint has its own limit of attempts in flight, an endpoint that keeps failing is
// backed off without holding up another campaign, connections are kept alive and TLS sessions
// resumed, an endless answer is cut at its excerpt, and delivered and skipped events are pruned
// after CES_RETENTION_DAYS while everything else stays. The scheduler's rules themselves are
// unit-tested with a fake clock in test/unit/delivery-scheduler.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { after, test } from 'node:test';
import { pruneOutbox } from '../../src/webhooks/retention.ts';
import { configureWebhook, drainAll, entryBody, makeCampaign, startTestServer, submitEntry, type TestServer } from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { waitFor } from '../support/wait.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

let idem = 0;
const submit = async (t: TestServer, key: string, i: number): Promise<string> =>
  (await submitEntry(t, key, entryBody({}, i), `s-${++idem}`)).entry_id;

/** A receiver that answers 200 after `delayMs` and counts how many requests it holds at once. */
async function countingReceiver(delayMs: number): Promise<Receiver & { maxInFlight: () => number }> {
  let now = 0;
  let max = 0;
  const receiver = await startReceiver({
    respond: () => {
      now++;
      max = Math.max(max, now);
      setTimeout(() => now--, delayMs);
      return { status: 200, delayMs };
    },
  });
  cleanups.push(() => receiver.close());
  return Object.assign(receiver, { maxInFlight: () => max });
}

test('each campaign’s endpoint has at most CES_DELIVERY_PER_ENDPOINT attempts in flight, and both campaigns are served at once', async () => {
  const t = await startTestServer({
    tick: true,
    env: { CES_TICK_MS: '50', CES_DELIVERY_PER_ENDPOINT: '3', CES_DELIVERY_CONCURRENCY: '50' },
  });
  cleanups.push(() => t.close());
  const a = await countingReceiver(80);
  const b = await countingReceiver(80);
  const ca = makeCampaign(t.ctx);
  const cb = makeCampaign(t.ctx);
  await configureWebhook(t, ca.liveKey, a.url);
  await configureWebhook(t, cb.liveKey, b.url);
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push(await submit(t, ca.liveKey, i), await submit(t, cb.liveKey, 100 + i));
  await Promise.all([a.waitFor((r) => r.length >= 36, 20_000), b.waitFor((r) => r.length >= 36, 20_000)]);
  assert.equal(a.maxInFlight(), 3, 'campaign A: the limit, and no more');
  assert.equal(b.maxInFlight(), 3, 'campaign B: the limit, and no more');
  // Ordering (docs/api.md#events): an entry's events are first attempted in the order they
  // happened.
  for (const id of ids) {
    const receiver = a.requests.some((r) => r.json.data.entry_id === id) ? a : b;
    assert.deepEqual(
      receiver.requests.filter((r) => r.json.data.entry_id === id).map((r) => r.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
  }
});

/** Waits for `done` (a state the server reaches), polling; the deadline only bounds a broken run. */
async function until(what: string, done: () => boolean, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${deadlineMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('an endpoint that hangs until every timeout is backed off (nothing while it cools down, then a probe at a time) while another campaign’s events go out; a new URL ends the back-off', async () => {
  // The scheduler's clock stands still unless the test moves it: a cool-down ends when the test
  // says, so what is counted does not depend on how fast this machine is. Only the attempts'
  // timeout is real time, long enough that the healthy endpoint's 5 ms answers never meet it.
  const cooling = { ms: 1_000_000 };
  const t = await startTestServer({
    tick: true,
    deliveryClock: () => cooling.ms,
    env: {
      CES_TICK_MS: '20',
      CES_WEBHOOK_TIMEOUT_MS: '2000',
      CES_DELIVERY_PER_ENDPOINT: '5',
      CES_WEBHOOK_RETRY_SCHEDULE: '0,0,0,0,0,0,0,0,0,0,0,0',
    },
  });
  cleanups.push(() => t.close());
  const scheduler = t.server.service.deliveries;
  const hanging = await startReceiver({ respond: () => ({ status: 200, delayMs: 60_000 }) });
  cleanups.push(() => hanging.close());
  const healthy = await countingReceiver(5);
  const down = makeCampaign(t.ctx);
  const up = makeCampaign(t.ctx);
  await configureWebhook(t, down.liveKey, hanging.url);
  await configureWebhook(t, up.liveKey, healthy.url);
  const endpoint = () => scheduler.view().find((e) => e.key === down.campaign.id);
  const attemptsOfDown = (): number =>
    t.ctx.db
      .prepare(`SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.campaign_id = ?`)
      .pluck()
      .get(down.campaign.id) as number;

  for (let i = 0; i < 20; i++) await submit(t, down.liveKey, i);
  // The first 5 attempts hang until their timeout; the fifth failure in a row begins the back-off.
  await until('backed off with nothing in flight', () => endpoint()?.backedOff === true && endpoint()?.inFlight === 0);
  const first = attemptsOfDown();
  // Each of the first four failures frees a slot a retry may take before the fifth: at most 4 more.
  assert.ok(first >= 5 && first <= 9, `${first} attempts before the back-off`);
  assert.equal(endpoint()!.backedOffForMs, 1_000);
  const metrics = await t.request('GET', '/metrics');
  assert.match(metrics.text, /^ces_webhook_endpoints_backed_off 1$/m);

  // While it cools down, the other campaign's events go out; nothing goes to the hanging endpoint.
  const upIds: string[] = [];
  for (let i = 0; i < 10; i++) upIds.push(await submit(t, up.liveKey, 100 + i));
  await until('the healthy campaign’s 30 events', () => new Set(healthy.requests.map((r) => r.headers['webhook-id'])).size >= 30);
  for (const id of upIds) {
    const events = new Set(healthy.requests.filter((r) => r.json.data.entry_id === id).map((r) => r.headers['webhook-id']));
    assert.equal(events.size, 3);
  }
  assert.equal(attemptsOfDown(), first, 'no attempt while cooling down');
  assert.equal(endpoint()!.inFlight, 0);

  // The cool-down over: one probe, never two at once; it fails, and the next cool-down is twice as long.
  cooling.ms += 1_000;
  await until('a probe', () => endpoint()?.inFlight === 1);
  await until('the probe’s failure recorded', () => attemptsOfDown() === first + 1 && endpoint()?.inFlight === 0);
  assert.equal(endpoint()!.backedOffForMs, 2_000);
  assert.equal(attemptsOfDown(), first + 1, 'one probe');

  // The integrator points the webhook elsewhere: its events go out at once, though the old URL's
  // cool-down would never end on this clock.
  const fixed = await countingReceiver(5);
  const patched = await t.request('PATCH', '/v1/webhook', { key: down.liveKey, body: { endpoint_url: fixed.url } });
  assert.equal(patched.status, 200, patched.text);
  await until('the new URL’s events', () => fixed.requests.length >= 10);
});

/** Deliveries of a campaign in `status`. */
const deliveriesOf = (t: TestServer, campaignId: string, status: string): number =>
  t.ctx.db
    .prepare(`SELECT count(*) FROM webhook_deliveries WHERE campaign_id = ? AND status = ?`)
    .pluck()
    .get(campaignId, status) as number;

test('endpoints on one host and port are isolated: a path that never answers holds its own attempts, and another campaign’s path on the same receiver gets all its events meanwhile', async () => {
  // A CRM vendor serving two campaigns from one receiver. The timeout is far beyond the test: A's
  // attempts stay open for as long as it runs, and nothing but isolation lets B's events through.
  const t = await startTestServer({
    tick: true,
    env: { CES_TICK_MS: '20', CES_WEBHOOK_TIMEOUT_MS: '600000', CES_DELIVERY_PER_ENDPOINT: '2', CES_DELIVERY_CONCURRENCY: '10' },
  });
  cleanups.push(() => t.close());
  const receiver = await startReceiver({ respond: (r) => (r.path === '/a' ? { status: 200, delayMs: 600_000 } : 204) });
  cleanups.push(() => receiver.close());
  const { origin } = new URL(receiver.url);
  const a = makeCampaign(t.ctx);
  const b = makeCampaign(t.ctx);
  await configureWebhook(t, a.liveKey, `${origin}/a`);
  await configureWebhook(t, b.liveKey, `${origin}/b`);
  const held = () => receiver.requests.filter((r) => r.path === '/a').length;
  for (let i = 0; i < 4; i++) await submit(t, a.liveKey, i);
  await waitFor(
    () => held() === 2,
    20_000,
    () => `${held()} requests held on /a`,
  );

  for (let i = 0; i < 5; i++) await submit(t, b.liveKey, 100 + i);
  await waitFor(
    () => deliveriesOf(t, b.campaign.id, 'delivered') === 15,
    20_000,
    () =>
      `B: ${deliveriesOf(t, b.campaign.id, 'delivered')} of 15 events delivered, ${receiver.requests.filter((r) => r.path === '/b').length} arrived`,
  );
  assert.equal(held(), 2, 'A: its two slots, no more');
  assert.equal(
    t.ctx.db
      .prepare(`SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.campaign_id = ?`)
      .pluck()
      .get(a.campaign.id),
    0,
    'A’s attempts are still open: none has ended',
  );
  assert.equal(t.server.service.deliveries.view().find((e) => e.key === a.campaign.id)?.inFlight, 2);
});

test('idle connections kept for some endpoints never hold up another endpoint’s first connection', async () => {
  // Two endpoints, one after the other, each leave a kept-alive connection (their receivers keep
  // idle ones for 30 s): as many as CES_DELIVERY_CONCURRENCY. A third endpoint's attempt must not
  // wait for one of them to close.
  const t = await startTestServer({
    tick: true,
    env: { CES_TICK_MS: '20', CES_WEBHOOK_TIMEOUT_MS: '600000', CES_DELIVERY_PER_ENDPOINT: '1', CES_DELIVERY_CONCURRENCY: '2' },
  });
  cleanups.push(() => t.close());
  for (let i = 0; i < 3; i++) {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const w = makeCampaign(t.ctx);
    await configureWebhook(t, w.liveKey, receiver.url);
    await submit(t, w.liveKey, 200 + i);
    await waitFor(
      () => deliveriesOf(t, w.campaign.id, 'delivered') === 3,
      20_000,
      () => `endpoint ${i + 1}: ${deliveriesOf(t, w.campaign.id, 'delivered')} of 3 events delivered`,
    );
  }
});

test('deliveries keep their connection alive, and a new connection resumes the TLS session', async () => {
  const tls = new URL('../fixtures/tls/', import.meta.url);
  const sockets: Array<{ reused: boolean }> = [];
  const server: Server = createServer(
    { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
    (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    },
  );
  server.on('secureConnection', (socket: TLSSocket) => sockets.push({ reused: socket.isSessionReused() }));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const t = await startTestServer();
  cleanups.push(() => t.close());
  const w = makeCampaign(t.ctx);
  await configureWebhook(t, w.liveKey, `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
  await submit(t, w.liveKey, 1);
  await drainAll(t);
  await submit(t, w.liveKey, 2);
  await drainAll(t);
  const delivered = t.ctx.db.prepare(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'`).get() as { n: number };
  assert.equal(delivered.n, 6);
  assert.equal(sockets.length, 1, 'six events, one after the other, over one kept-alive connection');
  // The receiver drops its idle connections; the next event opens a new one, without a full handshake.
  server.closeAllConnections();
  await submit(t, w.liveKey, 3);
  await drainAll(t);
  assert.equal(sockets.length, 2);
  assert.equal(sockets[1].reused, true, 'the TLS session was resumed');
});

test('an answer that never ends is cut at the excerpt: the attempt is recorded at once, not at the timeout', async () => {
  const tls = new URL('../fixtures/tls/', import.meta.url);
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer(
    { key: readFileSync(new URL('server-key.pem', tls)), cert: readFileSync(new URL('server.pem', tls)) },
    (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(1024)), 5);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const t = await startTestServer({ env: { CES_WEBHOOK_TIMEOUT_MS: '20000' } });
  cleanups.push(() => t.close());
  const w = makeCampaign(t.ctx);
  await configureWebhook(t, w.liveKey, `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
  await submit(t, w.liveKey, 1);
  const started = Date.now();
  const report = await t.tick();
  assert.ok(Date.now() - started < 5_000, `the tick took ${Date.now() - started} ms`);
  assert.equal(report.deliveriesDelivered, 3, 'the entry’s three events, one after the other');
  const attempts = t.ctx.db.prepare(`SELECT status_code, response_excerpt FROM webhook_attempts`).all() as Array<{
    status_code: number;
    response_excerpt: string;
  }>;
  assert.deepEqual(
    attempts,
    Array.from({ length: 3 }, () => ({ status_code: 200, response_excerpt: 'x'.repeat(512) })),
  );
});

/** Counts of the outbox by status, and of attempts. */
function outbox(t: TestServer): { byStatus: Record<string, number>; attempts: number; entries: number } {
  const rows = t.ctx.db.prepare(`SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status`).all() as Array<{
    status: string;
    n: number;
  }>;
  const attempts = (t.ctx.db.prepare(`SELECT count(*) AS n FROM webhook_attempts`).get() as { n: number }).n;
  const entries = (t.ctx.db.prepare(`SELECT count(*) AS n FROM entries`).get() as { n: number }).n;
  return { byStatus: Object.fromEntries(rows.map((r) => [r.status, r.n])), attempts, entries };
}

const DAY_MS = 24 * 3600 * 1000;

async function retentionWorld(env: Record<string, string> = {}): Promise<{ t: TestServer; receiver: Receiver }> {
  const t = await startTestServer({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '5', ...env } });
  let failing = '';
  const receiver = await startReceiver({ respond: (r) => (r.json?.data?.entry_id === failing ? 500 : 200) });
  cleanups.push(
    () => t.close(),
    () => receiver.close(),
  );
  // Delivered: three events of one entry.
  const ok = makeCampaign(t.ctx);
  await configureWebhook(t, ok.liveKey, receiver.url);
  await submit(t, ok.liveKey, 1);
  // Failed: the receiver answers 500 to this entry's events, twice each (one retry), then they are failed.
  failing = await submit(t, ok.liveKey, 2);
  // Skipped: events of a campaign whose delivery is paused.
  const paused = makeCampaign(t.ctx);
  await configureWebhook(t, paused.liveKey, receiver.url);
  assert.equal((await t.request('PATCH', '/v1/webhook', { key: paused.liveKey, body: { is_active: false } })).status, 200);
  await submit(t, paused.liveKey, 3);
  // Pending: an event queued while active, whose campaign was paused before it was sent (held).
  const held = makeCampaign(t.ctx);
  await configureWebhook(t, held.liveKey, receiver.url);
  await submit(t, held.liveKey, 4);
  assert.equal((await t.request('PATCH', '/v1/webhook', { key: held.liveKey, body: { is_active: false } })).status, 200);
  await drainAll(t);
  return { t, receiver };
}

test('retention: delivered and skipped events and their attempts go CES_RETENTION_DAYS after they settled; failed and pending ones, and entries, stay', async () => {
  const { t } = await retentionWorld();
  const before = outbox(t);
  // 1 entry delivered (3 events), 1 failed (3, two attempts each), 1 skipped (3, paused), 1 held
  // (its first event pending; the 2 that happened after the pause are skipped).
  assert.deepEqual(before.byStatus, { delivered: 3, failed: 3, pending: 1, skipped: 5 });
  assert.equal(before.attempts, 9, '3 delivered + 6 failed');

  t.clock.advance(30 * DAY_MS - 60_000);
  await drainAll(t, { advance: false });
  assert.deepEqual(outbox(t), before, 'a minute short of 30 days: nothing pruned');

  t.clock.advance(2 * 60_000);
  const report = await t.tick();
  assert.equal(report.deliveriesPruned, 8);
  const after = outbox(t);
  assert.deepEqual(after.byStatus, { failed: 3, pending: 1 });
  assert.equal(after.attempts, 6, 'failed events keep their attempts');
  assert.equal(after.entries, before.entries, 'entries are never pruned');
  const orphans = t.ctx.db
    .prepare(
      `SELECT count(*) AS n FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)`,
    )
    .get() as { n: number };
  assert.equal(orphans.n, 0);
});

test('retention: CES_RETENTION_DAYS=0 keeps everything; the tick prunes a small batch at a time', async () => {
  const { t } = await retentionWorld({ CES_RETENTION_DAYS: '0' });
  const before = outbox(t);
  t.clock.advance(3650 * DAY_MS);
  await drainAll(t, { advance: false });
  assert.deepEqual(outbox(t), before);

  const { t: t2 } = await retentionWorld();
  t2.clock.advance(31 * DAY_MS);
  assert.equal(pruneOutbox(t2.ctx, 3), 3, 'one batch of 3');
  assert.equal(pruneOutbox(t2.ctx, 3), 3);
  assert.equal(pruneOutbox(t2.ctx, 3), 2, 'the last 2 of 8');
  assert.equal(pruneOutbox(t2.ctx, 3), 0);
});
