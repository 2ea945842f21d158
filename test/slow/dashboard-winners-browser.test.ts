// The Winners page in a real browser (docs/operations.md#winners-page): headless Chromium
// (test/support/browser.ts) against a real server on a socket and its SQLite file. Entries come
// in through the API and are processed by the real pipeline; a draw of three positions is
// published through the domain (the draw pages have their own suite). The operator opens Winners
// from the campaign's nav, records a delivery with the signed receipt chosen through the file
// input (its SHA-256 on the page is the file's, and its download link gives the file back), is
// refused a text file named .pdf with the reason and nothing recorded, is refused a POST without
// the CSRF token (403), and, once the test's clock has passed the notification deadline, sees it
// marked overdue. It takes docs/img/winners.png under `npm run screenshots`. If Chromium cannot
// start on this machine the suite is skipped with the reason; it never passes unrun.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { listAuditRecords } from '../../src/audit/audit.ts';
import { createSignInLink } from '../../src/dashboard/sessions.ts';
import { createDraw, freezeDraw, recordResults } from '../../src/draws/lifecycle.ts';
import { publishDraw } from '../../src/draws/publish.ts';
import { runDraw } from '../../src/draws/run.ts';
import { listWinners } from '../../src/winners/winners.ts';
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

const launched = await launchBrowser();
if (launched.skip && process.env.CES_SCREENSHOTS === '1') throw new Error(`no screenshots written: ${launched.skip}`);

/** The server's clock starts at 2026-11-22T12:00Z; the cut-off is an hour later, the draw runs at 13:30Z. */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const RUN_AT = Date.parse('2026-11-22T13:30:00Z');
/** A small PDF as a scanner writes one: what the domain knows it by is its first bytes, %PDF-. */
const RECEIPT = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n',
);

