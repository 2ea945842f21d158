// Chromium for the browser suites: the binary that @sparticuz/chromium ships inside its npm
// package (so `npm ci` installs it and nothing downloads a browser at install or run time),
// driven headless by playwright-core. One browser per suite (a launch costs about 2.5 s), a fresh
// context per test (its own cookies, so no test signs in for another). Screenshots are taken at one
// fixed viewport, so the pictures in docs/img keep their size from run to run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './harness.ts';

export type { Browser, BrowserContext, Page } from 'playwright-core';

export const VIEWPORT = { width: 1280, height: 800 } as const;
export const IMG_DIR = join(ROOT, 'docs/img');

/** How long a launch may take before the suite gives up on it. */
const LAUNCH_TIMEOUT_MS = 30_000;

/**
 * @sparticuz/chromium's flags are made for AWS Lambda. Three are left out here: --single-process
 * (Lambda's sandbox needs it; with it, closing one browser context closes the whole browser),
 * and --disable-web-security and --allow-running-insecure-content, so that the pages are tested
 * under the browser's ordinary same-origin and mixed-content rules.
 */
const LEFT_OUT_FLAGS = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content']);

export type LaunchResult = { browser: Browser; launchMs: number; skip?: undefined } | { browser?: undefined; skip: string };

/**
 * Launches headless Chromium, or says why it cannot start on this machine: the suite then skips
 * with that message (node:test prints it) instead of passing without having run.
 */
export async function launchBrowser(): Promise<LaunchResult> {
  const started = performance.now();
  try {
    // The first call unpacks the brotli-compressed binary to the temp folder (some 10 s); later
    // calls, and later runs on the machine, find it there.
    const executablePath = await sparticuz.executablePath();
    const browser = await chromium.launch({
      executablePath,
      args: sparticuz.args.filter((flag) => !LEFT_OUT_FLAGS.has(flag)),
      headless: true,
      timeout: LAUNCH_TIMEOUT_MS,
    });
    return { browser, launchMs: Math.round(performance.now() - started) };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { skip: `Chromium (@sparticuz/chromium through playwright-core) cannot launch here: ${reason}` };
  }
}

/** A fresh context (cookies, storage) at the fixed viewport, with relative URLs resolved against baseURL. */
export function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({ viewport: VIEWPORT, baseURL, reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' });
}

/**
 * Takes the page as it is now (the viewport only: a fixed 1280×800 picture). With
 * CES_SCREENSHOTS=1 (`npm run screenshots`) it is written to docs/img/<name>.png, the pictures the
 * docs show; a plain `npm run test:slow` leaves those tracked files as they are.
 */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot name must be kebab-case, got "${name}"`);
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  if (process.env.CES_SCREENSHOTS === '1') {
    mkdirSync(IMG_DIR, { recursive: true });
    writeFileSync(join(IMG_DIR, `${name}.png`), png);
  }
  return png;
}
