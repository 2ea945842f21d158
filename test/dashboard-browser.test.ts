// The dashboard in a real browser (issue 25): headless Chromium (@sparticuz/chromium, installed by
// `npm ci`) driven by playwright-core against a real server (real socket, real SQLite file). If
// Chromium cannot start on this machine the suite is skipped with the reason; it never passes unrun.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchBrowser, newContext, VIEWPORT, type Browser } from './support/browser.ts';
import { startTestServer, type TestServer } from './support/harness.ts';

const launched = await launchBrowser();

describe('the dashboard in Chromium', { skip: launched.skip ?? false }, () => {
  const browser = launched.browser as Browser;
  let t: TestServer;

  before(async () => {
    t = await startTestServer();
  });

  after(async () => {
    await browser.close();
    await t?.close();
  });

  test('Chromium launches and loads a page of the server in a fresh context at the fixed viewport', async () => {
    const context = await newContext(browser, t.url);
    try {
      const page = await context.newPage();
      const res = await page.goto('/healthz');
      assert.equal(res?.status(), 200);
      assert.equal(JSON.parse((await page.locator('body').textContent())!).status, 'ok');
      assert.deepEqual(page.viewportSize(), VIEWPORT);
    } finally {
      await context.close();
    }
  });
});
