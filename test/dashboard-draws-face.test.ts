// What an operator sees on the Draws pages (docs/operations.md#the-draw-pages-of-the-dashboard), in
// process over HTTP: the page opens in test mode (live is chosen by name); every time says its zone;
// dates are typed YYYY-MM-DD in text fields, never a browser's date picker that reads mm/dd; after
// Run the page opens at the winners; after Publish it says what became of draw.published as the
// campaign's webhook stands; and "Fetch from Caixa" reads the extraction from a local server standing
// in for Caixa's results API, shows it, and records it only when the operator confirms it, as read
// again.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { listAuditRecords } from '../src/audit/audit.ts';
import { createDraw, freezeDraw } from '../src/draws/lifecycle.ts';
import { getDraw, listDraws } from '../src/draws/views.ts';
import { patchWebhookConfig } from '../src/webhooks/webhook-config.ts';
import { listDeliveryViews } from '../src/webhooks/deliveries.ts';
import { signIn, tableRows, textOf, type Operator } from './support/dashboard.ts';
import {
  configureWebhook,
  drainAll,
  entryBody,
  makeCampaign,
  OPERATOR,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from './support/harness.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * Created on 2026-11-22 (the test server's clock), cut-off that day and frozen half an hour after it, before the
 * extraction planned for the 25th; results read on the 26th.
 */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const FROZEN_AT = '2026-11-22T13:30:00.000Z';
const EXTRACTION_DATE = '2026-11-25';
const RESULTS_DAY = '2026-11-26T12:00:00.000Z';
const PRIZES = ['050366', '012345', '067890', '011111', '022222'];

/** Extraction 5787 as Caixa's results API gives it (its other fields left out). */
const FEDERAL_5787 = {
  tipoJogo: 'FEDERAL',
  numero: 5787,
  dataApuracao: '25/11/2026',
  listaDezenas: PRIZES,
  dezenasSorteadasOrdemSorteio: PRIZES,
};

interface Caixa {
  url: string;
  paths: string[];
  /** What the next requests get. */
  answer: { status: number; body: unknown };
}

