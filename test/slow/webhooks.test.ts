// Webhook configuration (docs/api.md#webhook-configuration) and delivery
// (docs/api.md#verifying-a-signature-node, #delivery-retries-and-failure): every delivery reaches a
// real HTTPS receiver that verifies it with the `standardwebhooks` package; failures are retried on
// CES_WEBHOOK_RETRY_SCHEDULE with the same event id, then `failed` and redeliverable from the CLI;
// paused configurations deliver nothing.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ManualClock } from '../../src/kernel/clock.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { listDeliveryViews } from '../../src/webhooks/deliveries.ts';
import { claimDeliveries, DUE_DELIVERIES_SQL, insertDelivery, nextDeliveryDueAt } from '../../src/webhooks/outbox.repo.ts';
import {
  configureWebhook,
  drainAll,
  entryBody,
  makeCampaign,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { startReceiver, type Receiver, type ReceiverOptions } from '../support/receiver.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface Setup {
  t: TestServer;
  w: World;
  receiver: Receiver;
  secret: string;
}

async function setup(options: { env?: Record<string, string>; receiver?: ReceiverOptions; clock?: ManualClock } = {}): Promise<Setup> {
  const t = await startTestServer({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '5,60', ...options.env }, clock: options.clock });
  const receiver = await startReceiver(options.receiver);
  cleanups.push(
    () => t.close(),
    () => receiver.close(),
  );
  const w = makeCampaign(t.ctx);
  const secret = await configureWebhook(t, w.liveKey, receiver.url);
  receiver.setSecret(secret);
  return { t, w, receiver, secret };
}

let idem = 0;
const submit = async (s: Setup, i = 0, key = s.w.liveKey): Promise<string> =>
  (await submitEntry(s.t, key, entryBody({}, i), `w-${++idem}`)).entry_id;

describe('GET and PATCH /v1/webhook', () => {
  test('404 before, 201 with the secret once, then 200 without it; shared by live and test keys', async () => {
    const t = await startTestServer();
    cleanups.push(() => t.close());
    const w = makeCampaign(t.ctx);
    const none = await t.request('GET', '/v1/webhook', { key: w.liveKey });
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 'not_found');

    const created = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks.example.com/ces' } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['endpoint_url', 'hmac_secret', 'is_active', 'updated_at']);
    assert.equal(created.body.is_active, true);
    assert.match(created.body.hmac_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(created.body.hmac_secret.slice(6), 'base64').length, 32);

    const read = await t.request('GET', '/v1/webhook', { key: w.testKey });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { endpoint_url: 'https://hooks.example.com/ces', is_active: true, updated_at: created.body.updated_at });

    t.clock.advance(1000);
    const paused = await t.request('PATCH', '/v1/webhook', { key: w.testKey, body: { is_active: false } });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.hmac_secret, undefined);
    assert.equal(paused.body.endpoint_url, 'https://hooks.example.com/ces');
    assert.equal(paused.body.is_active, false);
    assert.notEqual(paused.body.updated_at, created.body.updated_at);

    const moved = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://other.example.com/h' } });
    assert.deepEqual([moved.status, moved.body.endpoint_url, moved.body.is_active], [200, 'https://other.example.com/h', false]);
    const empty = await t.request('PATCH', '/v1/webhook', { key: w.liveKey });
    assert.deepEqual([empty.status, empty.body.updated_at], [200, moved.body.updated_at]);
  });

  test('is_active false on creation; 422 for non-HTTPS, a missing URL on create, and wrong types', async () => {
    const t = await startTestServer();
    cleanups.push(() => t.close());
    const w = makeCampaign(t.ctx);
    const cases: Array<[unknown, number, string]> = [
      [{ is_active: true }, 422, 'validation_failed'],
      [{}, 422, 'validation_failed'],
      [{ endpoint_url: 'http://hooks.example.com/x' }, 422, 'webhook_url_not_https'],
      [{ endpoint_url: 'ftp://hooks.example.com/x' }, 422, 'webhook_url_not_https'],
      [{ endpoint_url: 'https://' }, 422, 'webhook_url_not_https'],
      [{ endpoint_url: 42 }, 422, 'validation_failed'],
      [{ endpoint_url: 'https://a.example', is_active: 'yes' }, 422, 'validation_failed'],
      [[1, 2], 422, 'validation_failed'],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body });
      assert.deepEqual([res.status, res.body?.code], [status, code], JSON.stringify(body));
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    }
    assert.equal((await t.request('GET', '/v1/webhook', { key: w.liveKey })).status, 404, 'nothing was created');
    assert.equal((await t.request('PATCH', '/v1/webhook', { body: { endpoint_url: 'https://a.example' } })).status, 401);

    const created = await t.request('PATCH', '/v1/webhook', {
      key: w.liveKey,
      body: { endpoint_url: 'https://a.example/h', is_active: false },
    });
    assert.deepEqual([created.status, created.body.is_active], [201, false]);
    const notHttps = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'http://a.example/h' } });
    assert.equal(notHttps.body.code, 'webhook_url_not_https');
    assert.equal((await t.request('GET', '/v1/webhook', { key: w.liveKey })).body.endpoint_url, 'https://a.example/h');
  });
});

