// The dashboard in a real browser (issue 25): headless Chromium (@sparticuz/chromium, installed by
// `npm ci`) driven by playwright-core against a real `ces serve` composition (real socket, real
// SQLite file, the background tick on its timer) and the real CLI. The flows an operator runs on
// launch day: sign in with the link `ces dashboard link` prints, watch the numbers move as entries
// arrive (the page refreshes itself), issue a key and use it (202), revoke it (401), rotate the
// webhook secret and verify the next delivery with the new one, redeliver a failed delivery,
// anonymize a participant. It takes the screenshots the docs show, and writes them to
// docs/img/*.png under `npm run screenshots` only (a plain `npm run test:slow` changes no tracked file). If
// Chromium cannot start on this machine the suite is skipped with the reason; it never passes unrun.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAuditRecords } from '../../src/audit/audit.ts';
import { createSignInLink, listSessions } from '../../src/dashboard/sessions.ts';
import { findEnrollmentByDocument } from '../../src/entries/enrollments.repo.ts';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import { setWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { launchBrowser, newContext, screenshot, type Browser, type BrowserContext, type Page } from '../support/browser.ts';
import {
  cpf,
  entryBody,
  makeCampaign,
  makePrize,
  OPERATOR,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

const launched = await launchBrowser();
// `npm run screenshots` exists to write them: there, a browser that cannot start is a failure.
if (launched.skip && process.env.CES_SCREENSHOTS === '1') throw new Error(`no screenshots written: ${launched.skip}`);

describe('the dashboard in Chromium', { skip: launched.skip ?? false }, () => {
  const browser = launched.browser as Browser;
  let t: TestServer;
  let w: World;
  let receiver: Receiver;
  let answer = 200;
  const contexts: BrowserContext[] = [];

  before(async () => {
    // The tick runs on its timer (as in `ces serve`), so deliveries happen by themselves; the
    // clock stays the test's, fixed, so the screenshots are the same from run to run.
    t = await startTestServer({ socket: true, tick: true, env: { CES_TICK_MS: '50' } });
    receiver = await startReceiver({ respond: () => answer });
    w = makeCampaign(t.ctx, { name: 'Natal 2026', require: 'full_name', instantPrize: 'INTEGRATOR_DECLARED', luckyNumbers: 'auto' });
    makePrize(t.ctx, w.campaign.id, 'live', 50, 'Voucher R$ 50');
    receiver.setSecret((await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: receiver.url }, OPERATOR)).hmac_secret!);
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await receiver?.close();
    await t?.close();
  });

  /** What the browser reported against the pages: script errors and Content-Security-Policy violations. */
  const problems: string[] = [];

  /** A fresh browser context (its own cookies), watched for script errors and CSP violations. */
  async function openContext(): Promise<BrowserContext> {
    const context = await newContext(browser, t.url);
    contexts.push(context);
    context.on('weberror', (error) => problems.push(`script error: ${error.error().message}`));
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(`${message.page()?.url()}: ${message.text()}`);
    });
    return context;
  }

  /** A fresh browser context signed in through a one-time link. */
  async function signedIn(name = 'maria'): Promise<Page> {
    const context = await openContext();
    const page = await context.newPage();
    const link = createSignInLink(t.ctx, { name, ttlMinutes: 15 }, OPERATOR);
    await page.goto(`/dashboard/signin/${link.token}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard/`);
    await page.getByText(`Signed in as ${name}`).waitFor();
    return page;
  }

  const campaignUrl = (suffix = ''): string => `/dashboard/campaigns/${w.campaign.id}${suffix}`;

  test('Chromium launches and renders a page of the server', async () => {
    const page = await (await openContext()).newPage();
    const res = await page.goto('/dashboard/signin');
    assert.equal(res?.status(), 200);
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
  });

  test('sign in with the link `ces dashboard link` prints; the overview lists the campaign', async () => {
    // No CES_PUBLIC_URL in the command's environment: the link is built on the URL the server recorded.
    const cli = await runCli(['dashboard', 'link', '--as', 'ana', '--json'], { dbPath: t.dbPath });
    assert.equal(cli.code, 0, cli.stderr);
    assert.ok(cli.json.url.startsWith(`${t.url}/dashboard/signin/`), cli.stdout);
    // A mail scanner's HEAD and a chat app's preview GET come first (docs/operations.md#dashboard):
    // they change nothing, and the operator's own click still signs in.
    assert.equal((await fetch(cli.json.url, { method: 'HEAD' })).status, 200);
    const preview = await fetch(cli.json.url, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    assert.equal(preview.status, 200);
    assert.equal(preview.headers.get('set-cookie'), null);
    const page = await (await openContext()).newPage();
    await page.goto(cli.json.url);
    await page.getByText('This link signs you in as ana').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard/`);
    await page.getByText('Signed in as ana').waitFor();
    await page.getByRole('link', { name: 'Natal 2026' }).first().waitFor();
    // The link worked once: opened again, it starts nothing.
    const again = await (await openContext()).newPage();
    const res = await again.goto(cli.json.url);
    assert.equal(res?.status(), 410);
  });

  test('the campaign page shows entries arriving without a reload; entries and one entry', async () => {
    const page = await signedIn();
    await page.goto(campaignUrl());
    const total = page.locator('dt', { hasText: 'Entries in all' }).locator('xpath=following-sibling::dd');
    const before = Number((await total.textContent())!.replace(/,/g, ''));
    // A mark on this document: it is still there after the update only if the page never reloaded.
    await page.evaluate(() => Object.assign(window, { unreloaded: true }));
    for (let i = 0; i < 3; i++)
      await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: `Participante ${i + 1}` } }, 10 + i), `live-${i}`);
    // And one whose access key has a wrong check digit: rejected at once.
    const key = makeAccessKey({ yymm: '2611', number: '000000099' });
    const wrongDigit = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
    const rejected = await submitEntry(
      t,
      w.liveKey,
      entryBody({ enrollment: { full_name: 'Nota Errada' }, evidence: { access_key: wrongDigit } }, 13),
      'live-rejected',
    );
    assert.equal(rejected.status, 'REJECTED');
    // The page fetches itself again every few seconds and swaps its figures in place.
    await page.waitForFunction(
      ([label, expected]) => {
        const dt = [...document.querySelectorAll('dt')].find((d) => d.textContent === label);
        return Number(dt?.nextElementSibling?.textContent?.replace(/,/g, '')) === expected;
      },
      ['Entries in all', before + 4] as const,
      { timeout: 15_000 },
    );
    assert.equal(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded), true, 'updated in place');
    await screenshot(page, 'campaign');
    await page.getByRole('link', { name: 'Entries', exact: true }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'entries');
    await page.locator('table a[href*="/dashboard/entries/"]').first().click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await screenshot(page, 'entry');
    await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await screenshot(page, 'overview');
  });

  test('issue a key (shown once, copied with the button) and use it: 202; revoke it: 401', async () => {
    const page = await signedIn();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    await page.goto(campaignUrl('/keys'));
    await page.getByLabel('Mode').selectOption('live');
    await page.getByLabel('Label (optional)').fill('loja online');
    await page.getByRole('button', { name: 'Issue key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    assert.match(key, /^service_live_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key, 'the copy button copies the key');
    const accepted = await t.request('POST', '/v1/entries', {
      key,
      idempotencyKey: 'browser-key-1',
      body: entryBody({ enrollment: { full_name: 'Key User' } }, 20),
    });
    assert.equal(accepted.status, 202, accepted.text);

    await page.goto(campaignUrl('/keys'));
    assert.equal(await page.getByText(key).count(), 0, 'the list never shows the key again');
    const row = page.locator('tr', { hasText: 'loja online' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    // Asked first (issue 32): the key works until the confirmation.
    await page.getByRole('heading', { name: /^Revoke key .*\?$/ }).waitFor();
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.locator('tr', { hasText: 'loja online' }).getByText('revoked').waitFor();
    const refused = await t.request('POST', '/v1/entries', { key, idempotencyKey: 'browser-key-2', body: entryBody({}, 21) });
    assert.equal(refused.status, 401);
    await screenshot(page, 'keys');
  });

  test('rotate the webhook secret: the next delivery verifies with the new secret', async () => {
    const page = await signedIn();
    await page.goto(campaignUrl('/webhook'));
    await page.getByLabel('Old secret keeps signing for (seconds)').fill('0');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Rotate now, no grace' }).click();
    const secret = (await page.locator('#new-secret').textContent())!.trim();
    assert.match(secret, /^whsec_/);
    receiver.setSecret(secret);
    const { entry_id } = await submitEntry(
      t,
      w.liveKey,
      entryBody({ enrollment: { full_name: 'Depois da rotação' } }, 30),
      'after-rotation',
    );
    await receiver.waitFor((reqs) => reqs.some((r) => r.json?.data?.entry_id === entry_id), 10_000);
    const delivery = receiver.requests.find((r) => r.json?.data?.entry_id === entry_id)!;
    assert.equal(delivery.signatureMatches, true, 'signed with the new secret');
    assert.equal(delivery.headers['webhook-signature'].split(' ').length, 1, 'and only with it (no grace)');
    // The entry's three events delivered, so the picture shows a settled list.
    await receiver.waitFor((reqs) => reqs.filter((r) => r.json?.data?.entry_id === entry_id && r.status === 200).length === 3, 10_000);
    // Outcomes are recorded just after the receiver answers: reload until none is pending.
    for (let tries = 0; tries < 50; tries++) {
      await page.goto(campaignUrl('/webhook'));
      if ((await page.locator('td span', { hasText: /^pending$/ }).count()) === 0) break;
      await page.waitForTimeout(100);
    }
    await screenshot(page, 'webhook');
  });

  test('a failed delivery is found under the failed filter and redelivered', async () => {
    const page = await signedIn();
    await page.goto(campaignUrl('/webhook'));
    answer = 503;
    await page.getByRole('button', { name: 'Send test ping' }).click();
    await page.getByText('Test ping failed: the endpoint answered 503').waitFor();
    const pingId = new URL(page.url()).searchParams.get('ping')!;
    await page.getByRole('link', { name: 'Failed', exact: true }).click();
    const row = page.locator('tr', { hasText: pingId });
    await row.waitFor();
    answer = 200;
    const seen = receiver.requests.length;
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await receiver.waitFor((reqs) => reqs.slice(seen).some((r) => r.json?.id === pingId && r.status === 200), 10_000);
    await page.getByRole('link', { name: 'Delivered', exact: true }).click();
    await page.locator('tr', { hasText: pingId }).waitFor();
  });

  test('anonymize a participant: a wrong confirmation is refused, the document typed again anonymizes', async () => {
    // Rejected at once (a wrong check digit): no lucky numbers, no prize, so no legal hold.
    const key = makeAccessKey({ yymm: '2611', number: '000000140' });
    const wrongDigit = key.slice(0, 43) + String((Number(key[43]) + 1) % 10);
    await submitEntry(
      t,
      w.liveKey,
      entryBody({ enrollment: { full_name: 'Titular LGPD' }, evidence: { access_key: wrongDigit } }, 40),
      'lgpd',
    );
    const page = await signedIn();
    // A participant holding lucky numbers is under the legal hold: refused, the request kept.
    await page.goto(campaignUrl('/participants'));
    await page.getByLabel('CPF or CNPJ', { exact: true }).fill(cpf(10));
    await page.getByRole('button', { name: 'Find participant' }).click();
    await page.getByLabel('Type the participant’s CPF or CNPJ to confirm').fill(cpf(10));
    await page.getByRole('button', { name: 'Anonymize participant' }).click();
    await page.getByText(/prestação de contas \(LGPD art\. 16, I\)/).waitFor();
    assert.ok(findEnrollmentByDocument(t.ctx.db, w.campaign.id, 1, cpf(10)), 'held, not anonymized');
    assert.equal(listAuditRecords(t.ctx, { action: 'participant.anonymization_held', limit: 1 })[0]?.actor, 'dashboard:maria');

    await page.goto(campaignUrl('/participants'));
    await page.getByLabel('CPF or CNPJ', { exact: true }).fill(cpf(40));
    await page.getByRole('button', { name: 'Find participant' }).click();
    await page.getByRole('heading', { name: /Participant \*\*\*\./ }).waitFor();
    await page.getByLabel('Type the participant’s CPF or CNPJ to confirm').fill('00000000000');
    await page.getByRole('button', { name: 'Anonymize participant' }).click();
    await page.getByText('The confirmation does not match').waitFor();
    assert.ok(findEnrollmentByDocument(t.ctx.db, w.campaign.id, 1, cpf(40)), 'still there');
    await page.getByLabel('Type the participant’s CPF or CNPJ to confirm').fill(cpf(40));
    await page.getByLabel('Reason (e.g. the request’s ticket)').fill('LGPD-7');
    await page.getByRole('button', { name: 'Anonymize participant' }).click();
    await page.getByText(/anonymized: personal data replaced/).waitFor();
    assert.equal(findEnrollmentByDocument(t.ctx.db, w.campaign.id, 1, cpf(40)), undefined);
    const [record] = listAuditRecords(t.ctx, { action: 'participant.anonymized', limit: 1 });
    assert.deepEqual([record.actor, record.details.reason], ['dashboard:maria', 'LGPD-7']);
  });

  test('find entries by CPF with the search form: no address the browser visits holds it', async () => {
    await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: 'Busca Privada' } }, 50), 'search-1');
    const page = await signedIn();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await page.goto(campaignUrl('/entries'));
    await page.getByLabel('Entry id, CPF/CNPJ or e-mail').fill(cpf(50));
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByText('Showing the entries of the participant with that CPF/CNPJ').waitFor();
    assert.equal(await page.locator('table a[href*="/dashboard/entries/"]').count(), 1);
    assert.equal(page.url(), `${t.url}${campaignUrl('/entries/search')}`);
    const digits = cpf(50).replace(/\D/g, '');
    assert.ok(visited.length >= 2, visited.join(' '));
    for (const url of visited) assert.ok(!decodeURIComponent(url).replace(/\D/g, '').includes(digits), `the CPF is not in ${url}`);
  });

  test('signing in again in the same browser ends the earlier session; Sign out is audited', async () => {
    const page = await signedIn('primeiro');
    const link = createSignInLink(t.ctx, { name: 'segundo', ttlMinutes: 15 }, OPERATOR);
    await page.goto(`/dashboard/signin/${link.token}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as segundo').waitFor();
    const byName = new Map(listSessions(t.ctx).map((s) => [s.name, s]));
    assert.equal(byName.get('primeiro')!.state, 'replaced');
    assert.equal(byName.get('segundo')!.state, 'active');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${t.url}/dashboard/signin`);
    const [record] = listAuditRecords(t.ctx, { action: 'dashboard.signed_out', limit: 1 });
    assert.deepEqual([record.actor, record.details.session_id], ['dashboard:segundo', byName.get('segundo')!.id]);
  });

  // Last: it moves the server's clock 12 hours on.
  test("the live page's refresh is not use: left open, the session ends 12 hours after the operator's last page, and the sign-in page shows", async () => {
    const page = await signedIn('vigia');
    await page.goto(campaignUrl());
    const session = () => listSessions(t.ctx).find((s) => s.name === 'vigia')!;
    const opened = session().last_seen_at;
    // Past the once-a-minute write of last use: a request that counted as use would move it.
    t.clock.advance(2 * 60_000);
    const isRefresh = (r: { url(): string; headers(): Record<string, string> }): boolean =>
      r.url() === `${t.url}${campaignUrl()}` && r.headers()['x-ces-live'] === '1';
    const refresh = await page.waitForRequest(isRefresh, { timeout: 15_000 });
    assert.equal((await refresh.response())?.status(), 200);
    assert.equal(session().last_seen_at, opened, 'the refresh was not use');
    t.clock.advance(12 * 3600_000);
    await page.waitForURL(`${t.url}/dashboard/signin`, { timeout: 15_000 });
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    assert.equal(session().state, 'idle');
  });

  test('no page had a script error or broke its Content-Security-Policy', () => {
    assert.deepEqual(problems, []);
  });
});
