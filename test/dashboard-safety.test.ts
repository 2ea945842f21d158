// Operator safety in the dashboard (issue 32, items 9 and 10), through a real server on a real
// SQLite file: confirmation before the actions that cannot be taken back, bounds on what operators
// type, participant look-ups in the audit log, a cap on concurrent exports per session, days that
// do not exist refused, and sign-in links pruned once past their retention.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createSignInLink } from '../src/dashboard/sessions.ts';
import { LINK_RETENTION_DAYS } from '../src/dashboard/link-retention.ts';
import { listAuditRecords } from '../src/audit/audit.ts';
import { listCampaigns } from '../src/campaigns/campaigns.ts';
import { listKeys } from '../src/keys/keys.ts';
import { listOperatorPrizes } from '../src/mechanics/prizes.ts';
import { MAX_NAME_LENGTH, MAX_NOTE_LENGTH } from '../src/input/operator-text.ts';
import { createDraw } from '../src/draws/lifecycle.ts';
import { listDeliveryViews } from '../src/webhooks/deliveries.ts';
import { findOperatorWebhookConfig, setWebhookConfig } from '../src/webhooks/webhook-config.ts';
import {
  cpf,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  OPERATOR,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
} from './support/harness.ts';
import { dashboardRequest, signIn, textOf } from './support/dashboard.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const t = await startTestServer(options);
  cleanups.push(() => t.close());
  return t;
}

const DAY_MS = 24 * 3600 * 1000;