describe('delivery', () => {
  test('verifies end to end with standardwebhooks on a real-time clock', async () => {
    // A clock at real time so that Webhook.verify's 5-minute timestamp tolerance holds too; the
    // access key is issued this month so processing approves it.
    const clock = new ManualClock(Date.now());
    const s = await setup({ clock });
    const now = new Date(clock.now() - 3 * 3_600_000);
    const yymm = `${String(now.getUTCFullYear()).slice(2)}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const res = await submitEntry(s.t, s.w.liveKey, entryBody({ evidence: { access_key: makeAccessKey({ yymm }) } }, 0), 'rt-1');
    await drainAll(s.t);
    const events = s.receiver.requests.filter((r) => r.json.data.entry_id === res.entry_id);
    assert.deepEqual(
      events.map((r) => r.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
    for (const r of events) assert.deepEqual([r.verified, r.verifyError], [true, null]);
  });

  test('500s are retried on the schedule with the same event id, then delivered', async () => {
    let calls = 0;
    const s = await setup({ receiver: { respond: (r) => (r.json.event_type === 'entry.received' && ++calls <= 2 ? 500 : 200) } });
    await submit(s);
    const first = await s.t.tick();
    assert.equal(first.deliveriesRetrying, 1);
    const again = await s.t.tick();
    assert.equal(again.deliveriesAttempted, 0, 'not due before the first retry interval (5 s)');
    s.t.clock.advance(5_000);
    assert.equal((await s.t.tick()).deliveriesRetrying, 1);
    s.t.clock.advance(59_000);
    assert.equal((await s.t.tick()).deliveriesAttempted, 0, 'second interval is 60 s');
    s.t.clock.advance(1_000);
    await drainAll(s.t);
    const received = s.receiver.requests.filter((r) => r.json.event_type === 'entry.received');
    assert.deepEqual(
      received.map((r) => r.status),
      [500, 500, 200],
    );
    assert.equal(new Set(received.map((r) => r.headers['webhook-id'])).size, 1);
    assert.equal(new Set(received.map((r) => r.body)).size, 1, 'the same payload every time');
    assert.ok(received.every((r) => r.signatureMatches));
    // The entry's later events waited for entry.received's first attempt, then went on.
    assert.deepEqual(
      s.receiver.requests.map((r) => r.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated', 'entry.received', 'entry.received'],
    );
  });

  test('a timeout is retried with the same event id', async () => {
    let calls = 0;
    const s = await setup({
      env: { CES_WEBHOOK_TIMEOUT_MS: '1000' },
      receiver: { respond: () => (++calls === 1 ? { status: 200, delayMs: 6_000 } : 200) },
    });
    const entryId = await submit(s);
    const first = await s.t.tick();
    assert.equal(first.deliveriesRetrying, 1);
    await drainAll(s.t);
    const received = s.receiver.requests.filter((r) => r.json.data.entry_id === entryId && r.json.event_type === 'entry.received');
    assert.equal(received.length, 2);
    assert.equal(received[0].headers['webhook-id'], received[1].headers['webhook-id']);
    const row = listDeliveryViews(s.t.ctx, s.w.campaign.id, undefined, 10).find((d) => d.event_type === 'entry.received')!;
    assert.deepEqual([row.status, row.attempts, row.last_status_code, row.last_error], ['delivered', 2, 200, null]);
    const attempts = s.t.ctx.db
      .prepare('SELECT status_code, error, latency_ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY id')
      .all(row.id) as Array<{ status_code: number | null; error: string | null; latency_ms: number }>;
    assert.equal(attempts[0].status_code, null);
    assert.match(attempts[0].error!, /timed out/);
    assert.ok(attempts[0].latency_ms >= 900 && attempts[0].latency_ms < 5_000, `latency ${attempts[0].latency_ms}`);
    assert.equal(attempts[1].status_code, 200);
  });

  test('failed after the schedule, listed by the CLI with its attempts, then redelivered', async () => {
    let up = false;
    const s = await setup({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '1,2' }, receiver: { respond: () => (up ? 204 : 503) } });
    await submit(s);
    await drainAll(s.t);
    const failed = await runCli(['webhook', 'deliveries', '--campaign', s.w.campaign.id, '--status', 'failed', '--json'], {
      dbPath: s.t.dbPath,
    });
    assert.equal(failed.code, 0, failed.stderr);
    assert.deepEqual(failed.json.map((d: { event_type: string }) => d.event_type).sort(), [
      'entry.completed',
      'entry.evaluated',
      'entry.received',
    ]);
    for (const d of failed.json)
      assert.deepEqual([d.attempts, d.last_status_code, d.last_error, d.next_attempt_at], [3, 503, 'HTTP 503', null]);
    assert.equal(s.receiver.requests.length, 9, '1 attempt + 2 retries for each of 3 events');

    up = true;
    const received = failed.json.find((d: { event_type: string }) => d.event_type === 'entry.received');
    const one = await runCli(['webhook', 'redeliver', received.id, '--json'], { dbPath: s.t.dbPath });
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual([one.json.length, one.json[0].id, one.json[0].status], [1, received.id, 'pending']);
    const rest = await runCli(['webhook', 'redeliver', '--campaign', s.w.campaign.id, '--failed', '--json'], { dbPath: s.t.dbPath });
    assert.equal(rest.json.length, 2);
    await drainAll(s.t);
    const delivered = s.receiver.requests.filter((r) => r.status === 204);
    assert.equal(delivered.length, 3);
    assert.ok(delivered.every((r) => r.signatureMatches));
    assert.equal(delivered.find((r) => r.json.event_type === 'entry.received')!.headers['webhook-id'], received.id);
    const unknown = await runCli(['webhook', 'redeliver', 'evt_nope', '--json'], { dbPath: s.t.dbPath });
    assert.deepEqual([unknown.code, unknown.json.error.code], [1, 'not_found']);
    // Each redelivery is audited under the operator's name; a refused one records nothing.
    const audit = await runCli(['audit', 'list', '--action', 'webhook.redelivered', '--json'], { dbPath: s.t.dbPath });
    assert.deepEqual(
      audit.json.map((r: { actor: string; campaign_id: string; details: unknown }) => [
        r.actor.startsWith('cli:'),
        r.campaign_id,
        r.details,
      ]),
      [
        [true, s.w.campaign.id, { all_failed: true, count: 2 }],
        [true, s.w.campaign.id, { delivery_id: received.id, event_type: 'entry.received', entry_id: received.entry_id, mode: 'live' }],
      ],
    );
  });

  test('a delivered event sent again that then fails shows failed without its earlier delivered_at; the attempt log keeps that success', async () => {
    let up = true;
    const s = await setup({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '1' }, receiver: { respond: () => (up ? 204 : 503) } });
    await submit(s);
    await drainAll(s.t);
    const received = listDeliveryViews(s.t.ctx, s.w.campaign.id, 'delivered', 10).find((d) => d.event_type === 'entry.received')!;
    assert.notEqual(received.delivered_at, null);
    up = false;
    const again = await runCli(['webhook', 'redeliver', received.id, '--json'], { dbPath: s.t.dbPath });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual([again.json[0].status, again.json[0].delivered_at], ['pending', null]);
    await drainAll(s.t);
    const shown = await runCli(['webhook', 'deliveries', '--campaign', s.w.campaign.id, '--status', 'failed', '--json'], {
      dbPath: s.t.dbPath,
    });
    const row = shown.json.find((d: { id: string }) => d.id === received.id);
    assert.deepEqual([row.status, row.delivered_at, row.attempts, row.last_status_code], ['failed', null, 3, 503]);
    const log = s.t.ctx.db.prepare('SELECT status_code FROM webhook_attempts WHERE delivery_id = ? ORDER BY id').pluck().all(received.id);
    assert.deepEqual(log, [204, 503, 503]);
  });

  test('is_active false: events are skipped and never sent, not even after reactivation', async () => {
    const s = await setup();
    await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { is_active: false } });
    await submit(s, 0);
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, 0);
    await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { is_active: true } });
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, 0);
    const skipped = listDeliveryViews(s.t.ctx, s.w.campaign.id, 'skipped', 10);
    assert.equal(skipped.length, 3);
    const redeliver = await runCli(['webhook', 'redeliver', skipped[0].id, '--json'], { dbPath: s.t.dbPath });
    assert.deepEqual([redeliver.code, redeliver.json.error.code], [1, 'delivery_skipped']);
  });

  test('paused after events were queued: they wait, never attempted, and go out in order once delivery is back on', async () => {
    let up = false;
    const s = await setup({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '1,60' }, receiver: { respond: () => (up ? 204 : 503) } });
    const id = await submit(s, 0);
    // One attempt fails (503): the entry's first event is now between retries when delivery is paused.
    await s.t.tick();
    assert.ok(s.receiver.requests.length >= 1);
    const sentBefore = s.receiver.requests.length;
    const paused = await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { is_active: false } });
    assert.equal(paused.status, 200, paused.text);
    up = true;
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, sentBefore, 'nothing is sent while paused');
    const held = listDeliveryViews(s.t.ctx, s.w.campaign.id, undefined, 10).filter((d) => d.entry_id === id);
    assert.ok(held.length >= 1);
    assert.ok(
      held.every((d) => d.status === 'pending' && d.held && d.next_attempt_at === null),
      JSON.stringify(held),
    );
    const waiting = held[0];

    // An event that happens while paused is skipped (docs/api.md#delivery-retries-and-failure), the
    // queued ones are not.
    const during = await submit(s, 1);
    await drainAll(s.t);
    assert.deepEqual(
      listDeliveryViews(s.t.ctx, s.w.campaign.id, 'skipped', 10).map((d) => [d.entry_id, d.event_type]),
      [
        [during, 'entry.evaluated'],
        [during, 'entry.completed'],
        [during, 'entry.received'],
      ],
    );

    const resumed = await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { is_active: true } });
    assert.equal(resumed.status, 200, resumed.text);
    await drainAll(s.t);
    const delivered = s.receiver.requests.filter((r) => r.status === 204);
    assert.deepEqual(
      delivered.map((r) => r.json.data.entry_id),
      delivered.map(() => id),
      'only the events queued before the pause',
    );
    assert.deepEqual(
      delivered.map((r) => r.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
      'in the order they happened',
    );
    assert.ok(delivered.every((r) => r.signatureMatches));
    const row = listDeliveryViews(s.t.ctx, s.w.campaign.id, undefined, 10).find((d) => d.id === waiting.id)!;
    assert.deepEqual([row.status, row.held], ['delivered', false]);
    assert.equal(row.attempts, waiting.attempts + 1, 'being held counted no attempt');
  });

  // A claimed delivery that finds its campaign paused comes back as 'paused' and is held when the
  // tick records its outcome, after the tick's other attempts. Reactivation in between released
  // nothing (that row was claimed, not held), so holding it then kept the campaign's events from
  // ever going out although delivery was on.
  test('delivery turned back on while a paused outcome waits to be recorded: nothing stays held, all go out in order', async () => {
    const t = await startTestServer({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '5,5,5' } });
    // A receiver's requests are listed once answered; these gates say when one arrived and hold
    // its answer until the test opens them.
    const gate = () => {
      let arrive!: () => void;
      let open!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { arrived, opened, open, hold: async () => (arrive(), await opened) };
    };
    const firstB = gate();
    const answerA = gate();
    let bUp = false;
    const receiverB = await startReceiver({ respond: async () => (bUp ? 204 : (await firstB.hold(), 503)) });
    const receiverA = await startReceiver({ respond: async () => (await answerA.hold(), 204) });
    try {
      const a = makeCampaign(t.ctx, { name: 'A' });
      const b = makeCampaign(t.ctx, { name: 'B' });
      await configureWebhook(t, b.liveKey, receiverB.url);
      const { entry_id: id } = await submitEntry(t, b.liveKey, entryBody({}, 1), 'b-1');
      // B's first event is in flight when delivery is paused, so the pause does not hold it: it
      // fails (503) and waits for its retry like any other.
      const first = t.tick();
      await firstB.arrived;
      assert.equal((await t.request('PATCH', '/v1/webhook', { key: b.liveKey, body: { is_active: false } })).status, 200);
      firstB.open();
      await first;
      // The retry is claimed by a tick whose other attempt (campaign A) is still waiting for its
      // answer; meanwhile B is turned back on.
      await configureWebhook(t, a.liveKey, receiverA.url);
      await submitEntry(t, a.liveKey, entryBody({}, 2), 'a-1');
      t.clock.advance(6_000);
      bUp = true;
      const second = t.tick();
      await answerA.arrived;
      assert.equal((await t.request('PATCH', '/v1/webhook', { key: b.liveKey, body: { is_active: true } })).status, 200);
      answerA.open();
      await second;

      await drainAll(t);
      const views = listDeliveryViews(t.ctx, b.campaign.id, undefined, 10);
      assert.ok(
        views.every((d) => d.status === 'delivered' && !d.held),
        JSON.stringify(views),
      );
      const delivered = receiverB.requests.filter((r) => r.status === 204);
      assert.deepEqual(
        delivered.map((r) => [r.json.data.entry_id, r.json.event_type]),
        [
          [id, 'entry.received'],
          [id, 'entry.completed'],
          [id, 'entry.evaluated'],
        ],
      );
    } finally {
      await receiverA.close();
      await receiverB.close();
      await t.close();
    }
  });

  test('a redelivery asked for while paused waits too, and goes out once delivery is back on', async () => {
    let up = false;
    const s = await setup({ env: { CES_WEBHOOK_RETRY_SCHEDULE: '1' }, receiver: { respond: () => (up ? 204 : 503) } });
    const id = await submit(s, 0);
    await drainAll(s.t);
    assert.equal(listDeliveryViews(s.t.ctx, s.w.campaign.id, 'failed', 10).length, 3);
    assert.equal((await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { is_active: false } })).status, 200);
    up = true;
    const sentBefore = s.receiver.requests.length;
    const requeued = await runCli(['webhook', 'redeliver', '--campaign', s.w.campaign.id, '--failed', '--json'], { dbPath: s.t.dbPath });
    assert.equal(requeued.code, 0, requeued.stderr);
    assert.equal(requeued.json.length, 3);
    // Re-queued while paused: held at once, no tick attempts them.
    assert.ok(requeued.json.every((d: { status: string; held: boolean }) => d.status === 'pending' && d.held));
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, sentBefore);
    const held = listDeliveryViews(s.t.ctx, s.w.campaign.id, undefined, 10);
    assert.ok(
      held.every((d) => d.status === 'pending' && d.held && d.attempts === 2),
      `the two attempts before the pause, none since: ${JSON.stringify(held)}`,
    );

    assert.equal((await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { is_active: true } })).status, 200);
    await drainAll(s.t);
    const delivered = s.receiver.requests.slice(sentBefore);
    assert.deepEqual(
      delivered.map((r) => [r.status, r.json.data.entry_id, r.json.event_type]),
      [
        [204, id, 'entry.received'],
        [204, id, 'entry.completed'],
        [204, id, 'entry.evaluated'],
      ],
    );
    assert.ok(listDeliveryViews(s.t.ctx, s.w.campaign.id, undefined, 10).every((d) => d.status === 'delivered' && !d.held));
  });

  test('rotating the secret changes the signing key of every later attempt', async () => {
    const s = await setup();
    await submit(s, 0);
    await drainAll(s.t);
    assert.ok(s.receiver.requests.every((r) => r.signatureMatches === true));
    const rotated = await runCli(['webhook', 'rotate-secret', '--campaign', s.w.campaign.id, '--json'], { dbPath: s.t.dbPath });
    assert.equal(rotated.code, 0, rotated.stderr);
    const newSecret: string = rotated.json.hmac_secret;
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, s.secret);
    const before = s.receiver.requests.length;
    await submit(s, 1);
    await drainAll(s.t);
    const later = s.receiver.requests.slice(before);
    assert.equal(later.length, 3);
    assert.ok(
      later.every((r) => r.signatureMatches === false),
      'no longer signed with the old secret',
    );
    s.receiver.setSecret(newSecret);
    await submit(s, 2);
    await drainAll(s.t);
    assert.ok(s.receiver.requests.slice(before + 3).every((r) => r.signatureMatches === true));
    const show = await runCli(['webhook', 'show', '--campaign', s.w.campaign.id, '--json'], { dbPath: s.t.dbPath });
    assert.deepEqual(Object.keys(show.json).sort(), [
      'campaign_id',
      'created_at',
      'endpoint_url',
      'is_active',
      'previous_secret_expires_at',
      'updated_at',
    ]);
    assert.equal(show.json.previous_secret_expires_at, null, 'rotated without a grace period');
    assert.ok(!show.stdout.includes('whsec_'));
  });

  test('a user and password in the endpoint URL are sent as HTTP Basic authorization', async () => {
    const s = await setup();
    const url = s.receiver.url.replace('https://', 'https://hook:s3cr%40t@');
    const res = await s.t.request('PATCH', '/v1/webhook', { key: s.w.liveKey, body: { endpoint_url: url } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.endpoint_url, url);
    await submit(s);
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, 3);
    for (const r of s.receiver.requests) {
      assert.equal(r.headers.authorization, `Basic ${Buffer.from('hook:s3cr@t').toString('base64')}`);
      assert.equal(r.signatureMatches, true);
    }
  });

  test('without CES_ALLOW_PRIVATE_WEBHOOKS=1 a loopback endpoint is refused and counted as a failed attempt', async () => {
    const s = await setup({ env: { CES_ALLOW_PRIVATE_WEBHOOKS: '', CES_WEBHOOK_RETRY_SCHEDULE: '1' } });
    await submit(s, 0);
    await drainAll(s.t);
    assert.equal(s.receiver.requests.length, 0);
    const rows = s.t.ctx.db
      .prepare(
        `SELECT d.status, d.last_error, a.error, a.status_code FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.campaign_id = ?`,
      )
      .all(s.w.campaign.id) as Array<{ status: string; last_error: string; error: string; status_code: null }>;
    assert.ok(rows.length >= 2);
    for (const r of rows) {
      assert.equal(r.status, 'failed');
      assert.match(r.error, /^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback, private or link-local address/);
      assert.equal(r.status_code, null);
    }
  });

  test('CLI: show and rotate-secret of a campaign without configuration fail with not_found', async () => {
    const t = await startTestServer();
    cleanups.push(() => t.close());
    const w = makeCampaign(t.ctx);
    const show = await runCli(['webhook', 'show', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath });
    assert.deepEqual([show.code, show.json.error.code], [1, 'not_found']);
    assert.match(show.stderr, /^ces: Webhook configuration not found/);
    assert.throws(() => listDeliveryViews(t.ctx, w.campaign.id, 'lost', 10), { code: 'invalid_option', message: /^status must be one of/ });
  });
});

test('the timer-driven tick does not wait for a hanging endpoint: other campaigns are delivered meanwhile, and the entry’s later events wait', async () => {
  const t = await startTestServer({ tick: true, env: { CES_TICK_MS: '10', CES_WEBHOOK_TIMEOUT_MS: '60000' } });
  const hanging = await startReceiver({ respond: () => ({ status: 200, delayMs: 120_000 }) });
  const healthy = await startReceiver();
  cleanups.push(
    () => t.close(),
    () => healthy.close(),
    () => hanging.close(),
  );
  const slow = makeCampaign(t.ctx);
  const fast = makeCampaign(t.ctx);
  await configureWebhook(t, slow.liveKey, hanging.url);
  await configureWebhook(t, fast.liveKey, healthy.url);
  const slowEntry = (await submitEntry(t, slow.liveKey, entryBody({}, 0), 'hang-1')).entry_id;
  await hanging.waitFor((reqs) => reqs.length === 1, 10_000);
  const fastEntry = (await submitEntry(t, fast.liveKey, entryBody({}, 1), 'fast-1')).entry_id;
  await healthy.waitFor((reqs) => reqs.filter((r) => r.json.data.entry_id === fastEntry).length === 3, 10_000);
  assert.deepEqual(
    healthy.requests.map((r) => r.json.event_type),
    ['entry.received', 'entry.completed', 'entry.evaluated'],
  );
  // The hanging entry.received is still in flight, so that entry's later events have not been sent.
  assert.deepEqual(
    hanging.requests.map((r) => [r.json.event_type, r.json.data.entry_id]),
    [['entry.received', slowEntry]],
  );
  const pending = listDeliveryViews(t.ctx, slow.campaign.id, 'pending', 10);
  assert.equal(pending.length, 3);
});

test('the timer pool refills as attempts finish (not once per tick), never above CES_DELIVERY_CONCURRENCY, first attempts in event order', async () => {
  // One tick every 2 s and 3 slots: refilled once per tick, 60 deliveries would need 20 ticks (40 s).
  const t = await startTestServer({ tick: true, env: { CES_TICK_MS: '2000', CES_DELIVERY_CONCURRENCY: '3' } });
  const receiver = await startReceiver({ respond: () => ({ status: 200, delayMs: 30 }) });
  cleanups.push(
    () => t.close(),
    () => receiver.close(),
  );
  const w = makeCampaign(t.ctx);
  receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) ids.push((await submitEntry(t, w.liveKey, entryBody({}, i), `pool-${i}`)).entry_id);
  const started = Date.now();
  await receiver.waitFor((reqs) => reqs.length >= 60, 20_000);
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 15_000, `60 deliveries took ${elapsed} ms`);
  assert.ok(receiver.requests.every((r) => r.verified === true || r.signatureMatches === true));
  for (const id of ids) {
    assert.deepEqual(
      receiver.requests.filter((r) => r.json.data.entry_id === id).map((r) => r.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated'],
    );
  }
  // Requests overlapping in time (each is answered 30 ms after it arrived): at most 3 at once.
  const arrivals = receiver.requests.map((r) => r.receivedAt);
  const overlap = Math.max(...arrivals.map((at, i) => arrivals.filter((b, j) => j < i && b > at - 25).length + 1));
  assert.ok(overlap <= 3 && overlap >= 2, `max ${overlap} in flight`);
});

test('the delivery claim walks the campaign’s due index in order and probes the entry index: no scan or sort of all pending rows', async () => {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  const plan = (
    t.ctx.db
      .prepare(`EXPLAIN QUERY PLAN ${DUE_DELIVERIES_SQL}`)
      .all({ campaign: 'c', now: '2026-01-01T00:00:00.000Z', limit: 10 }) as Array<{ detail: string }>
  ).map((r) => r.detail);
  assert.ok(
    plan.some((d) => d.startsWith('SEARCH d USING INDEX webhook_deliveries_campaign_due (campaign_id=? AND next_attempt_at<?)')),
    plan.join('\n'),
  );
  assert.ok(
    plan.some((d) => /SEARCH e USING INDEX webhook_deliveries_entry \(entry_id=\? AND seq<\?\)/.test(d)),
    plan.join('\n'),
  );
  assert.ok(!plan.some((d) => /TEMP B-TREE|^SCAN/.test(d)), plan.join('\n'));
});

test('nextDeliveryDueAt names the instant the claim first takes something: an event waiting behind its entry’s earlier, later-scheduled event is not due before it', async () => {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  const { campaign } = makeCampaign(t.ctx);
  const db = t.ctx.db;
  const at = (s: number): string => new Date(Date.UTC(2026, 10, 22, 12, 0, s)).toISOString();
  const queue = (id: string, entry: string, due: string): void =>
    insertDelivery(db, {
      id,
      campaign_id: campaign.id,
      livemode: 1,
      entry_id: entry,
      event_type: 'entry.received',
      payload: '{}',
      status: 'pending',
      next_attempt_at: due,
      last_error: null,
      created_at: at(0),
    });
  // The entry's first event is scheduled at 0:10 and never attempted; its second was redelivered
  // (due at 0:05) but waits behind the first, as the claim's order rule says.
  queue('evt_first', 'entry-1', at(10));
  queue('evt_second', 'entry-1', at(5));
  const claimAt = (now: string): string[] =>
    db.transaction(() => claimDeliveries(db, now, at(50), [{ key: campaign.id, room: 10 }]).map((d) => d.id))();
  assert.equal(nextDeliveryDueAt(db), at(10));
  assert.deepEqual(claimAt(at(9)), []);
  assert.deepEqual(claimAt(at(10)), ['evt_first']);
  // The first is in flight until 0:50: the second is claimable when that lease ends, not before.
  assert.equal(nextDeliveryDueAt(db), at(50));
  assert.deepEqual(claimAt(at(49)), []);
  assert.deepEqual(claimAt(at(50)).sort(), ['evt_first', 'evt_second']);
});
