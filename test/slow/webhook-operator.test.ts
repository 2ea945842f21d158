// Webhook configuration, operator side (docs/operations.md#webhook-configuration-operator-side):
// the campaign's operator decides which API keys may change the webhook (`--webhook-api
// any|live|none`, 403 webhook_config_locked otherwise; GET stays open), sets it from the CLI (`ces
// webhook set`, with the API's URL checks and the delivery's target check), and rotates the signing
// secret with a grace period during which every delivery carries both signatures, verified here
// with the public standardwebhooks package.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../src/kernel/clock.ts';
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
import { startReceiver, type ReceivedRequest, type Receiver } from '../support/receiver.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(clock?: ManualClock): Promise<{ t: TestServer; w: World }> {
  const t = await startTestServer({ clock });
  cleanups.push(() => t.close());
  return { t, w: makeCampaign(t.ctx) };
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

const PRIVATE_OK = { CES_ALLOW_PRIVATE_WEBHOOKS: '1' };
let idem = 0;

describe('--webhook-api: which keys may PATCH /v1/webhook', () => {
  test('live: a test key is refused with 403 webhook_config_locked and changes nothing; a live key may; GET stays open to both', async () => {
    const { t, w } = await server();
    await configureWebhook(t, w.liveKey, 'https://hooks.example.com/live');
    const locked = await runCli(['campaign', 'update', w.campaign.id, '--webhook-api', 'live', '--json'], { dbPath: t.dbPath });
    assert.equal(locked.code, 0, locked.stderr);
    assert.equal(locked.json.webhook_api, 'live');

    for (const body of [{ endpoint_url: 'https://attacker.example/steal' }, { is_active: false }, {}, 'not json at all']) {
      const res = await t.request(
        'PATCH',
        '/v1/webhook',
        typeof body === 'string' ? { key: w.testKey, raw: body } : { key: w.testKey, body },
      );
      assert.equal(res.status, 403, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(res.body.code, 'webhook_config_locked');
      assert.equal(res.body.status, 403);
    }
    for (const key of [w.testKey, w.liveKey]) {
      const read = await t.request('GET', '/v1/webhook', { key });
      assert.equal(read.status, 200);
      assert.deepEqual(
        [read.body.endpoint_url, read.body.is_active],
        ['https://hooks.example.com/live', true],
        'unchanged by the refused PATCHes',
      );
    }
    const byLive = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks.example.com/v2' } });
    assert.equal(byLive.status, 200, byLive.text);
    assert.equal(byLive.body.endpoint_url, 'https://hooks.example.com/v2');
  });

  test('live: a test key cannot create the configuration either (it would get the secret)', async () => {
    const { t, w } = await server();
    assert.equal((await runCli(['campaign', 'update', w.campaign.id, '--webhook-api', 'live'], { dbPath: t.dbPath })).code, 0);
    const res = await t.request('PATCH', '/v1/webhook', { key: w.testKey, body: { endpoint_url: 'https://attacker.example/steal' } });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 'webhook_config_locked');
    assert.equal(res.body.hmac_secret, undefined);
    assert.equal((await t.request('GET', '/v1/webhook', { key: w.testKey })).status, 404);
  });

  test('none: every key is refused, the operator sets it with ces webhook set, and back to any the test key may again', async () => {
    const { t, w } = await server();
    assert.equal((await runCli(['campaign', 'update', w.campaign.id, '--webhook-api', 'none'], { dbPath: t.dbPath })).code, 0);
    for (const key of [w.liveKey, w.testKey]) {
      const res = await t.request('PATCH', '/v1/webhook', { key, body: { endpoint_url: 'https://hooks.example.com/x' } });
      assert.deepEqual([res.status, res.body.code], [403, 'webhook_config_locked']);
    }
    const set = await runCli(['webhook', 'set', '--campaign', w.campaign.id, '--url', 'https://hooks.example.com/operator', '--json'], {
      dbPath: t.dbPath,
      env: PRIVATE_OK,
    });
    assert.equal(set.code, 0, set.stderr);
    assert.equal((await t.request('GET', '/v1/webhook', { key: w.testKey })).body.endpoint_url, 'https://hooks.example.com/operator');
    assert.equal((await runCli(['campaign', 'update', w.campaign.id, '--webhook-api', 'any'], { dbPath: t.dbPath })).code, 0);
    const res = await t.request('PATCH', '/v1/webhook', { key: w.testKey, body: { is_active: false } });
    assert.equal(res.status, 200, res.text);
  });

  test('the setting defaults to any, is shown by campaign show, list and --json, and refuses other values', async () => {
    const { t, w } = await server();
    assert.equal(w.campaign.webhook_api, 'any');
    const created = await runCli(['campaign', 'create', '--name', 'Locked', '--webhook-api', 'none', '--json'], { dbPath: t.dbPath });
    assert.equal(created.json.webhook_api, 'none');
    const show = await runCli(['campaign', 'show', created.json.id], { dbPath: t.dbPath });
    assert.match(show.stdout, /^webhook_api\s+none$/m);
    const list = await runCli(['campaign', 'list'], { dbPath: t.dbPath });
    assert.match(list.stdout, /^ID\s+NAME\s+.*WEBHOOK_API\n/);
    assert.match(list.stdout, new RegExp(`^${created.json.id}\\s+Locked\\s+.*\\snone$`, 'm'));
    const listed = await runCli(['campaign', 'list', '--json'], { dbPath: t.dbPath });
    assert.deepEqual(
      listed.json.map((c: { webhook_api: string }) => c.webhook_api),
      ['any', 'none'],
    );
    const bad = await runCli(['campaign', 'update', w.campaign.id, '--webhook-api', 'test', '--json'], { dbPath: t.dbPath });
    assert.deepEqual([bad.code, bad.json.error.code], [1, 'invalid_campaign_options']);
    assert.match(bad.json.error.message, /webhook_api must be one of any, live, none, got "test"/);
  });
});

