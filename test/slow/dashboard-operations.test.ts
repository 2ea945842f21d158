// The dashboard's operations pages over HTTP (issue 25; docs/operations.md#dashboard): keys,
// webhook, prizes and windows, participants (LGPD), exports, campaign create/settings and the audit
// log. Each change is made through a real server on a real SQLite file, then checked where it
// lands: the status code, the row in the database, the API's answer, and the audit record under
// dashboard:<name>. Every POST needs the session's CSRF token, and the typed confirmation of an
// anonymization is refused when it does not match.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { listAuditRecords, type AuditAction, type AuditRecord } from '../../src/audit/audit.ts';
import { getCampaign } from '../../src/campaigns/campaigns.ts';
import { openDatabase } from '../../src/db/open.ts';
import { findEnrollmentByDocument } from '../../src/entries/enrollments.repo.ts';
import { issueKey, listKeys } from '../../src/keys/keys.ts';
import { listOperatorPrizes } from '../../src/mechanics/prizes.ts';
import { listPrizeWindows } from '../../src/mechanics/windows.ts';
import { findOperatorWebhookConfig, setWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { listDeliveryViews } from '../../src/webhooks/deliveries.ts';
import {
  cpf,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  OPERATOR,
  startTestServer,
  submitEntry,
  type TestServer,
} from '../support/harness.ts';
import { signIn as openSession, tableRows, textOf } from '../support/dashboard.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { seedEntries } from '../support/seed-entries.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(): Promise<TestServer> {
  // On a socket: the export tests read a streamed download and abandon one mid-way.
  const t = await startTestServer({ socket: true });
  cleanups.push(() => t.close());
  return t;
}

async function receiver(status: () => number = () => 200): Promise<Receiver> {
  const r = await startReceiver({ respond: () => status() });
  cleanups.push(() => r.close());
  return r;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The Location of a redirect, as a path. */
  location: string | null;
}

interface Operator {
  name: string;
  /** The Cookie header of the session. */
  cookie: string;
  csrf: string;
  get(path: string): Promise<Answer>;
  /** A form POST; csrf: the token sent (default the session's; null sends none). */
  post(path: string, fields?: Record<string, string | string[]>, options?: { csrf?: string | null }): Promise<Answer>;
}

/**
 * An operator signed in through a one-time link (test/support/dashboard.ts), whose form POSTs may
 * repeat a field (checkboxes) and send no CSRF token, or another one.
 */
async function signIn(t: TestServer, name = 'maria'): Promise<Operator> {
  const signedIn = await openSession(t, name);
  const cookie = `ces_session=${signedIn.cookie}`;
  const send = async (method: string, path: string, body?: string): Promise<Answer> => {
    const res = await fetch(`${t.url}/dashboard${path}`, {
      method,
      redirect: 'manual',
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      body,
    });
    const location = res.headers.get('location');
    return { status: res.status, headers: res.headers, text: await res.text(), location };
  };
  return {
    name,
    cookie,
    csrf: signedIn.csrf,
    get: (path) => send('GET', path),
    post: (path, fields = {}, options = {}) => {
      const form = new URLSearchParams();
      const csrf = options.csrf === undefined ? signedIn.csrf : options.csrf;
      if (csrf !== null) form.set('csrf', csrf);
      for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
      return send('POST', path, form.toString());
    },
  };
}

function audits(t: TestServer, action: AuditAction): AuditRecord[] {
  return listAuditRecords(t.ctx, { action, limit: 100 });
}

/** The newest record of `action`, checked to be the operator's. */
function lastAudit(t: TestServer, action: AuditAction, op: Operator): AuditRecord {
  const [record] = audits(t, action);
  assert.ok(record, `an audit record ${action}`);
  assert.equal(record.actor, `dashboard:${op.name}`);
  return record;
}

const campaignPath = (id: string, suffix = ''): string => `/campaigns/${id}${suffix}`;

describe('keys', () => {
  test('issue shows the key once (200, no-store), and it works against the API; the list never shows it again; audited key.issued', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const op = await signIn(t);
    const res = await op.post(campaignPath(w.campaign.id, '/keys'), { mode: 'live', label: 'partner A' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const key = /service_live_[A-Za-z0-9_-]{43}/.exec(res.text)?.[0];
    assert.ok(key, 'the new key is on the page');
    assert.match(res.text, /data-copy="new-key"/, 'with its copy button');
    assert.equal((await t.request('GET', '/v1/prizes', { key })).status, 200);
    const record = lastAudit(t, 'key.issued', op);
    assert.equal(record.campaign_id, w.campaign.id);
    const issued = listKeys(t.ctx, w.campaign.id).find((k) => k.id === record.details.key_id);
    assert.deepEqual([issued?.mode, issued?.label], ['live', 'partner A']);
    const list = await op.get(campaignPath(w.campaign.id, '/keys'));
    assert.equal(list.status, 200);
    assert.ok(!list.text.includes(key), 'the list shows prefixes only');
    assert.ok(list.text.includes(`${key.slice(0, 19)}…`));
  });

  test('rotate with grace: the new key is shown once, the old one works until the grace ends; revoke gives 401 at once', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const op = await signIn(t);
    const rotated = await op.post(campaignPath(w.campaign.id, `/keys/${w.liveKeyId}/rotate`), { grace: '3600' });
    assert.equal(rotated.status, 200, rotated.text);
    const fresh = /service_live_[A-Za-z0-9_-]{43}/.exec(rotated.text)?.[0];
    assert.ok(fresh);
    assert.equal((await t.request('GET', '/v1/prizes', { key: w.liveKey })).status, 200, 'the old key within its grace');
    assert.equal((await t.request('GET', '/v1/prizes', { key: fresh })).status, 200);
    const record = lastAudit(t, 'key.rotated', op);
    assert.deepEqual([record.details.replaced_key_id, record.details.grace_seconds], [w.liveKeyId, 3600]);
    t.clock.advance(3600_000);
    assert.equal((await t.request('GET', '/v1/prizes', { key: w.liveKey })).status, 401, 'after the grace');

    const newId = record.details.key_id as string;
    const revoked = await op.post(campaignPath(w.campaign.id, `/keys/${newId}/revoke`), { confirmed: 'yes' });
    assert.equal(revoked.status, 303);
    assert.equal(revoked.location, `/dashboard/campaigns/${w.campaign.id}/keys`);
    assert.equal((await t.request('GET', '/v1/prizes', { key: fresh })).status, 401);
    assert.equal(lastAudit(t, 'key.revoked', op).details.key_id, newId);
  });

  test("a key of another campaign cannot be revoked or rotated through this campaign's page (404, key untouched)", async () => {
    const t = await server();
    const a = makeCampaign(t.ctx);
    const b = makeCampaign(t.ctx);
    const op = await signIn(t);
    for (const verb of ['revoke', 'rotate']) {
      const res = await op.post(campaignPath(a.campaign.id, `/keys/${b.liveKeyId}/${verb}`));
      assert.equal(res.status, 404, `${verb}: ${res.text}`);
    }
    assert.equal((await t.request('GET', '/v1/prizes', { key: b.liveKey })).status, 200);
    assert.equal(audits(t, 'key.revoked').length + audits(t, 'key.rotated').length, 0);
  });

  test('a bad mode or grace is a 4xx page and issues nothing', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const op = await signIn(t);
    const before = listKeys(t.ctx, w.campaign.id).length;
    assert.equal((await op.post(campaignPath(w.campaign.id, '/keys'), { mode: 'prod' })).status, 422);
    const grace = await op.post(campaignPath(w.campaign.id, `/keys/${w.liveKeyId}/rotate`), { grace: '-5' });
    assert.equal(grace.status, 422);
    assert.match(grace.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(listKeys(t.ctx, w.campaign.id).length, before);
  });
});

describe('webhook', () => {
  test('create (the secret shown once), pause, resume, set URL: each audited, each visible in the configuration', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const r = await receiver();
    const op = await signIn(t);
    const page = await op.get(campaignPath(w.campaign.id, '/webhook'));
    assert.equal(page.status, 200);
    assert.match(page.text, /Create webhook/);
    const created = await op.post(campaignPath(w.campaign.id, '/webhook/url'), { url: r.url, active: 'on' });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const secret = /whsec_[A-Za-z0-9+/=]{44}/.exec(created.text)?.[0];
    assert.ok(secret, 'the secret is shown');
    assert.equal(lastAudit(t, 'webhook.created', op).details.endpoint_url, r.url);
    assert.ok(!(await op.get(campaignPath(w.campaign.id, '/webhook'))).text.includes(secret), 'and only once');

    const paused = await op.post(campaignPath(w.campaign.id, '/webhook/active'), { active: 'off', confirmed: 'yes' });
    assert.equal(paused.status, 303);
    assert.equal(findOperatorWebhookConfig(t.ctx, w.campaign.id)?.is_active, false);
    assert.deepEqual(lastAudit(t, 'webhook.updated', op).details.changed, { is_active: false });
    assert.match((await op.get(campaignPath(w.campaign.id, '/webhook'))).text, /Resume delivery/);
    assert.equal((await op.post(campaignPath(w.campaign.id, '/webhook/active'), { active: 'on' })).status, 303);
    assert.equal(findOperatorWebhookConfig(t.ctx, w.campaign.id)?.is_active, true);

    const moved = await op.post(campaignPath(w.campaign.id, '/webhook/url'), { url: `${r.url}/v2` });
    assert.equal(moved.status, 303, moved.text);
    assert.equal(findOperatorWebhookConfig(t.ctx, w.campaign.id)?.endpoint_url, `${r.url}/v2`);
    const refused = await op.post(campaignPath(w.campaign.id, '/webhook/url'), { url: 'http://plain.example/hooks' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /https:\/\//);
    assert.equal(findOperatorWebhookConfig(t.ctx, w.campaign.id)?.endpoint_url, `${r.url}/v2`);
  });

  test('rotate the secret with a grace period: the new one shown once, the next delivery signed with both', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const r = await receiver();
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: r.url }, OPERATOR);
    const op = await signIn(t);
    const res = await op.post(campaignPath(w.campaign.id, '/webhook/rotate-secret'), { grace: '600' });
    assert.equal(res.status, 200, res.text);
    const secret = /whsec_[A-Za-z0-9+/=]{44}/.exec(res.text)?.[0];
    assert.ok(secret);
    assert.match(textOf(res.text), /two signatures/);
    assert.equal(lastAudit(t, 'webhook.secret_rotated', op).details.grace_seconds, 600);
    r.setSecret(secret);
    await submitEntry(t, w.liveKey, entryBody(), 'rotate-1');
    await drainAll(t);
    assert.ok(r.requests.length > 0);
    for (const req of r.requests) {
      assert.equal(req.signatureMatches, true, 'signed with the new secret');
      assert.equal(req.headers['webhook-signature'].split(' ').length, 2, 'and the old one, during the grace');
    }
  });

  test('the API lock: --webhook-api none from the page refuses every key (403 webhook_config_locked); audited campaign.updated', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const op = await signIn(t);
    const res = await op.post(campaignPath(w.campaign.id, '/webhook/api-lock'), { webhook_api: 'none' });
    assert.equal(res.status, 303);
    assert.equal(getCampaign(t.ctx, w.campaign.id).webhook_api, 'none');
    assert.deepEqual(lastAudit(t, 'campaign.updated', op).details.changed, { webhook_api: 'none' });
    const patch = await t.request('PATCH', '/v1/webhook', { key: w.liveKey, body: { endpoint_url: 'https://hooks.example.com/x' } });
    assert.equal(patch.status, 403);
    assert.equal(patch.body.code, 'webhook_config_locked');
    assert.equal((await op.post(campaignPath(w.campaign.id, '/webhook/api-lock'), { webhook_api: 'everyone' })).status, 422);
    assert.equal(getCampaign(t.ctx, w.campaign.id).webhook_api, 'none');
  });

  test('a test ping reports its outcome; failed deliveries are listed under the failed filter and redelivered one at a time or all at once', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    let status = 503;
    const r = await receiver(() => status);
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: r.url }, OPERATOR);
    const op = await signIn(t);
    const pings: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await op.post(campaignPath(w.campaign.id, '/webhook/ping'), { mode: 'test' });
      assert.equal(res.status, 303);
      const id = new URL(res.location!, t.url).searchParams.get('ping')!;
      pings.push(id);
      const shown = await op.get(res.location!.replace(/^\/dashboard/, ''));
      assert.match(textOf(shown.text), /Test ping failed: the endpoint answered 503\./);
    }
    assert.equal(r.requests.length, 3);
    const failed = await op.get(campaignPath(w.campaign.id, '/webhook?status=failed'));
    for (const id of pings) assert.ok(failed.text.includes(id), 'each failed ping is listed');
    const delivered = await op.get(campaignPath(w.campaign.id, '/webhook?status=delivered'));
    assert.ok(!pings.some((id) => delivered.text.includes(id)));

    status = 200;
    const one = await op.post(campaignPath(w.campaign.id, `/webhook/deliveries/${pings[0]}/redeliver`));
    assert.equal(one.status, 303);
    await drainAll(t);
    assert.equal(r.requests.length, 4);
    assert.equal(r.requests[3].json.id, pings[0]);
    assert.deepEqual(lastAudit(t, 'webhook.redelivered', op).details, {
      delivery_id: pings[0],
      event_type: 'ping',
      entry_id: null,
      mode: 'test',
    });
    const all = await op.post(campaignPath(w.campaign.id, '/webhook/redeliver-failed'), { confirmed: 'yes' });
    assert.equal(all.status, 303);
    assert.match(all.location ?? '', /requeued=2$/);
    assert.deepEqual(lastAudit(t, 'webhook.redelivered', op).details, { all_failed: true, count: 2 });
    // With none failed, nothing is queued and nothing recorded.
    const none = await op.post(campaignPath(w.campaign.id, '/webhook/redeliver-failed'));
    assert.equal(none.status, 303);
    assert.match(none.location ?? '', /requeued=0$/);
    assert.equal(audits(t, 'webhook.redelivered').length, 2);
    await drainAll(t);
    assert.deepEqual(
      listDeliveryViews(t.ctx, w.campaign.id, 'delivered', 10)
        .map((d) => d.id)
        .sort(),
      [...pings].sort(),
    );
    // A delivery of another campaign is not found through this one's page.
    const other = makeCampaign(t.ctx);
    assert.equal((await op.post(campaignPath(other.campaign.id, `/webhook/deliveries/${pings[0]}/redeliver`))).status, 404);
  });
});