describe('the entries filter by day', () => {
  test('a day that is not on the calendar (2026-02-30) is refused with why, not read as 2 March', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}/entries`;
    for (const [query, message] of [
      ['from=2026-02-30', 'from 2026-02-30 is not a day on the calendar'],
      ['to=2026-04-31', 'to 2026-04-31 is not a day on the calendar'],
      ['from=2025-02-29', 'from 2025-02-29 is not a day on the calendar'],
      ['to=2026-13-01', 'to 2026-13-01 is not a day on the calendar'],
    ]) {
      const res = await maria.get(`${base}?${query}`);
      assert.equal(res.status, 400, query);
      assert.ok(res.text.includes(message), `${query}: ${res.text}`);
    }
    assert.equal((await maria.get(`${base}?from=2028-02-29&to=2026-03-02`)).status, 200, 'a leap day is a day');
  });
});

describe('sign-in links', () => {
  test(`the tick deletes a link ${LINK_RETENTION_DAYS} days past its expiry, used or not; a younger one stays and still says why it cannot sign in`, async () => {
    const t = await server();
    const count = (): number => t.ctx.db.prepare('SELECT count(*) FROM dashboard_links').pluck().get() as number;
    await signIn(t); // a link used
    createSignInLink(t.ctx, { name: 'ana', ttlMinutes: 15 }, OPERATOR); // one never opened
    t.clock.advance(LINK_RETENTION_DAYS * DAY_MS - 60_000);
    const young = createSignInLink(t.ctx, { name: 'bia', ttlMinutes: 15 }, OPERATOR);
    await t.tick();
    assert.equal(count(), 3, 'nothing is past its retention yet');

    t.clock.advance(15 * 60_000 + 120_000);
    await t.tick();
    assert.equal(count(), 1, 'the two older links are gone');
    const expired = await t.fetch(`/dashboard/signin/${young.token}`, { redirect: 'manual' });
    assert.equal(expired.status, 410, 'the young one, expired, still says so');

    t.clock.advance(LINK_RETENTION_DAYS * DAY_MS);
    await t.tick();
    assert.equal(count(), 0);
  });

  test('behind a proxy that rewrites Host, a sign-in from the public URL’s own page is taken; another origin is refused', async () => {
    const t = await server({ env: { CES_PUBLIC_URL: 'https://promo.example.com.br' } });
    // What a browser on the public URL sends through a proxy that passes the upstream's address as Host.
    const press = async (origin: string, host = '127.0.0.1:3000') => {
      const link = createSignInLink(t.ctx, { name: 'ana', ttlMinutes: 15 }, OPERATOR);
      return dashboardRequest(t, 'POST', `/dashboard/signin/${link.token}`, { headers: { origin, host } });
    };
    assert.equal((await press('https://promo.example.com.br')).status, 200, 'the public URL is this site');
    assert.equal((await press('https://promo.example.com.br:443')).status, 200, 'its default port is the same origin');
    assert.equal((await press('http://127.0.0.1:3000')).status, 200, 'as is the Host the request names');
    for (const origin of ['https://evil.example', 'http://promo.example.com.br', 'https://promo.example.com.br.evil.example', 'null'])
      assert.equal((await press(origin)).status, 403, origin);
    const noHost = createSignInLink(t.ctx, { name: 'ana', ttlMinutes: 15 }, OPERATOR);
    const opaque = await dashboardRequest(t, 'POST', `/dashboard/signin/${noHost.token}`, { headers: { origin: 'null' } });
    assert.equal(opaque.status, 403, 'an opaque origin is no site, even where no Host came');
  });
});

describe('what operators type is bounded and one printable line', () => {
  const LONG_NAME = 'x'.repeat(MAX_NAME_LENGTH + 1);
  const HUGE = 'x'.repeat(60_000);
  const BAD_TEXTS: Array<[string, string]> = [
    ['Natal\r\nSet-Cookie: x', 'a line break'],
    ['Natal\u202eevil', 'a bidi control'],
    ['Natal\u001b[2J', 'an ESC sequence'],
    ['Natal\tdois', 'a tab'],
  ];

  test('dashboard: a campaign name, a key label and a prize name too long or not one printable line are 422 saying why; nothing is written', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const maria = await signIn(t);
    const campaigns = listCampaigns(t.ctx).length;
    const form = { name: '', instant_prize: 'none', lucky_numbers: 'none', lucky_quantity: '1', series_count: '1', webhook_api: 'any' };
    for (const [name, why] of [
      [LONG_NAME, `name may have at most ${MAX_NAME_LENGTH} characters, got ${MAX_NAME_LENGTH + 1}`],
      ...BAD_TEXTS.map(([text]) => [text, 'name must be one line of printable text']),
    ]) {
      const res = await maria.post('/dashboard/campaigns/new', { ...form, name });
      assert.equal(res.status, 422, JSON.stringify(name));
      assert.ok(textOf(res.text).includes(why), textOf(res.text));
    }
    const renamed = await maria.post(`/dashboard/campaigns/${w.campaign.id}/settings`, { ...form, name: 'Natal\nPáscoa' });
    assert.equal(renamed.status, 422);
    assert.equal(listCampaigns(t.ctx).length, campaigns, 'no campaign created');
    assert.equal(listCampaigns(t.ctx).find((c) => c.id === w.campaign.id)?.name, 'Test campaign', 'nor renamed');

    const keys = listKeys(t.ctx, w.campaign.id).length;
    for (const label of [HUGE, ...BAD_TEXTS.map(([text]) => text)]) {
      const res = await maria.post(`/dashboard/campaigns/${w.campaign.id}/keys`, { mode: 'test', label });
      assert.equal(res.status, 422, JSON.stringify(label.slice(0, 20)));
      // The page names the field, never the CLI's flag.
      assert.match(textOf(res.text), /\blabel (may have at most 200 characters, got 60000|must be one line of printable text)/);
      assert.doesNotMatch(textOf(res.text), /--label|`label`/);
    }
    assert.equal(listKeys(t.ctx, w.campaign.id).length, keys, 'no key issued');

    for (const [field, value] of [
      ['name', LONG_NAME],
      ['name', 'Vale\r\ncompras'],
      ['type', 'voucher\u2066'],
    ]) {
      const res = await maria.post(`/dashboard/campaigns/${w.campaign.id}/prizes`, {
        mode: 'live',
        name: 'Vale',
        type: 'voucher',
        unit_value: '50',
        stock: '1',
        [field]: value,
      });
      assert.equal(res.status, 422, `${field} ${JSON.stringify(value.slice(0, 20))}`);
    }
    assert.deepEqual(listOperatorPrizes(t.ctx, w.campaign.id, 'live'), [], 'no prize added');
  });

  test('dashboard: an anonymization reason too long or with a line break is refused and the participant stays', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await submitEntry(t, w.liveKey, entryBody({}, 5), 'p-5');
    const maria = await signIn(t);
    for (const reason of ['x'.repeat(MAX_NOTE_LENGTH + 1), 'LGPD-7\r\nforged']) {
      const res = await maria.post(`/dashboard/campaigns/${w.campaign.id}/participants/anonymize`, {
        mode: 'live',
        document: cpf(5),
        confirm: cpf(5),
        reason,
      });
      assert.equal(res.status, 422);
    }
    const found = await maria.post(`/dashboard/campaigns/${w.campaign.id}/participants/find`, { mode: 'live', document: cpf(5) });
    assert.equal(found.status, 200, 'still there');
  });

  test('CLI: the same bounds, one line on stderr and exit 1', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
    const prize = makePrize(t.ctx, w.campaign.id, 'live', 1);
    const { entry_id } = await submitEntry(
      t,
      w.liveKey,
      entryBody({ instant_win: { won: true, prize_definition_id: prize.id } }, 6),
      'won',
    );
    await drainAll(t);
    const cases: Array<[string[], RegExp]> = [
      [['campaign', 'create', '--name', LONG_NAME], /^ces: name may have at most 200 characters, got 201$/m],
      [['campaign', 'create', '--name', 'Natal\nPáscoa'], /^ces: name must be one line of printable text/m],
      [['campaign', 'update', w.campaign.id, '--name', 'Natal\u202e'], /^ces: name must be one line of printable text/m],
      [
        ['campaign', 'update', w.campaign.id, '--fiscal-verifier-url', 'https://verifier.example/\nx'],
        /^ces: --fiscal-verifier-url must be one line/m,
      ],
      [
        ['key', 'issue', '--campaign', w.campaign.id, '--mode', 'test', '--label', HUGE],
        /^ces: --label may have at most 200 characters, got 60000$/m,
      ],
      [
        [
          'prize',
          'add',
          '--campaign',
          w.campaign.id,
          '--mode',
          'live',
          '--name',
          'Vale\r\ncompras',
          '--type',
          'v',
          '--unit-value',
          '1',
          '--stock',
          '1',
        ],
        /^ces: --name must be one line/m,
      ],
      [['award', 'revoke', entry_id, '--reason', 'fraude\u001b[2J'], /^ces: --reason must be one line of printable text/m],
      [['award', 'revoke', entry_id, '--reason', 'x'.repeat(1001)], /^ces: --reason may have at most 1000 characters, got 1001$/m],
      [
        ['participant', 'anonymize', '--campaign', w.campaign.id, '--document', cpf(6), '--reason', 'LGPD\n7'],
        /^ces: --reason must be one line/m,
      ],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(args, { dbPath: t.dbPath });
      assert.equal(res.code, 1, args.join(' ').slice(0, 80));
      assert.match(res.stderr, message);
      const json = await runCli([...args, '--json'], { dbPath: t.dbPath });
      assert.equal(
        json.json.error.code,
        /campaign/.test(args[0]) ? 'invalid_campaign_options' : args[0] === 'prize' ? 'invalid_prize' : 'invalid_option',
      );
    }
    assert.equal(listCampaigns(t.ctx).length, 1, 'nothing created');
    assert.equal(listKeys(t.ctx, w.campaign.id).length, 2);
  });
});

describe('participant look-ups are audited', () => {
  test('finding a participant by CPF/CNPJ, or searching entries by CPF/CNPJ or e-mail, is recorded with what it found, never what was typed', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await submitEntry(t, w.liveKey, entryBody({ enrollment: { email: 'rosa.lima@example.com' } }, 8), 'rosa');
    const enrollmentId = t.ctx.db.prepare('SELECT id FROM enrollments WHERE document_number = ?').pluck().get(cpf(8)) as string;
    const maria = await signIn(t);
    const participants = `/dashboard/campaigns/${w.campaign.id}/participants`;
    const entries = `/dashboard/campaigns/${w.campaign.id}/entries`;
    assert.equal((await maria.post(`${participants}/find`, { mode: 'live', document: cpf(8) })).status, 200);
    assert.equal((await maria.post(`${participants}/find`, { mode: 'test', document: cpf(9) })).status, 404);
    assert.equal((await maria.post(`${participants}/find`, { mode: 'live', document: '123' })).status, 422, 'no CPF: nothing looked up');
    assert.equal((await maria.post(`${entries}/search`, { mode: 'live', q: cpf(8) })).status, 200);
    assert.equal((await maria.post(`${entries}/search`, { mode: 'live', q: 'ROSA.LIMA@example.com' })).status, 200);
    assert.equal((await maria.post(`${entries}/search`, { mode: 'test', q: 'ninguem@example.com' })).status, 200);
    assert.equal((await maria.get(entries)).status, 200, 'a listing without a search looks no one up');
    const nextPage = { mode: 'live', q: cpf(8), before: '2026-11-22T12:00:00.000Z|00000000-0000-4000-8000-000000000000' };
    assert.equal((await maria.post(`${entries}/search`, nextPage)).status, 200, 'the next page of a search is the same look-up');

    const records = listAuditRecords(t.ctx, { action: 'participant.looked_up', limit: 10 }).reverse();
    assert.deepEqual(
      records.map((r) => [r.actor, r.campaign_id, r.details]),
      [
        ['dashboard:maria', w.campaign.id, { by: 'document', mode: 'live', found: true, enrollment_id: enrollmentId, via: 'participants' }],
        ['dashboard:maria', w.campaign.id, { by: 'document', mode: 'test', found: false, enrollment_id: null, via: 'participants' }],
        ['dashboard:maria', w.campaign.id, { by: 'document', mode: 'live', found: true, enrollment_id: enrollmentId, via: 'entries' }],
        ['dashboard:maria', w.campaign.id, { by: 'email', mode: 'live', found: true, enrollment_id: enrollmentId, via: 'entries' }],
        ['dashboard:maria', w.campaign.id, { by: 'email', mode: 'test', found: false, enrollment_id: null, via: 'entries' }],
      ],
    );
    const all = JSON.stringify(records);
    for (const typed of [cpf(8), cpf(9), 'rosa.lima', 'ninguem']) assert.ok(!all.toLowerCase().includes(typed), typed);
  });

  test('an export or anonymization at the CLI that finds no one is recorded as a look-up that found no one; one that finds them is recorded as what it did', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await submitEntry(t, w.liveKey, entryBody({}, 10), 'found');
    for (const action of ['export', 'anonymize']) {
      const res = await runCli(['participant', action, '--campaign', w.campaign.id, '--document', cpf(11)], { dbPath: t.dbPath });
      assert.equal(res.code, 1);
    }
    assert.equal(
      (await runCli(['participant', 'export', '--campaign', w.campaign.id, '--document', cpf(10)], { dbPath: t.dbPath })).code,
      0,
    );
    const looked = listAuditRecords(t.ctx, { action: 'participant.looked_up', limit: 10 }).reverse();
    assert.deepEqual(
      looked.map((r) => [r.actor.startsWith('cli:'), r.details.via, r.details.found]),
      [
        [true, 'export', false],
        [true, 'anonymize', false],
      ],
    );
    assert.equal(listAuditRecords(t.ctx, { action: 'participant.exported', limit: 10 }).length, 1);
  });
});

describe('confirmation before what cannot be taken back (works without JavaScript)', () => {
  /** The confirmation page's form: its action and its fields (hidden inputs), as the browser would post them. */
  function confirmationForm(page: string): { action: string; fields: Record<string, string> } {
    const form = /<form class="filters" method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page);
    assert.ok(form, 'the page has the confirmation form');
    const fields: Record<string, string> = {};
    for (const [, name, value] of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[name] = textOf(value);
    return { action: textOf(form[1]), fields };
  }

  test('revoking a key, rotating one or the secret without grace, pausing delivery, redelivering every failed delivery: the first POST changes nothing, the confirmation acts', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: 'https://127.0.0.1:9/hooks' }, OPERATOR);
    await submitEntry(t, w.liveKey, entryBody({}, 12), 'fails');
    await drainAll(t); // the endpoint refuses: every event fails, its retries exhausted
    const failed = (): number => listDeliveryViews(t.ctx, w.campaign.id, 'failed', 100).length;
    assert.equal(failed(), 3);
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}`;
    const audits = (): number => listAuditRecords(t.ctx, { limit: 1000 }).length;
    const keyState = (id: string): string | null => listKeys(t.ctx, w.campaign.id).find((k) => k.id === id)!.revoked_at;
    const secret = (): string => t.ctx.db.prepare('SELECT secret FROM webhook_configs').pluck().get() as string;
    const cases: Array<{ path: string; form: Record<string, string>; question: RegExp; unchanged: () => unknown; button: string }> = [
      {
        path: `/keys/${w.testKeyId}/revoke`,
        form: {},
        question: /Revoke key \S+…\?/,
        unchanged: () => keyState(w.testKeyId),
        button: 'Revoke the key',
      },
      {
        path: `/keys/${w.liveKeyId}/rotate`,
        form: { grace: '0' },
        question: /Rotate key \S+… without a grace period\?/,
        unchanged: () => keyState(w.liveKeyId),
        button: 'Rotate now, no grace',
      },
      {
        path: '/webhook/rotate-secret',
        form: { grace: '0' },
        question: /Rotate the signing secret without a grace period\?/,
        unchanged: secret,
        button: 'Rotate now, no grace',
      },
      {
        path: '/webhook/redeliver-failed',
        form: {},
        question: /Redeliver all 3 failed deliveries\?/,
        unchanged: failed,
        button: 'Redeliver all failed',
      },
      {
        path: '/webhook/active',
        form: { active: 'off' },
        question: /Pause webhook delivery\?/,
        unchanged: () => findOperatorWebhookConfig(t.ctx, w.campaign.id)?.is_active,
        button: 'Pause delivery',
      },
    ];
    for (const c of cases) {
      const before = [c.unchanged(), audits()];
      const asked = await maria.post(`${base}${c.path}`, c.form);
      assert.equal(asked.status, 200, c.path);
      assert.match(textOf(asked.text), c.question);
      assert.ok(asked.text.includes(`<button type="submit" class="danger">${c.button}</button>`), c.path);
      assert.ok(asked.text.includes(`<a href="${base}/`), 'and a way back');
      assert.deepEqual([c.unchanged(), audits()], before, `${c.path}: the first POST changes nothing`);
      const { action, fields } = confirmationForm(asked.text);
      assert.equal(action, `${base}${c.path}`);
      assert.deepEqual(fields, { csrf: maria.csrf, ...c.form, confirmed: 'yes' }, 'the form is carried as typed');
      const done = await maria.post(action, fields);
      assert.ok([200, 303].includes(done.status), `${c.path}: ${done.status}`);
      assert.notDeepEqual(c.unchanged(), before[0], `${c.path}: the confirmation acts`);
    }
    // With a grace period a rotation stops nothing at once: no question asked.
    const graced = await maria.post(`${base}/webhook/rotate-secret`, { grace: '600' });
    assert.equal(graced.status, 200);
    assert.match(textOf(graced.text), /Signing secret rotated/);
    // Resuming needs no confirmation either.
    assert.equal((await maria.post(`${base}/webhook/active`, { active: 'on' })).status, 303);
  });

  test('a rotation without grace asks however the zero is written (0.0, -0, 00, 0 with spaces); nothing changes until confirmed', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: 'https://127.0.0.1:9/hooks' }, OPERATOR);
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}`;
    const keyState = (): string | null => listKeys(t.ctx, w.campaign.id).find((k) => k.id === w.liveKeyId)!.revoked_at;
    const secret = (): string => t.ctx.db.prepare('SELECT secret FROM webhook_configs').pluck().get() as string;
    for (const grace of ['0.0', '-0', '00', ' 0 ', '-0.00', '0.000']) {
      const before = [keyState(), secret()];
      const key = await maria.post(`${base}/keys/${w.liveKeyId}/rotate`, { grace });
      assert.equal(key.status, 200, grace);
      assert.match(textOf(key.text), /Rotate key \S+… without a grace period\?/, `key, grace "${grace}"`);
      const hook = await maria.post(`${base}/webhook/rotate-secret`, { grace });
      assert.equal(hook.status, 200, grace);
      assert.match(textOf(hook.text), /Rotate the signing secret without a grace period\?/, `secret, grace "${grace}"`);
      assert.deepEqual([keyState(), secret()], before, `grace "${grace}": nothing changed`);
    }
  });

  test('downloading every participant’s data asks first; at most 2 downloads per session run at once, a third is 429 until one ends', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await submitEntry(t, w.liveKey, entryBody({}, 13), 'export-me');
    const maria = await signIn(t);
    const path = `/dashboard/campaigns/${w.campaign.id}/exports`;
    const form = { format: 'csv', mode: 'live', status: 'any' };
    const exported = (): number => listAuditRecords(t.ctx, { action: 'entries.exported', limit: 100 }).length;
    const asked = await maria.post(path, form);
    assert.equal(asked.status, 200);
    assert.equal(asked.headers.get('content-disposition'), null, 'no file yet');
    assert.match(textOf(asked.text), /Download the personal data of every participant of Test campaign\?/);
    assert.equal(exported(), 0, 'nothing recorded, nothing sent');

    // Two downloads the browser has not finished reading hold the session's two places.
    const post = (cookie: string, csrf: string): Promise<Response> =>
      t.fetch(path, {
        method: 'POST',
        headers: { cookie: `ces_session=${cookie}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, ...form, confirmed: 'yes' }).toString(),
      });
    const first = await post(maria.cookie, maria.csrf);
    const second = await post(maria.cookie, maria.csrf);
    assert.deepEqual([first.status, second.status], [200, 200]);
    const third = await post(maria.cookie, maria.csrf);
    assert.equal(third.status, 429);
    assert.match(textOf(await third.text()), /2 exports of this session are still downloading/);
    assert.equal(exported(), 2, 'the refused one is not recorded');
    const joao = await signIn(t, 'joao');
    const other = await post(joao.cookie, joao.csrf);
    assert.equal(other.status, 200, 'another session has places of its own');
    await other.body!.cancel();

    assert.match(await first.text(), /^entry_id,/, 'read to the end: its place is free again');
    const fourth = await post(maria.cookie, maria.csrf);
    assert.equal(fourth.status, 200);
    await second.body!.cancel(); // a download stopped frees its place too
    const fifth = await post(maria.cookie, maria.csrf);
    assert.equal(fifth.status, 200);
    await Promise.all([fourth.text(), fifth.text()]);
  });
});