describe('ces webhook set', () => {
  test('creates the configuration (secret printed once), then changes URL and state without printing it; deliveries verify with that secret', async () => {
    const { t, w } = await server();
    const r = await receiver();
    const created = await runCli(['webhook', 'set', '--campaign', w.campaign.id, '--url', r.url, '--json'], {
      dbPath: t.dbPath,
      env: PRIVATE_OK,
    });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.json.hmac_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual([created.json.endpoint_url, created.json.is_active], [r.url, true]);
    r.setSecret(created.json.hmac_secret);
    await submitEntry(t, w.liveKey, entryBody({}, 0), `set-${++idem}`);
    await drainAll(t);
    assert.equal(r.requests.length, 3);
    assert.ok(r.requests.every((q) => q.signatureMatches === true));

    const paused = await runCli(['webhook', 'set', '--campaign', w.campaign.id, '--inactive', '--json'], {
      dbPath: t.dbPath,
      env: PRIVATE_OK,
    });
    assert.equal(paused.code, 0, paused.stderr);
    assert.equal(paused.json.is_active, false);
    assert.equal(paused.json.hmac_secret, undefined);
    assert.ok(!paused.stdout.includes('whsec_'));
    const human = await runCli(['webhook', 'set', '--campaign', w.campaign.id, '--active'], { dbPath: t.dbPath, env: PRIVATE_OK });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^is_active\s+true$/m);
    assert.ok(!human.stdout.includes('whsec_'));
    assert.equal((await t.request('GET', '/v1/webhook', { key: w.liveKey })).body.is_active, true);
  });

  test('the URL is checked as the API checks it, and as a delivery would: https only, no private target unless allowed', async () => {
    const { t, w } = await server();
    const set = (args: string[], env: Record<string, string> = {}) =>
      runCli(['webhook', 'set', '--campaign', w.campaign.id, ...args, '--json'], {
        dbPath: t.dbPath,
        env: { CES_ALLOW_PRIVATE_WEBHOOKS: '', ...env },
      });
    const cases: Array<[string[], string, RegExp]> = [
      [['--url', 'http://hooks.example.com/x'], 'webhook_url_not_https', /https/],
      [['--url', 'https://127.0.0.1:8443/x'], 'webhook_url_refused', /127\.0\.0\.1.*loopback, private or link-local/],
      [['--url', 'https://169.254.169.254/latest'], 'webhook_url_refused', /169\.254\.169\.254/],
      [['--url', 'https://localhost/x'], 'webhook_url_refused', /localhost resolves to/],
      [['--active'], 'validation_failed', /no webhook configuration yet: an endpoint URL is required/],
      [['--url', `https://hooks.example.com/${'x'.repeat(2100)}`], 'validation_failed', /endpoint_url must be at most 2048 characters/],
      [['--url', 'https://hooks.example.com/x', '--active', '--inactive'], 'invalid_option', /--active or --inactive/],
      [[], 'invalid_option', /--url, --active or --inactive/],
    ];
    for (const [args, code, message] of cases) {
      const res = await set(args);
      assert.equal(res.code, 1, `${args.join(' ')}: ${res.stdout}`);
      assert.equal(res.json.error.code, code, args.join(' '));
      assert.match(res.json.error.message, message, args.join(' '));
    }
    assert.equal((await t.request('GET', '/v1/webhook', { key: w.liveKey })).status, 404, 'nothing was created');
    const allowed = await set(['--url', 'https://127.0.0.1:8443/x'], PRIVATE_OK);
    assert.equal(allowed.code, 0, allowed.stderr);
    const unknown = await runCli(
      ['webhook', 'set', '--campaign', '00000000-0000-4000-8000-000000000000', '--url', 'https://hooks.example.com/x', '--json'],
      { dbPath: t.dbPath },
    );
    assert.equal(unknown.json.error.code, 'not_found');
  });
});