describe('prizes and windows', () => {
  test('add a prize (stock listed); a refused one comes back 422 with the message beside the form, nothing added', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const op = await signIn(t);
    const res = await op.post(campaignPath(w.campaign.id, '/prizes'), {
      mode: 'test',
      name: 'Phone',
      type: 'device',
      unit_value: '999.90',
      stock: '5',
    });
    assert.equal(res.status, 303);
    assert.equal(res.location, `/dashboard/campaigns/${w.campaign.id}/prizes?mode=test`);
    const [prize] = listOperatorPrizes(t.ctx, w.campaign.id, 'test');
    assert.deepEqual([prize.name, prize.unit_value, prize.current_stock], ['Phone', 999.9, 5]);
    assert.equal(lastAudit(t, 'prize.added', op).details.prize_id, prize.id);
    const page = await op.get(campaignPath(w.campaign.id, '/prizes?mode=test'));
    assert.match(page.text, /Phone/);
    assert.equal(listOperatorPrizes(t.ctx, w.campaign.id, 'live').length, 0, 'the mode is the form’s');

    const refused = await op.post(campaignPath(w.campaign.id, '/prizes'), {
      mode: 'live',
      name: 'Car',
      type: 'car',
      unit_value: '1',
      stock: 'many',
    });
    assert.equal(refused.status, 422);
    // The field by its label on the form, as the notice and the error beside it say.
    assert.match(textOf(refused.text), /Stock must be a whole number/);
    assert.doesNotMatch(textOf(refused.text), /--stock|`stock`/);
    assert.match(refused.text, /value="Car"/, 'the typed values are kept');
    assert.equal(listOperatorPrizes(t.ctx, w.campaign.id, 'live').length, 0);
  });

  test('windows of a WINDOW campaign: added spread over time, counted per prize; audited window.added', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { instantPrize: 'WINDOW' });
    const prize = makePrize(t.ctx, w.campaign.id, 'live', 10, 'Voucher');
    const op = await signIn(t);
    const res = await op.post(campaignPath(w.campaign.id, '/prizes/windows'), {
      mode: 'live',
      prize: prize.id,
      opens_at: '2026-12-01T10:00:00-03:00',
      count: '3',
      every: '3600',
      until: '',
    });
    assert.equal(res.status, 303, res.text);
    const windows = listPrizeWindows(t.ctx, w.campaign.id, 'live');
    assert.deepEqual(
      windows.map((x) => x.opens_at),
      ['2026-12-01T13:00:00.000Z', '2026-12-01T14:00:00.000Z', '2026-12-01T15:00:00.000Z'],
    );
    assert.equal(lastAudit(t, 'window.added', op).details.count, 3);
    const page = await op.get(campaignPath(w.campaign.id, '/prizes'));
    assert.ok(
      tableRows(page.text).some((row) => row.join('|') === 'Voucher|3|2026-12-01 10:00:00'),
      '3 windows to win, the next opening in Sao Paulo time',
    );
    const bad = await op.post(campaignPath(w.campaign.id, '/prizes/windows'), { mode: 'live', prize: prize.id, opens_at: 'tomorrow' });
    assert.equal(bad.status, 422);
    assert.equal(listPrizeWindows(t.ctx, w.campaign.id, 'live').length, 3);
  });
});

