// A draw run from the dashboard in a real browser (docs/operations.md#running-a-draw-ces-draw,
// #dashboard): headless Chromium (test/support/browser.ts) against a real server on a socket and
// its SQLite file. Entries come in through the API with automatic lucky numbers and are processed
// by the real pipeline; the operator creates a draw, is refused the freeze before its cut-off,
// freezes once the test's clock has passed it, enters the five prizes, runs it, reads the
// derivation, disqualifies a winner (a wrong typed confirmation first), publishes (the webhook
// receives draw.published) and opens the print view. If Chromium cannot start on this machine the
// suite is skipped with the reason; it never passes unrun.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAuditRecords } from '../../src/audit/audit.ts';
import { createSignInLink } from '../../src/dashboard/sessions.ts';
import { getDraw, listDraws } from '../../src/draws/views.ts';
import { setWebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { launchBrowser, newContext, screenshot, type Browser, type BrowserContext, type Page } from '../support/browser.ts';
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
import { startReceiver, type Receiver } from '../support/receiver.ts';

const launched = await launchBrowser();
if (launched.skip && process.env.CES_SCREENSHOTS === '1') throw new Error(`no screenshots written: ${launched.skip}`);

/** The server's clock starts at 2026-11-22T12:00Z; the cut-off is an hour later. */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const PRIZES = ['012345', '23456', '34567', '45678', '56789'];

describe('a draw in Chromium', { skip: launched.skip ?? false }, () => {
  const browser = launched.browser as Browser;
  let t: TestServer;
  let w: World;
  let receiver: Receiver;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  before(async () => {
    t = await startTestServer({ socket: true });
    receiver = await startReceiver({ respond: () => 200 });
    w = makeCampaign(t.ctx, { name: 'Natal 2026', luckyNumbers: 'auto', luckyQuantity: 3, seriesCount: 2 });
    receiver.setSecret((await setWebhookConfig(t.ctx, w.campaign.id, { endpointUrl: receiver.url }, OPERATOR)).hmac_secret!);
    for (let i = 0; i < 8; i++) await submitEntry(t, w.liveKey, entryBody({}, 500 + i), `browser-draw-${i}`);
    await drainAll(t);
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
    await receiver?.close();
    await t?.close();
  });

  async function signedIn(name = 'maria'): Promise<Page> {
    const context = await newContext(browser, t.url);
    contexts.push(context);
    context.on('weberror', (error) => problems.push(`script error: ${error.error().message}`));
    context.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(`${message.page()?.url()}: ${message.text()}`);
    });
    const page = await context.newPage();
    const link = createSignInLink(t.ctx, { name, ttlMinutes: 15 }, OPERATOR);
    await page.goto(`/dashboard/signin/${link.token}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.url}/dashboard/`);
    return page;
  }

  test('create, freeze, enter the prizes, run, read the derivation, disqualify, publish, print', async () => {
    const page = await signedIn();
    await page.goto(`/dashboard/campaigns/${w.campaign.id}`);
    await page.getByRole('navigation', { name: 'Campaign' }).getByRole('link', { name: 'Draws' }).click();
    await page.getByRole('heading', { level: 1, name: /Draws/ }).waitFor();
    // The page opens in test mode; live is chosen on purpose, and its page says a live draw stays.
    assert.equal((await page.locator('h1 .badge').textContent())?.trim(), 'test');
    await page.getByRole('link', { name: 'Show live mode' }).click();
    await page.getByText('Live mode: a live draw is the promotion’s real draw.').waitFor();

    // Create: the defaults for 2 series are shown and kept.
    assert.equal(await page.getByLabel(/^Series digits/).inputValue(), '1d');
    assert.equal(await page.getByLabel(/^Element digits/).inputValue(), '1u,2u,3u,4u,5u');
    await page.getByLabel('Name', { exact: true }).fill('Sorteio de Natal');
    await page.getByLabel(/^Cut-off/).fill(CUTOFF);
    // A draw is created before its planned extraction (19:00 in Brasília), on the clock the page's steps set.
    t.clock.set(Date.parse('2026-11-22T12:00:00Z'));
    await page.getByLabel('Extraction date (YYYY-MM-DD)').fill('2026-11-22');
    await page.getByLabel('Winners').fill('3');
    await page.getByRole('button', { name: 'Create live draw' }).click();
    await page.getByText('Draw created.').waitFor();
    const [draw] = listDraws(t.ctx, w.campaign.id);
    assert.equal(new URL(page.url()).pathname, `/dashboard/draws/${draw.id}`);

    // Freeze before the cut-off: refused with the reason, nothing changes.
    await page.getByRole('button', { name: 'Freeze' }).click();
    await page.getByText(/has not passed yet: its eligible numbers are not final/).waitFor();
    assert.equal(getDraw(t.ctx, draw.id).status, 'created');

    t.clock.set(Date.parse('2026-11-22T13:05:00Z'));
    await page.getByRole('button', { name: 'Freeze' }).click();
    await page.getByText('Frozen: the eligible numbers are fixed').waitFor();
    const frozen = getDraw(t.ctx, draw.id);
    assert.equal(frozen.eligible_count, 24, '8 entries, 3 numbers each');
    assert.equal((await page.locator('#numbers-sha256').textContent())?.trim(), frozen.numbers_sha256);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the numbers (text)' }).click();
    assert.equal((await download).suggestedFilename(), `draw-${draw.id}-numbers.txt`);

    // The five prizes, one as Caixa publishes it (6 characters, a leading 0).
    await page.getByLabel('Extraction number', { exact: true }).fill('5914');
    await page.getByLabel('Extraction date').fill('2026-11-22');
    for (const [i, prize] of PRIZES.entries()) await page.getByLabel(`${['1st', '2nd', '3rd', '4th', '5th'][i]} prize`).fill(prize);
    await page.getByRole('button', { name: 'Record results' }).click();
    await page.getByText('Results recorded.').waitFor();
    // The picture of the page before the run: the extraction recorded, the Run button.
    await page
      .getByRole('heading', { level: 2, name: 'Loteria Federal results', exact: true })
      .evaluate((h) => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 8));
    await screenshot(page, 'draw-before-run');

    await page.getByRole('button', { name: 'Run draw' }).click();
    await page.getByText('The draw has run').waitFor();
    // The page opens at the winners, not at its top with the winners below the fold.
    assert.equal(new URL(page.url()).hash, '#winners');
    const top = await page.getByRole('heading', { level: 2, name: 'Winners', exact: true }).evaluate((h) => h.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 800 / 2, `the winners are in the upper half of the window (top ${top})`);
    const drawn = getDraw(t.ctx, draw.id);
    assert.equal(drawn.winners.length, 3);
    // The derivation, sentence by sentence: 1st prize's tens (4) brought into 2 series, the five units.
    for (const sentence of [
      'Series: 4, the tens digit of the 1st prize (ticket 012345).',
      'Series 4 is beyond the 2 series: 4 − 2 × 2 = 0.',
      'Element: 9, the units digit of the 5th prize (ticket 056789).',
      'The formed number is 0/56789.',
    ])
      await page.getByText(sentence, { exact: true }).waitFor();
    const winners = page.locator('h2:text-is("Winners") + table tbody tr');
    assert.deepEqual(
      await winners.evaluateAll((rows) => rows.map((r) => r.querySelector('td:nth-child(2)')?.textContent?.trim())),
      drawn.winners.map((x) => x.number),
    );
    // The picture the docs show: the page as the run leaves it, at the winners and the derivation.
    await screenshot(page, 'draw');

    // Disqualify winner 2: a wrong confirmation first (winner 1's number), then the right one.
    const target = drawn.winners[1];
    await page.getByLabel('Position').fill('2');
    await page.getByLabel('Reason').fill('Nota fiscal cancelada');
    await page.getByLabel('Type the winner’s number to confirm').fill(drawn.winners[0].number);
    await page.getByRole('button', { name: 'Disqualify winner' }).click();
    await page.getByText(/The confirmation does not match the number of the winner at position 2: nothing changed/).waitFor();
    assert.deepEqual(getDraw(t.ctx, draw.id).disqualified, []);
    assert.equal(await page.getByLabel('Reason').inputValue(), 'Nota fiscal cancelada', 'the reason is kept');
    await page.getByLabel('Type the winner’s number to confirm').fill(target.number);
    await page.getByRole('button', { name: 'Disqualify winner' }).click();
    await page.getByText('Winner disqualified').waitFor();
    const replaced = getDraw(t.ctx, draw.id);
    assert.deepEqual(
      replaced.disqualified.map((d) => [d.position, d.number, d.reason]),
      [[2, target.number, 'Nota fiscal cancelada']],
    );
    await page.locator('h2:text-is("Disqualified winners") + table').getByText('Nota fiscal cancelada').waitFor();
    await page.getByText(`(replaces the disqualified ${target.number})`).waitFor();

    // Publish, confirmed by the draw's name: final, and the webhook gets draw.published.
    await page.getByLabel('Type the draw’s name to confirm').fill('Sorteio de Natal');
    await page.getByRole('button', { name: 'Publish draw' }).click();
    await page.getByText('Published: the winners are final').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Disqualify winner' }).count(), 0);
    await drainAll(t);
    const published = receiver.requests.find((r) => r.json?.event_type === 'draw.published');
    assert.ok(published, 'the receiver got draw.published');
    assert.equal(published.signatureMatches, true);
    assert.deepEqual(
      published.json.data.winners.map((x: { position: number }) => x.position),
      [1, 2, 3],
    );
    assert.deepEqual(
      listAuditRecords(t.ctx, { campaignId: w.campaign.id, limit: 20 })
        .filter((r) => r.action.startsWith('draw.'))
        .map((r) => [r.action, r.actor])
        .reverse(),
      [
        ['draw.created', 'dashboard:maria'],
        ['draw.frozen', 'dashboard:maria'],
        ['draw.results_recorded', 'dashboard:maria'],
        ['draw.run', 'dashboard:maria'],
        ['draw.winner_disqualified', 'dashboard:maria'],
        ['draw.published', 'dashboard:maria'],
      ],
    );

    // The printable record: the record's own page, its print stylesheet applied, no dashboard around it.
    await page.getByRole('link', { name: 'Print the record' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ata de apuração: Sorteio de Natal' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/dashboard/draws/${draw.id}/print`);
    assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /Georgia/, 'its own stylesheet applies');
    assert.equal(await page.getByText('Sign out').count(), 0, 'no dashboard chrome');
    for (const x of replaced.winners) await page.getByRole('cell', { name: x.number, exact: true }).first().waitFor();
    await screenshot(page, 'draw-record');
    await page.emulateMedia({ media: 'print' });
    assert.match(await page.evaluate(() => getComputedStyle(document.body).margin), /^0px$/, 'the print rules apply when printing');
    await page.emulateMedia({ media: 'screen' });
    await page.goBack();

    // A winner's entry link leads to the entry's page.
    await page.locator('h2:text-is("Winners") + table').getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: /Entry/ }).waitFor();
  });

  test('no page had a script error or broke its Content-Security-Policy', () => {
    assert.deepEqual(problems, []);
  });
});