describe('the Winners page in Chromium', { skip: launched.skip ?? false }, () => {
  const browser = launched.browser as Browser;
  let t: TestServer;
  let w: World;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  before(async () => {
    t = await startTestServer({ socket: true });
    w = makeCampaign(t.ctx, { name: 'Natal 2026', luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 2 });
    const names = ['Maria da Silva', 'João Pereira', 'Ana Souza', 'Pedro Costa', 'Lucia Lima', 'Rafael Alves'];
    for (const [i, full_name] of names.entries()) {
      const enrollment = { full_name, address: { city: i % 2 === 0 ? 'Campinas' : 'Recife', state: i % 2 === 0 ? 'SP' : 'PE' } };
      await submitEntry(t, w.liveKey, entryBody({ enrollment }, 400 + i), `browser-winners-${i}`);
    }
    await drainAll(t);
    const draw = createDraw(
      t.ctx,
      {
        campaignId: w.campaign.id,
        mode: 'live',
        name: 'Sorteio de Natal',
        cutoff: CUTOFF,
        extractionDate: '2026-11-22',
        winners: 3,
        prizes: ['Moto 0 km=15990.00', 'Smart TV 55=3499.90', 'Vale-compras=500.00'],
      },
      OPERATOR,
    );
    t.clock.set(RUN_AT);
    await freezeDraw(t.ctx, draw.id, OPERATOR);
    await recordResults(
      t.ctx,
      draw.id,
      { extraction: 5912, date: '2026-11-22', prizes: ['12345', '23456', '34567', '45678', '56789'] },
      OPERATOR,
    );
    await runDraw(t.ctx, draw.id, OPERATOR);
    publishDraw(t.ctx, draw.id, OPERATOR, `ces draw numbers ${draw.id}`);
  });

  after(async () => {
    for (const c of contexts) await c.close();
    await browser.close();
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

  const winners = () => listWinners(t.ctx, { campaignId: w.campaign.id, livemode: 1 });
  const eventsAt = (position: number): string[] =>
    winners()
      .find((x) => x.position === position)!
      .events.map((e) => e.event);
  const position = (page: Page, n: number) => page.getByRole('region', { name: `Sorteio de Natal, position ${n}` });

  test('record a delivery with its receipt, refuse a file that is not one, refuse a POST without the CSRF token, mark an overdue deadline', async () => {
    const page = await signedIn();
    await page.goto(`/dashboard/campaigns/${w.campaign.id}`);
    await page.getByRole('navigation', { name: 'Campaign' }).getByRole('link', { name: 'Winners' }).click();
    await page.getByRole('heading', { level: 1, name: /Winners/ }).waitFor();
    assert.equal((await page.locator('h1 .badge').textContent())?.trim(), 'live');
    assert.equal(await page.locator('td.overdue').count(), 0, 'nothing is overdue on the day of the draw');

    // Delivered, with the signed receipt chosen through the file input.
    const first = position(page, 1);
    await first.getByLabel('Event').selectOption('delivered');
    await first.getByLabel('Note').fill('Termo de quitação assinado na entrega');
    await first.getByLabel(/^Files/).setInputFiles({ name: 'termo-quitacao.pdf', mimeType: 'application/pdf', buffer: RECEIPT });
    await first.getByRole('button', { name: 'Record step' }).click();
    await page.getByText('Step recorded.').waitFor();
    assert.deepEqual(eventsAt(1), ['awarded', 'delivered']);
    const sha256 = createHash('sha256').update(RECEIPT).digest('hex');
    assert.equal((await position(page, 1).locator('code.sha256').textContent())?.trim(), sha256, 'the SHA-256 shown is the file’s');
    assert.equal(await position(page, 1).getByRole('button', { name: 'Record step' }).count(), 0, 'delivered is final: no form');
    const download = page.waitForEvent('download');
    await position(page, 1).getByRole('link', { name: 'termo-quitacao.pdf' }).click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'termo-quitacao.pdf');
    assert.equal(
      createHash('sha256')
        .update(await readFile((await file.path())!))
        .digest('hex'),
      sha256,
      'the download is the file',
    );
    assert.deepEqual(
      listAuditRecords(t.ctx, { campaignId: w.campaign.id, limit: 10 })
        .filter((r) => r.action.startsWith('winner.'))
        .map((r) => [r.action, r.actor])
        .reverse(),
      [
        ['winner.recorded', 'dashboard:maria'],
        ['winner.attachment_viewed', 'dashboard:maria'],
      ],
    );

    // A text file named .pdf: refused with the reason, the note kept, nothing recorded.
    const second = position(page, 2);
    await second.getByLabel('Event').selectOption('documents_received');
    await second.getByLabel('Note').fill('RG e comprovante de residência');
    await second.getByLabel(/^Files/).setInputFiles({
      name: 'rg.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('not a PDF at all, whatever its name says\n'),
    });
    const refused = page.waitForResponse((r) => r.request().method() === 'POST');
    await second.getByRole('button', { name: 'Record step' }).click();
    assert.equal((await refused).status(), 422);
    await page.getByRole('alert').first().getByText('Files "rg.pdf" is not a PDF, JPEG or PNG file (by its first bytes)').waitFor();
    assert.equal(await position(page, 2).getByLabel('Note').inputValue(), 'RG e comprovante de residência');
    assert.deepEqual(eventsAt(2), ['awarded']);

    // A POST without the CSRF token, with the session's cookie: 403, nothing recorded.
    const third = winners().find((x) => x.position === 3)!;
    const forged = await page.request.post(`/dashboard/winners/${third.id}/steps`, {
      multipart: { event: 'notified', note: 'forged', attach: { name: 'a.pdf', mimeType: 'application/pdf', buffer: RECEIPT } },
      maxRedirects: 0,
    });
    assert.equal(forged.status(), 403);
    assert.match(await forged.text(), /did not come from this dashboard/);
    assert.deepEqual(eventsAt(3), ['awarded']);

    // Position 3 is reached by phone, then the clock passes notify_by (2026-12-02): position 2 is late.
    await page.goto(`/dashboard/campaigns/${w.campaign.id}/winners`);
    await position(page, 3).getByLabel('Event').selectOption('notified');
    await position(page, 3).getByLabel('Note').fill('Ligação atendida, endereço confirmado');
    await position(page, 3).getByRole('button', { name: 'Record step' }).click();
    await page.getByText('Step recorded.').waitFor();
    t.clock.set(Date.parse('2026-12-03T13:00:00Z'));
    // A session lasts 7 days at most: sign in again.
    const later = await signedIn();
    await later.goto(`/dashboard/campaigns/${w.campaign.id}/winners`);
    const overdue = later.locator('td.overdue');
    assert.equal(await overdue.count(), 1);
    assert.equal((await overdue.textContent())?.replace(/\s+/g, ' ').trim(), '2026-12-02 overdue');
    const row = later.getByRole('row').filter({ has: later.getByRole('link', { name: 'Sorteio de Natal, position 2' }) });
    assert.equal(await row.locator('td.overdue').count(), 1, 'the overdue deadline is position 2’s');
    assert.equal(await later.getByRole('heading', { level: 1 }).count(), 1);
    // The picture the docs show: the table with the overdue deadline, then the first winner's steps with the receipt and its SHA-256.
    await later.getByText('One row per prize won').evaluate((p) => window.scrollTo(0, p.getBoundingClientRect().top + window.scrollY - 8));
    await screenshot(later, 'winners');
  });

  test('no page had a script error or broke its Content-Security-Policy', () => {
    assert.deepEqual(problems, []);
  });
});