describe('participants (LGPD)', () => {
  async function withParticipant(): Promise<{ t: TestServer; campaignId: string; liveKey: string; op: Operator }> {
    const t = await server();
    const w = makeCampaign(t.ctx, { require: 'full_name' });
    await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: 'Ana Souza' } }, 0), 'lgpd-1');
    return { t, campaignId: w.campaign.id, liveKey: w.liveKey, op: await signIn(t) };
  }

  test('find by document shows the participant masked; the export downloads everything held, audited participant.exported', async () => {
    const { t, campaignId, op } = await withParticipant();
    const found = await op.post(campaignPath(campaignId, '/participants/find'), { mode: 'live', document: '529.982.247-25' });
    assert.equal(found.status, 200, found.text);
    assert.match(found.text, /\*\*\*\.982\.247-\*\*/);
    assert.ok(!found.text.includes('Ana Souza'), 'no personal data beyond the masked document');
    const exported = await op.post(campaignPath(campaignId, '/participants/export'), { mode: 'live', document: cpf(0) });
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get('content-disposition') ?? '', /^attachment; filename="participant-[0-9a-f-]{36}\.json"$/);
    const doc = JSON.parse(exported.text);
    assert.equal(doc.enrollment.full_name, 'Ana Souza');
    assert.equal(lastAudit(t, 'participant.exported', op).details.enrollment_id, doc.enrollment.id);
    const missing = await op.post(campaignPath(campaignId, '/participants/find'), { mode: 'test', document: cpf(0) });
    assert.equal(missing.status, 404, 'the test mode has no such participant');
  });

  test('anonymize needs the document typed again: a wrong confirmation is 422 and changes nothing; the right one anonymizes (audited)', async () => {
    const { t, campaignId, op } = await withParticipant();
    for (const confirm of ['', 'yes', cpf(1), 'anonymize']) {
      const res = await op.post(campaignPath(campaignId, '/participants/anonymize'), { mode: 'live', document: cpf(0), confirm });
      assert.equal(res.status, 422, `confirm "${confirm}"`);
      assert.match(textOf(res.text), /confirmation does not match/);
    }
    assert.equal(findEnrollmentByDocument(t.ctx.db, campaignId, 1, cpf(0))?.full_name, 'Ana Souza');
    assert.equal(audits(t, 'participant.anonymized').length, 0);

    const res = await op.post(campaignPath(campaignId, '/participants/anonymize'), {
      mode: 'live',
      document: cpf(0),
      confirm: '529.982.247-25',
      reason: 'ticket 42',
    });
    assert.equal(res.status, 303, res.text);
    assert.equal(findEnrollmentByDocument(t.ctx.db, campaignId, 1, cpf(0)), undefined, 'no longer findable by document');
    const record = lastAudit(t, 'participant.anonymized', op);
    assert.equal(record.details.reason, 'ticket 42');
    const page = await op.get(res.location!.replace(/^\/dashboard/, ''));
    assert.match(textOf(page.text), new RegExp(`Participant ${record.details.enrollment_id} anonymized`));
    assert.doesNotMatch(textOf(page.text), /Older copies/, 'no reader: erased at once, nothing more to say');
  });

  test('anonymize while another connection holds a snapshot: the notice says the erasure waits, intake goes on, the tick finishes it', async () => {
    const { t, campaignId, liveKey, op } = await withParticipant();
    const reader = openDatabase(t.dbPath, { readonly: true, migrate: false });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM enrollments').get();
    const res = await op.post(campaignPath(campaignId, '/participants/anonymize'), { mode: 'live', document: cpf(0), confirm: cpf(0) });
    assert.equal(res.status, 303, res.text);
    assert.match(res.location!, /[?&]erasure=waiting_for_readers(&|$)/);
    const page = await op.get(res.location!.replace(/^\/dashboard/, ''));
    assert.match(textOf(page.text), /Older copies of the changed pages stay in the database files while a reader holds a snapshot/);
    // The server's event loop was not held: an entry is answered while the erasure still waits.
    await submitEntry(t, liveKey, entryBody({ enrollment: { full_name: 'Bia Lima' } }, 1), 'lgpd-2');
    assert.equal((await t.request('GET', '/healthz')).body.erasures.pending, 1);
    assert.equal(audits(t, 'participant.erasure_completed').length, 0);
    reader.exec('COMMIT');
    reader.close();
    // Each tick tries once; on a socket the checkpoint thread runs too, and a try that meets one of
    // its passes is answered busy: the next tick tries again.
    for (let i = 0; i < 50 && audits(t, 'participant.erasure_completed').length === 0; i++) await t.tick();
    assert.equal(audits(t, 'participant.erasure_completed').length, 1);
    assert.equal((await t.request('GET', '/healthz')).body.erasures.pending, 0);
    // A query that names another state shows nothing more: the words are the page's own.
    const spoofed = await op.get(
      `${campaignPath(campaignId, '/participants')}?anonymized=${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}&erasure=hacked`,
    );
    assert.doesNotMatch(textOf(spoofed.text), /Older copies|hacked/);
  });
});