describe("the campaign's identity on the settings page", () => {
  test('the settings form edits what `campaign update` does: a bad CNPJ is 422 by its label, a good one is kept without punctuation', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const maria = await signIn(t);
    const page = await maria.get(`/dashboard/campaigns/${w.campaign.id}/settings`);
    assert.match(page.text, /<label for="f-promoter_document">Promoter&#39;s CNPJ<\/label>/);
    const form = {
      name: 'Test campaign',
      instant_prize: 'none',
      lucky_numbers: 'none',
      lucky_quantity: '1',
      series_count: '1',
      webhook_api: 'any',
      api_enabled: 'on',
      authorization: 'SPA/ME 04.012345/2026',
      promoter: 'Exemplo Comércio Ltda.',
      promoter_address: 'Av. Paulista, 1000, São Paulo/SP',
    };
    const bad = await maria.post(`/dashboard/campaigns/${w.campaign.id}/settings`, { ...form, promoter_document: '11.222.333/0001-82' });
    assert.equal(bad.status, 422);
    assert.match(textOf(bad.text), /promoter_document must be the promoter's CNPJ/);
    assert.doesNotMatch(textOf(bad.text), /--promoter-document/);
    const ok = await maria.post(`/dashboard/campaigns/${w.campaign.id}/settings`, { ...form, promoter_document: '11.222.333/0001-81' });
    assert.equal(ok.status, 303, ok.text);
    const saved = listCampaigns(t.ctx).find((c) => c.id === w.campaign.id)!;
    assert.deepEqual(
      [saved.authorization, saved.promoter, saved.promoter_document, saved.promoter_address],
      ['SPA/ME 04.012345/2026', 'Exemplo Comércio Ltda.', '11222333000181', 'Av. Paulista, 1000, São Paulo/SP'],
    );
    const [record] = listAuditRecords(t.ctx, { action: 'campaign.updated', limit: 1 });
    assert.equal(record?.details.changed && (record.details.changed as Record<string, unknown>).promoter_document, '11222333000181');
  });
});

describe('notices say only what the dashboard wrote (content spoofing)', () => {
  test('?redelivered= names only an event of this entry, as stored; any other text shows no notice', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: 'https://127.0.0.1:9/hooks' }, OPERATOR);
    const entry = await submitEntry(t, w.liveKey, entryBody({}, 21), 'spoof');
    const other = await submitEntry(t, w.liveKey, entryBody({}, 22), 'spoof-other');
    const maria = await signIn(t);
    const [own] = listDeliveryViews(t.ctx, w.campaign.id, undefined, 100).filter((d) => d.entry_id === entry.entry_id);
    const [foreign] = listDeliveryViews(t.ctx, w.campaign.id, undefined, 100).filter((d) => d.entry_id === other.entry_id);
    const page = `/dashboard/entries/${entry.entry_id}`;
    for (const text of ['Your session expired: sign in again at https://evil.example', 'x', foreign.id, own.id.toUpperCase()]) {
      const res = await maria.get(`${page}?redelivered=${encodeURIComponent(text)}`);
      assert.equal(res.status, 200);
      assert.doesNotMatch(textOf(res.text), /queued again|evil\.example/, text);
    }
    const res = await maria.get(`${page}?redelivered=${own.id}`);
    assert.match(textOf(res.text), new RegExp(`Webhook event ${own.id} queued again\\.`));
  });

  test('?anonymized= names only an anonymized participant of this campaign; a draw page’s ?done= only its fixed texts', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { luckyNumbers: 'auto', luckyQuantity: 1, seriesCount: 1 });
    const entry = await submitEntry(t, w.liveKey, entryBody({}, 31), 'anon');
    const maria = await signIn(t);
    const enrollment = t.ctx.db.prepare('SELECT enrollment_id FROM entries WHERE id = ?').pluck().get(entry.entry_id) as string;
    const participants = `/dashboard/campaigns/${w.campaign.id}/participants`;
    for (const id of [enrollment, '01a20320-a200-7805-8eff-a288f573038c']) {
      const res = await maria.get(`${participants}?anonymized=${id}`);
      assert.equal(res.status, 200);
      assert.doesNotMatch(textOf(res.text), /anonymized: personal data replaced/, `${id}: not anonymized, so not said to be`);
    }
    const draw = createDraw(
      t.ctx,
      { campaignId: w.campaign.id, mode: 'live', name: 'Sorteio', cutoff: '2026-11-22T10:00:00-03:00', extractionDate: '2026-11-22' },
      OPERATOR,
    ).id;
    for (const done of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'Draw created']) {
      const res = await maria.get(`/dashboard/draws/${draw}?done=${encodeURIComponent(done)}`);
      assert.equal(res.status, 200, done);
      assert.doesNotMatch(res.text, /role="status"|function|\[native code\]/, done);
    }
    assert.match((await maria.get(`/dashboard/draws/${draw}?done=created`)).text, /role="status">Draw created\./);
  });
});
