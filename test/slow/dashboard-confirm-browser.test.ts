// The dashboard's confirmations in a real browser (issue 32, item 9): headless Chromium
// (test/support/browser.ts) with JavaScript turned off, since they must work without it
// (docs/operations.md#security: only live charts need script), against a real server on a socket
// and its SQLite file. For each action that cannot be taken back (revoking a key, rotating a key or
// the webhook secret without a grace period, pausing delivery, redelivering every failed delivery,
// downloading every participant's data) the first click changes nothing and shows what will happen;
// only the confirmation's button acts, and Cancel goes back with nothing done. If Chromium cannot
// start on this machine the suite is skipped with the reason; it never passes unrun.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAuditRecords } from '../../src/audit/audit.ts';
import { createSignInLink } from '../../src/dashboard/sessions.ts';
import { listKeys } from '../../src/keys/keys.ts';
import { listDeliveryViews } from '../../src/webhooks/deliveries.ts';
import { findOperatorWebhookConfig, setWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { launchBrowser, VIEWPORT, type Browser, type BrowserContext, type Page } from '../support/browser.ts';
import {
  drainAll,
  entryBody,
  makeCampaign,
  OPERATOR,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';

const launched = await launchBrowser();

describe('confirmations in Chromium, without JavaScript', { skip: launched.skip ?? false }, () => {
  const browser = launched.browser as Browser;
  let t: TestServer;
  let w: World;
  const contexts: BrowserContext[] = [];

  before(async () => {
    t = await startTestServer({ socket: true });
    w = makeCampaign(t.ctx, { name: 'Natal 2026' });
    // An endpoint that refuses every connection: the entry's events fail once their retries run out.
    await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: 'https://127.0.0.1:9/hooks' }, OPERATOR);
    await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: 'Rosa Confirmada' } }, 1), 'confirm-1');
    await drainAll(t);
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await t?.close();
  });

  async function signedIn(): Promise<Page> {
    const context = await browser.newContext({ viewport: VIEWPORT, baseURL: t.url, javaScriptEnabled: false, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const link = createSignInLink(t.ctx, { name: 'maria', ttlMinutes: 15 }, OPERATOR);
    await page.goto(`/dashboard/signin/${link.token}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as maria').waitFor();
    return page;
  }

  const campaignUrl = (suffix: string): string => `/dashboard/campaigns/${w.campaign.id}${suffix}`;
  const audits = (): number => listAuditRecords(t.ctx, { limit: 10_000 }).length;
  const key = (id: string) => listKeys(t.ctx, w.campaign.id).find((k) => k.id === id)!;

  test('revoking a key: the first click asks, Cancel goes back with the key working, the confirmation revokes it', async () => {
    const page = await signedIn();
    await page.goto(campaignUrl('/keys'));
    const row = (): ReturnType<Page['locator']> => page.locator('tr', { hasText: key(w.testKeyId).prefix });
    const before = audits();
    await row().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('heading', { level: 1, name: /^Revoke key .*\?$/ }).waitFor();
    assert.equal(key(w.testKeyId).revoked_at, null, 'the first click changed nothing');
    assert.equal(audits(), before);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    assert.equal(key(w.testKeyId).revoked_at, null);
    await row().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await row().getByText('revoked').waitFor();
    assert.ok(key(w.testKeyId).revoked_at);
  });

  test('rotating a key without a grace period asks first; with one it does not', async () => {
    const page = await signedIn();
    await page.goto(campaignUrl('/keys'));
    const row = page.locator('tr', { hasText: key(w.liveKeyId).prefix });
    await row.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('heading', { level: 1, name: /without a grace period\?$/ }).waitFor();
    assert.equal(key(w.liveKeyId).revoked_at, null);
    await page.getByRole('button', { name: 'Rotate now, no grace' }).click();
    await page.getByRole('heading', { name: /rotated$/ }).waitFor();
    assert.ok(key(w.liveKeyId).revoked_at, 'the old key is revoked');
  });

  test('the webhook: rotating the secret without grace, redelivering every failed delivery and pausing each ask first, then act', async () => {
    const page = await signedIn();
    const secret = (): string => t.ctx.db.prepare('SELECT secret FROM webhook_configs').pluck().get() as string;
    const failed = (): number => listDeliveryViews(t.ctx, w.campaign.id, 'failed', 100).length;
    assert.equal(failed(), 3);

    await page.goto(campaignUrl('/webhook'));
    const oldSecret = secret();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { level: 1, name: 'Rotate the signing secret without a grace period?' }).waitFor();
    assert.equal(secret(), oldSecret);
    await page.getByRole('button', { name: 'Rotate now, no grace' }).click();
    await page.locator('#new-secret').waitFor();
    assert.notEqual(secret(), oldSecret);

    await page.goto(campaignUrl('/webhook'));
    await page.getByRole('button', { name: 'Redeliver all failed' }).click();
    await page.getByRole('heading', { level: 1, name: 'Redeliver all 3 failed deliveries?' }).waitFor();
    assert.equal(failed(), 3);
    await page.getByRole('button', { name: 'Redeliver all failed' }).click();
    await page.getByText('3 deliveries queued again.').waitFor();
    assert.equal(failed(), 0);

    await page.getByRole('button', { name: 'Pause delivery' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pause webhook delivery?' }).waitFor();
    assert.equal(findOperatorWebhookConfig(t.ctx, w.campaign.id)?.is_active, true);
    await page.getByRole('button', { name: 'Pause delivery' }).click();
    await page.getByRole('button', { name: 'Resume delivery' }).waitFor();
    assert.equal(findOperatorWebhookConfig(t.ctx, w.campaign.id)?.is_active, false);
  });

  test('downloading every participant’s data asks first; the confirmation downloads the file', async () => {
    const page = await signedIn();
    await page.goto(campaignUrl('/exports'));
    const exported = (): number => listAuditRecords(t.ctx, { action: 'entries.exported', limit: 100 }).length;
    await page.getByRole('button', { name: 'Download export' }).click();
    await page.getByRole('heading', { level: 1, name: 'Download the personal data of every participant of Natal 2026?' }).waitFor();
    assert.equal(exported(), 0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the export' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^entries-[0-9a-f-]{36}-live\.csv$/);
    const path = await download.path();
    assert.ok(path);
    assert.equal(exported(), 1);
  });
});