describe('exports', () => {
  test('CSV and JSON Lines download as attachments with the CLI export’s formula escaping; audited entries.exported', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    seedEntries(t.ctx, { campaignId: w.campaign.id, count: 3, name: (i) => (i === 1 ? '=HYPERLINK("http://evil.example")' : `P ${i}`) });
    const op = await signIn(t);
    const csv = await op.post(campaignPath(w.campaign.id, '/exports'), { format: 'csv', mode: 'live', status: 'any', confirmed: 'yes' });
    assert.equal(csv.status, 200);
    assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.match(csv.headers.get('content-disposition') ?? '', /^attachment; filename="entries-[0-9a-f-]{36}-live\.csv"$/);
    const lines = csv.text.trimEnd().split('\r\n');
    assert.equal(lines.length, 4, 'the header and 3 rows');
    assert.ok(lines[0].startsWith('entry_id,livemode,status'));
    assert.ok(csv.text.includes(`"'=HYPERLINK(""http://evil.example"")"`), 'the formula is escaped');
    const record = lastAudit(t, 'entries.exported', op);
    assert.deepEqual(record.details, { format: 'csv', mode: 'live', status: null, rows: 3 });

    const jsonl = await op.post(campaignPath(w.campaign.id, '/exports'), {
      format: 'jsonl',
      mode: 'both',
      status: 'APPROVED',
      confirmed: 'yes',
    });
    assert.equal(jsonl.status, 200);
    const rows = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(rows.length, 3);
    assert.equal(rows[1].full_name, '=HYPERLINK("http://evil.example")', 'JSON Lines keeps values as stored');
    assert.equal((await op.post(campaignPath(w.campaign.id, '/exports'), { format: 'xlsx', mode: 'live', status: 'any' })).status, 422);
  });

  test('a download that the browser reads slowly holds up neither intake nor the tick (it reads on a connection of its own)', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    seedEntries(t.ctx, { campaignId: w.campaign.id, count: 20_000, from: 100 });
    const op = await signIn(t);
    const form = new URLSearchParams({ csrf: op.csrf, format: 'jsonl', mode: 'live', status: 'any', confirmed: 'yes' });
    const res = await fetch(`${t.url}/dashboard/campaigns/${w.campaign.id}/exports`, {
      method: 'POST',
      headers: { cookie: op.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.length > 0, 'the export has started');
    // The export waits for this reader (megabytes unread); meanwhile the server takes entries.
    const accepted = await submitEntry(t, w.liveKey, entryBody({}, 5), 'during-export');
    assert.equal(accepted.status, 'PENDING');
    await drainAll(t);
    let bytes = first.value!.length;
    let text = '';
    const decoder = new TextDecoder();
    text += decoder.decode(first.value, { stream: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      text += decoder.decode(value, { stream: true });
    }
    assert.ok(bytes > 1_000_000);
    assert.equal(text.trimEnd().split('\n').length, 20_000, 'the snapshot taken when the download began');
  });
  test('a download the browser abandons ends the export and its read (the WAL can be checkpointed again)', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    seedEntries(t.ctx, { campaignId: w.campaign.id, count: 20_000, from: 100 });
    const op = await signIn(t);
    // A read in progress pins its snapshot: WAL frames written after it cannot be copied back
    // to the database file until it ends.
    const checkpoint = (): { log: number; checkpointed: number } =>
      (t.ctx.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>)[0];
    const abort = new AbortController();
    const res = await fetch(`${t.url}/dashboard/campaigns/${w.campaign.id}/exports`, {
      method: 'POST',
      headers: { cookie: op.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: op.csrf, format: 'csv', mode: 'live', status: 'any', confirmed: 'yes' }).toString(),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    await submitEntry(t, w.liveKey, entryBody({}, 3), 'while-exporting');
    const pinned = checkpoint();
    assert.ok(pinned.checkpointed < pinned.log, `the export's read holds the WAL: ${JSON.stringify(pinned)}`);
    abort.abort();
    await reader.read().catch(() => undefined);
    const deadline = Date.now() + 5_000;
    let state = checkpoint();
    while (state.checkpointed < state.log && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      state = checkpoint();
    }
    assert.equal(state.checkpointed, state.log, 'the read ended once the client went away');
  });
});

describe('campaign create and settings', () => {
  test('create with the CLI’s rules: a valid form creates the campaign (303 to it, audited); an invalid one is 422 with the domain’s messages', async () => {
    const t = await server();
    const op = await signIn(t);
    const form = {
      name: 'Natal 2026',
      starts_at: '2026-12-01T00:00:00-03:00',
      ends_at: '2026-12-31T23:59:59-03:00',
      require: ['full_name', 'email'],
      api_enabled: 'on',
      instant_prize: 'WINDOW',
      lucky_numbers: 'auto',
      lucky_quantity: '2',
      series_count: '3',
      max_entries_per_participant: '',
      max_entries_per_day: '10',
      fiscal_verifier_url: '',
      webhook_api: 'live',
    };
    const blank = await op.get('/campaigns/new');
    assert.equal(blank.status, 200, 'not taken for a campaign id');
    assert.match(textOf(blank.text), /New campaign .* Create campaign/);
    const res = await op.post('/campaigns/new', form);
    assert.equal(res.status, 303, res.text);
    const id = /\/dashboard\/campaigns\/([0-9a-f-]{36})$/.exec(res.location ?? '')?.[1];
    assert.ok(id);
    const c = getCampaign(t.ctx, id);
    assert.deepEqual(
      [c.name, c.starts_at, c.required_fields, c.allow_companies, c.instant_prize, c.lucky_quantity, c.max_entries_per_day, c.webhook_api],
      ['Natal 2026', '2026-12-01T03:00:00.000Z', ['full_name', 'email'], false, 'WINDOW', 2, 10, 'live'],
    );
    assert.equal(lastAudit(t, 'campaign.created', op).campaign_id, id);

    const before = audits(t, 'campaign.created').length;
    const bad = await op.post('/campaigns/new', { ...form, name: 'Bad', ends_at: '2026-11-01T00:00:00-03:00', lucky_quantity: 'two' });
    assert.equal(bad.status, 422);
    assert.match(textOf(bad.text), /ends_at must be after starts_at/);
    assert.match(textOf(bad.text), /lucky_quantity must be an integer from 1 to 1000, got "two"/);
    assert.match(bad.text, /aria-invalid="true" aria-describedby="lucky_quantity-error"/);
    assert.match(bad.text, /value="Bad"/);
    assert.equal(audits(t, 'campaign.created').length, before, 'nothing created');
  });

  test('settings change only what differs (audited campaign.updated with the changes); a verifier URL’s password is never shown and survives a save', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { fiscalVerifierUrl: 'https://user:s3cr3t@verifier.example/check', require: 'email' });
    const op = await signIn(t);
    const page = await op.get(campaignPath(w.campaign.id, '/settings'));
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes('s3cr3t'), 'the password is masked');
    const values = inputValues(page.text);
    assert.equal(values.fiscal_verifier_url, 'https://user:***@verifier.example/check');
    const res = await op.post(campaignPath(w.campaign.id, '/settings'), {
      ...values,
      name: 'Renamed',
      require: ['email', 'phone'],
      api_enabled: 'on',
      instant_prize: 'none',
      lucky_numbers: 'none',
      webhook_api: 'any',
    });
    assert.equal(res.status, 303, res.text);
    const c = getCampaign(t.ctx, w.campaign.id);
    assert.deepEqual(
      [c.name, c.required_fields, c.fiscal_verifier_url],
      ['Renamed', ['email', 'phone'], 'https://user:s3cr3t@verifier.example/check'],
    );
    assert.deepEqual(lastAudit(t, 'campaign.updated', op).details.changed, { name: 'Renamed', required_fields: ['email', 'phone'] });
    assert.match(textOf((await op.get(res.location!.replace(/^\/dashboard/, ''))).text), /Settings saved/);
  });
});