describe('ces webhook rotate-secret --grace', () => {
  const signatures = (q: ReceivedRequest): string[] => q.headers['webhook-signature'].split(' ');
  const verifies = (secret: string, q: ReceivedRequest): boolean => {
    try {
      new Webhook(secret).verify(q.body, q.headers);
      return true;
    } catch {
      return false;
    }
  };

  test('during the grace every delivery (and ces webhook test) verifies with either secret, the new one signing first; after it only with the new one', async () => {
    // The server's clock starts at the real time: standardwebhooks checks the timestamp against it,
    // and the CLI that rotates reads the real clock too.
    const { t, w } = await server(new ManualClock(Date.now()));
    const r = await receiver();
    const oldSecret = await configureWebhook(t, w.liveKey, r.url);
    const rotated = await runCli(['webhook', 'rotate-secret', '--campaign', w.campaign.id, '--grace', '120', '--json'], {
      dbPath: t.dbPath,
    });
    assert.equal(rotated.code, 0, rotated.stderr);
    const newSecret: string = rotated.json.hmac_secret;
    assert.notEqual(newSecret, oldSecret);
    const expires = Date.parse(rotated.json.previous_secret_expires_at);
    assert.ok(Math.abs(expires - (Date.now() + 120_000)) < 30_000, rotated.json.previous_secret_expires_at);
    const shown = await runCli(['webhook', 'show', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath });
    assert.equal(shown.json.previous_secret_expires_at, rotated.json.previous_secret_expires_at);
    assert.ok(!shown.stdout.includes('whsec_'));

    await submitEntry(t, w.liveKey, entryBody({}, 0), `grace-${++idem}`);
    await drainAll(t);
    const ping = await runCli(['webhook', 'test', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath, env: PRIVATE_OK });
    assert.equal(ping.code, 0, ping.stderr);
    const during = r.requests.slice();
    assert.deepEqual(
      during.map((q) => q.json.event_type),
      ['entry.received', 'entry.completed', 'entry.evaluated', 'ping'],
    );
    for (const q of during) {
      assert.equal(signatures(q).length, 2, q.headers['webhook-signature']);
      assert.ok(verifies(oldSecret, q), `${q.json.event_type} verifies with the old secret`);
      assert.ok(verifies(newSecret, q), `${q.json.event_type} verifies with the new secret`);
      // The new secret's signature first, the old one's second.
      const sign = (secret: string) =>
        new Webhook(secret).sign(q.headers['webhook-id'], new Date(Number(q.headers['webhook-timestamp']) * 1000), q.body);
      assert.deepEqual(signatures(q), [sign(newSecret), sign(oldSecret)]);
    }

    t.clock.set(expires + 1000);
    await submitEntry(t, w.liveKey, entryBody({}, 1), `grace-${++idem}`);
    await drainAll(t);
    const afterGrace = r.requests.slice(during.length);
    assert.equal(afterGrace.length, 3);
    for (const q of afterGrace) {
      assert.equal(signatures(q).length, 1, q.headers['webhook-signature']);
      assert.ok(verifies(newSecret, q), `${q.json.event_type} verifies with the new secret`);
      assert.equal(verifies(oldSecret, q), false, `${q.json.event_type} no longer verifies with the old secret`);
    }
    // Once the grace has ended, the tick forgets the old secret.
    const row = t.ctx.db
      .prepare('SELECT previous_secret, previous_secret_expires_at FROM webhook_configs WHERE campaign_id = ?')
      .get(w.campaign.id);
    assert.deepEqual(row, { previous_secret: null, previous_secret_expires_at: null });
  });

  test('without --grace the old secret stops at once, also when a grace was running; a bad --grace changes nothing', async () => {
    const { t, w } = await server(new ManualClock(Date.now()));
    const r = await receiver();
    const first = await configureWebhook(t, w.liveKey, r.url);
    const graced = await runCli(['webhook', 'rotate-secret', '--campaign', w.campaign.id, '--grace', '3600', '--json'], {
      dbPath: t.dbPath,
    });
    const second: string = graced.json.hmac_secret;
    for (const grace of ['-1', '2592001', '1.5', 'soon']) {
      const bad = await runCli(['webhook', 'rotate-secret', '--campaign', w.campaign.id, '--grace', grace, '--json'], { dbPath: t.dbPath });
      assert.deepEqual([bad.code, bad.json.error.code], [1, 'invalid_option'], grace);
    }
    const now = await runCli(['webhook', 'rotate-secret', '--campaign', w.campaign.id, '--json'], { dbPath: t.dbPath });
    assert.equal(now.code, 0, now.stderr);
    assert.equal(now.json.previous_secret_expires_at, null);
    const third: string = now.json.hmac_secret;
    await submitEntry(t, w.liveKey, entryBody({}, 0), `grace-${++idem}`);
    await drainAll(t);
    assert.equal(r.requests.length, 3);
    for (const q of r.requests) {
      assert.equal(signatures(q).length, 1);
      assert.ok(verifies(third, q));
      assert.equal(verifies(second, q), false);
      assert.equal(verifies(first, q), false);
    }
  });
});