/** A local HTTP server answering as Caixa's results API does: the stand-in config.loteriaUrl names. */
async function startCaixa(): Promise<Caixa> {
  const caixa: Caixa = { url: '', paths: [], answer: { status: 200, body: FEDERAL_5787 } };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    caixa.paths.push(req.url ?? '');
    res.writeHead(caixa.answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(caixa.answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  caixa.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/portaldeloterias/api`;
  return caixa;
}

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const t = await startTestServer({ env });
  cleanups.push(() => t.close());
  return t;
}

/**
 * A campaign of 2 series whose 6 approved live entries hold 2 lucky numbers each, and a live draw on it (made as the CLI
 * does), frozen before its planned extraction as it must be.
 */
async function drawWorld(t: TestServer, o: { winners?: number } = {}): Promise<{ w: World; id: string }> {
  const w = makeCampaign(t.ctx, { name: 'Natal 2026', luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 2 });
  for (let i = 0; i < 6; i++) await submitEntry(t, w.liveKey, entryBody({}, 400 + i), `face-${i}`);
  await drainAll(t);
  const id = createDraw(
    t.ctx,
    {
      campaignId: w.campaign.id,
      mode: 'live',
      name: 'Sorteio 1',
      cutoff: CUTOFF,
      extractionDate: EXTRACTION_DATE,
      winners: o.winners ?? 2,
    },
    OPERATOR,
  ).id;
  t.clock.set(Date.parse(FROZEN_AT));
  await freezeDraw(t.ctx, id, OPERATOR);
  return { w, id };
}

const drawUrl = (id: string, suffix = ''): string => `/dashboard/draws/${id}${suffix}`;
const resultsForm = Object.fromEntries([['extraction', '5787'], ['date', EXTRACTION_DATE], ...PRIZES.map((p, i) => [`prize${i + 1}`, p])]);

/** The day after the extraction, signed in then (a session ends after 12 idle hours). */
async function afterExtraction(t: TestServer): Promise<Operator> {
  t.clock.set(Date.parse(RESULTS_DAY));
  return signIn(t);
}

async function runThroughPages(op: Operator, id: string): Promise<void> {
  for (const [path, form] of [
    ['/results', resultsForm],
    ['/run', {}],
  ] as const) {
    const res = await op.post(drawUrl(id, path), form);
    assert.equal(res.status, 303, `${path}: ${res.text}`);
  }
}

describe('the draws page', () => {
  test('opens in test mode; live is chosen by name, and says a live draw stays on record', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { luckyNumbers: 'auto', seriesCount: 10 });
    const op = await signIn(t);
    const opened = await op.get(`/dashboard/campaigns/${w.campaign.id}/draws`);
    assert.equal(opened.status, 200);
    assert.match(opened.text, /<h1>Draws <span class="badge">test<\/span><\/h1>/);
    assert.match(opened.text, /<input type="hidden" name="mode" value="test" \/>/);
    assert.match(opened.text, /<button type="submit">Create draw<\/button>/);
    assert.match(opened.text, new RegExp(`href="/dashboard/campaigns/${w.campaign.id}/draws\\?mode=live">Show live mode</a>`));
    // The campaign's nav leads to the draws page without a mode, from the live pages too: test mode.
    const overview = await op.get(`/dashboard/campaigns/${w.campaign.id}`);
    assert.match(overview.text, new RegExp(`<a href="/dashboard/campaigns/${w.campaign.id}/draws"\\s*>Draws</a>`));

    const live = await op.get(`/dashboard/campaigns/${w.campaign.id}/draws?mode=live`);
    assert.match(live.text, /<h1>Draws <span class="badge">live<\/span><\/h1>/);
    assert.match(textOf(live.text), /Live mode: a live draw is the promotion’s real draw\. It stays on record and cannot be removed/);
    assert.match(live.text, /<button type="submit">Create live draw<\/button>/);

    // A form sent without a mode makes a test draw.
    const res = await op.post(`/dashboard/campaigns/${w.campaign.id}/draws`, {
      name: 'Sem modo',
      cutoff: CUTOFF,
      extraction_date: '2026-11-25',
      winners: '1',
    });
    assert.equal(res.status, 303, res.text);
    assert.deepEqual(
      listDraws(t.ctx, w.campaign.id).map((d) => d.livemode),
      [false],
    );
  });

  test('dates are typed YYYY-MM-DD in text fields, never a date picker; 12/02/2026 is refused naming the form', async () => {
    const t = await server();
    const { w, id } = await drawWorld(t);
    const op = await afterExtraction(t);
    const list = await op.get(`/dashboard/campaigns/${w.campaign.id}/draws?mode=live`);
    const page = await op.get(drawUrl(id));
    for (const html of [list.text, page.text]) assert.doesNotMatch(html, /type="date"/, 'no browser date picker');
    assert.match(
      list.text,
      /Extraction date \(YYYY-MM-DD\)\s*<input\s+id="draw-extraction-date"[^>]*pattern="\[0-9\]\{4\}-\[0-9\]\{2\}-\[0-9\]\{2\}"/,
    );
    assert.match(
      page.text,
      /Extraction date \(YYYY-MM-DD\)\s*<input\s+id="results-date"[^>]*pattern="\[0-9\]\{4\}-\[0-9\]\{2\}-\[0-9\]\{2\}"/,
    );

    const created = await op.post(`/dashboard/campaigns/${w.campaign.id}/draws`, {
      mode: 'test',
      name: 'Data ambígua',
      cutoff: '2026-11-30T10:00:00-03:00',
      extraction_date: '12/02/2026',
      winners: '1',
    });
    assert.equal(created.status, 422);
    assert.match(textOf(created.text), /Extraction date \(YYYY-MM-DD\) must be a date YYYY-MM-DD, got "12\/02\/2026"/);
    const results = await op.post(drawUrl(id, '/results'), { ...resultsForm, date: '25/11/2026' });
    assert.equal(results.status, 422);
    assert.match(textOf(results.text), /Extraction date \(YYYY-MM-DD\) must be a date YYYY-MM-DD, got "25\/11\/2026"/);
    assert.equal(getDraw(t.ctx, id).extraction, null);
  });
});

describe('one draw', () => {
  test('every time the draw pages show says its zone (BRT, Brasília time), as the record says horário de Brasília', async () => {
    const t = await server();
    const { w, id } = await drawWorld(t);
    const op = await afterExtraction(t);
    await runThroughPages(op, id);
    const pages = [(await op.get(drawUrl(id))).text, (await op.get(`/dashboard/campaigns/${w.campaign.id}/draws?mode=live`)).text];
    for (const html of pages) {
      const times = html.match(/<time [^>]*>[^<]*<\/time>(?:\s*<abbr[^>]*>[^<]*<\/abbr>)?/g) ?? [];
      assert.ok(times.length > 0);
      for (const shown of times) assert.match(shown, /<\/time> <abbr title="Brasília time \(America\/Sao_Paulo\), UTC−03:00">BRT<\/abbr>$/);
    }
    assert.match(textOf(pages[0]!), /Times are Brasília time \(America\/Sao_Paulo\), UTC−03:00, shown as BRT/);
    assert.deepEqual(
      tableRows(pages[0]!).find((r) => r[0] === 'Cut-off'),
      ['Cut-off', '2026-11-22 10:00:00 BRT'],
    );
  });

  test('after Run the page opens at the winners: #winners, with the notice beside them', async () => {
    const t = await server();
    const { id } = await drawWorld(t);
    const op = await afterExtraction(t);
    assert.equal((await op.post(drawUrl(id, '/results'), resultsForm)).status, 303);
    const run = await op.post(drawUrl(id, '/run'), {});
    assert.equal(run.status, 303);
    assert.equal(run.headers.get('location'), `/dashboard/draws/${id}?done=run#winners`);
    const page = (await op.get(drawUrl(id, '?done=run'))).text;
    const at = page.indexOf('<div id="winners">');
    assert.ok(at > 0, 'the winners have their anchor');
    const notice = page.indexOf('The draw has run: check the winners');
    assert.ok(notice > at && notice < page.indexOf('<h2>Winners</h2>'), 'the notice is at the winners, where the page opens');
  });

  for (const [state, setUp, done, said] of [
    [
      'configured and active',
      'active',
      'published',
      /Published: the winners are final\. draw\.published is sent to the campaign’s webhook/,
    ],
    [
      'paused',
      'paused',
      'published-paused',
      /Published: the winners are final\. The campaign’s webhook is paused: draw\.published is recorded as skipped and is never sent/,
    ],
    [
      'not configured',
      'none',
      'published-unconfigured',
      /Published: the winners are final\. The campaign has no webhook: draw\.published is recorded as skipped/,
    ],
  ] as const)
    test(`publish says what becomes of draw.published when the webhook is ${state}`, async () => {
      const t = await server();
      const { w, id } = await drawWorld(t);
      if (setUp !== 'none') await configureWebhook(t, w.liveKey, 'https://partner.example/hooks');
      if (setUp === 'paused') patchWebhookConfig(t.ctx, w.campaign.id, { isActive: false }, OPERATOR);
      const op = await afterExtraction(t);
      await runThroughPages(op, id);
      const before = textOf((await op.get(drawUrl(id))).text);
      assert.match(before, new RegExp(said.source.replace('Published: the winners are final\\. ', '')));
      const res = await op.post(drawUrl(id, '/publish'), { confirm: 'Sorteio 1' });
      assert.equal(res.status, 303, res.text);
      assert.equal(res.headers.get('location'), `/dashboard/draws/${id}?done=${done}`);
      assert.match(textOf((await op.get(res.headers.get('location')!)).text), said);
      const [event] = listDeliveryViews(t.ctx, w.campaign.id, undefined, 50).filter((d) => d.event_type === 'draw.published');
      assert.equal(event?.status, setUp === 'active' ? 'pending' : 'skipped', 'the page says what the outbox did');
    });

  test('Fetch from Caixa shows what was read and records nothing; confirming reads it again and records it as from Caixa', async () => {
    const caixa = await startCaixa();
    const t = await server({ CES_LOTERIA_URL: caixa.url, CES_LOTERIA_TIMEOUT_MS: '400' });
    const { id } = await drawWorld(t);
    const op = await afterExtraction(t);
    const page = await op.get(drawUrl(id));
    assert.match(page.text, /<button type="submit">Fetch from Caixa<\/button>/);

    const read = await op.post(drawUrl(id, '/fetch'), { extraction: '5787' });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(caixa.paths, ['/portaldeloterias/api/federal/5787']);
    assert.match(textOf(read.text), /Read from Caixa: check before recording Extraction 5787 of 2026-11-25/);
    const shown = tableRows(read.text.slice(read.text.indexOf('id="from-caixa"')));
    assert.deepEqual(
      shown.slice(0, 5),
      PRIZES.map((p, i) => [`${['1st', '2nd', '3rd', '4th', '5th'][i]} prize`, p]),
    );
    assert.match(read.text, /<button type="submit">Record these results<\/button>/);
    assert.equal(getDraw(t.ctx, id).extraction, null, 'nothing recorded before the operator confirms');
    assert.deepEqual(listAuditRecords(t.ctx, { action: 'draw.results_recorded', limit: 10 }), []);

    const confirm = Object.fromEntries([['extraction', '5787'], ['date', '2026-11-25'], ...PRIZES.map((p, i) => [`prize${i + 1}`, p])]);
    // Caixa's answer changed since it was shown (or the form was altered): nothing is recorded.
    const other = ['050366', '012345', '067890', '011111', '022223'];
    caixa.answer = { status: 200, body: { ...FEDERAL_5787, listaDezenas: other, dezenasSorteadasOrdemSorteio: other } };
    const changed = await op.post(drawUrl(id, '/fetch/confirm'), confirm);
    assert.equal(changed.status, 409);
    assert.match(textOf(changed.text), /Caixa's answer for extraction 5787 is no longer the one shown: nothing was recorded\./);
    assert.equal(getDraw(t.ctx, id).extraction, null);

    caixa.answer = { status: 200, body: FEDERAL_5787 };
    const recorded = await op.post(drawUrl(id, '/fetch/confirm'), confirm);
    assert.equal(recorded.status, 303, recorded.text);
    assert.equal(recorded.headers.get('location'), `/dashboard/draws/${id}?done=fetched`);
    const draw = getDraw(t.ctx, id);
    assert.deepEqual(
      { number: draw.extraction?.number, date: draw.extraction?.date, prizes: draw.extraction?.prizes, source: draw.extraction?.source },
      { number: 5787, date: '2026-11-25', prizes: PRIZES.map((p) => p.slice(1)), source: 'caixa' },
    );
    const [audit] = listAuditRecords(t.ctx, { action: 'draw.results_recorded', limit: 10 });
    assert.equal(audit?.actor, `dashboard:${op.name}`);
    assert.equal(audit?.details.source, 'caixa');
    assert.match(textOf((await op.get(recorded.headers.get('location')!)).text), /Results recorded, as read from Caixa\./);
  });

  test('Fetch from Caixa: an extraction not published yet (404) or Caixa down (503) is said beside the form; a draw that has run is refused before Caixa is asked', async () => {
    const caixa = await startCaixa();
    const t = await server({ CES_LOTERIA_URL: caixa.url, CES_LOTERIA_TIMEOUT_MS: '400' });
    const { id } = await drawWorld(t);
    const op = await afterExtraction(t);
    caixa.answer = { status: 404, body: {} };
    const missing = await op.post(drawUrl(id, '/fetch'), { extraction: '5788' });
    assert.equal(missing.status, 404);
    assert.match(textOf(missing.text), /Caixa has no result for extraction 5788/);
    assert.match(missing.text, /id="fetch-extraction"[^>]*value="5788"/);
    assert.equal(getDraw(t.ctx, id).extraction, null);

    caixa.answer = { status: 200, body: FEDERAL_5787 };
    await runThroughPages(op, id);
    const asked = caixa.paths.length;
    const late = await op.post(drawUrl(id, '/fetch'), { extraction: '5787' });
    assert.equal(late.status, 409);
    assert.equal(caixa.paths.length, asked, 'Caixa is not asked for a draw that has run');
  });
});