describe('audit log', () => {
  test('newest first, filtered by campaign and action, paged 50 at a time with an Older link', async () => {
    const t = await server();
    const a = makeCampaign(t.ctx);
    const b = makeCampaign(t.ctx);
    for (let i = 0; i < 60; i++) issueKey(t.ctx, { campaignId: a.campaign.id, mode: 'test', label: `k${i}` }, OPERATOR);
    const op = await signIn(t);
    const first = await op.get(`/audit?campaign=${a.campaign.id}&action=key.issued`);
    assert.equal(first.status, 200);
    const ids = (text: string): number[] =>
      tableRows(text)
        .filter((row) => /^\d+$/.test(row[0]))
        .map((row) => Number(row[0]));
    const page1 = ids(first.text);
    assert.equal(page1.length, 50);
    assert.deepEqual(
      page1,
      [...page1].sort((x, y) => y - x),
      'newest first',
    );
    const older = /href="\/dashboard\/audit\?([^"]+)" rel="next"/.exec(first.text)?.[1].replaceAll('&amp;', '&');
    assert.ok(older);
    const second = await op.get(`/audit?${older}`);
    const page2 = ids(second.text);
    // 60 issued in the loop plus the campaign's two keys from makeCampaign.
    assert.equal(page1.length + page2.length, 62);
    assert.ok(Math.max(...page2) < Math.min(...page1));
    assert.ok(!/rel="next"/.test(second.text));
    const onlyB = await op.get(`/audit?campaign=${b.campaign.id}`);
    assert.equal(ids(onlyB.text).length, 3, 'b: campaign.created and two keys');
    assert.equal((await op.get('/audit?action=nonsense')).status, 422);
    assert.equal((await op.get('/audit?before=abc')).status, 400);
  });
});

describe('every change needs the session’s CSRF token', () => {
  test('each operations POST without the token, or with another’s, is 403 and changes nothing', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { instantPrize: 'WINDOW' });
    const prize = makePrize(t.ctx, w.campaign.id, 'live');
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: 'https://127.0.0.1:9/hooks' }, OPERATOR);
    await submitEntry(t, w.liveKey, entryBody(), 'csrf-1');
    const op = await signIn(t);
    const other = await signIn(t, 'joao');
    const id = w.campaign.id;
    const posts: Array<[string, Record<string, string>]> = [
      [`/campaigns/${id}/keys`, { mode: 'live' }],
      // Confirmed: the second POST of the confirmation page needs the token as much as the first.
      [`/campaigns/${id}/keys/${w.liveKeyId}/rotate`, { grace: '0', confirmed: 'yes' }],
      [`/campaigns/${id}/keys/${w.liveKeyId}/revoke`, { confirmed: 'yes' }],
      [`/campaigns/${id}/webhook/url`, { url: 'https://hooks.example.com/x' }],
      [`/campaigns/${id}/webhook/active`, { active: 'off', confirmed: 'yes' }],
      [`/campaigns/${id}/webhook/rotate-secret`, { grace: '0', confirmed: 'yes' }],
      [`/campaigns/${id}/webhook/api-lock`, { webhook_api: 'none' }],
      [`/campaigns/${id}/webhook/ping`, { mode: 'test' }],
      [`/campaigns/${id}/webhook/redeliver-failed`, { confirmed: 'yes' }],
      [`/campaigns/${id}/prizes`, { mode: 'live', name: 'X', type: 'x', unit_value: '1', stock: '1' }],
      [`/campaigns/${id}/prizes/windows`, { mode: 'live', prize: prize.id, opens_at: '2026-12-01T10:00:00Z' }],
      [`/campaigns/${id}/participants/find`, { mode: 'live', document: cpf(0) }],
      [`/campaigns/${id}/participants/export`, { mode: 'live', document: cpf(0) }],
      [`/campaigns/${id}/participants/anonymize`, { mode: 'live', document: cpf(0), confirm: cpf(0) }],
      [`/campaigns/${id}/exports`, { format: 'csv', mode: 'live', status: 'any', confirmed: 'yes' }],
      [
        '/campaigns/new',
        { name: 'Sneaky', lucky_quantity: '1', series_count: '1', instant_prize: 'none', lucky_numbers: 'none', webhook_api: 'any' },
      ],
      [`/campaigns/${id}/settings`, { name: 'Sneaky' }],
    ];
    const auditCount = (): number => listAuditRecords(t.ctx, { limit: 100_000 }).length;
    const before = auditCount();
    for (const [path, fields] of posts) {
      for (const csrf of [null, '', other.csrf]) {
        const res = await op.post(path, fields, { csrf });
        assert.equal(res.status, 403, `${path} with csrf ${JSON.stringify(csrf)}`);
      }
    }
    assert.equal(auditCount(), before, 'no change recorded');
    assert.equal(getCampaign(t.ctx, id).name, 'Test campaign');
    assert.equal(findOperatorWebhookConfig(t.ctx, id)?.is_active, true);
    assert.equal((await t.request('GET', '/v1/prizes', { key: w.liveKey })).status, 200);
    assert.ok(findEnrollmentByDocument(t.ctx.db, id, 1, cpf(0)));
  });
});

/** The text inputs of a page's forms, by name, as their value attributes hold them (entities decoded). */
function inputValues(page: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [input] of page.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]*)"/.exec(input)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input)?.[1];
    if (name && value !== undefined && !/type="(hidden|checkbox)"/.test(input)) out[name] = textOf(value);
  }
  return out;
}
