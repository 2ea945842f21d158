// The dashboard's Winners page over HTTP, in process (docs/operations.md#winners-page): the winners
// of a published draw with their masked participant, prize, status and deadlines, a deadline passed
// marked overdue, the income tax per prize and per due date; a step recorded with a file through a
// multipart form, its file downloaded with its SHA-256 (audited); and what is refused with nothing
// recorded: a file that is not a PDF, JPEG or PNG (422), a form without the CSRF token (403), a body
// past the files' cap, declared or streamed (413), a step on a winner whose story is over (409).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { listAuditRecords } from '../src/audit/audit.ts';
import { createDraw, freezeDraw, recordResults } from '../src/draws/lifecycle.ts';
import { publishDraw } from '../src/draws/publish.ts';
import { runDraw } from '../src/draws/run.ts';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../src/winners/attachments.ts';
import { listWinners } from '../src/winners/winners.ts';
import type { WinnerView } from '../src/winners/model.ts';
import { dashboardRequest, signIn, tableRows, textOf, type Operator } from './support/dashboard.ts';
import { statementsRun } from './support/query-plans.ts';
import {
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

/** The test server's clock starts at 2026-11-22T12:00Z; the draw's cut-off is an hour later and it runs half an hour after that. */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const RUN_AT = Date.parse('2026-11-22T13:30:00Z');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

interface Setup {
  t: TestServer;
  w: World;
  op: Operator;
  winners: WinnerView[];
}

/** A campaign whose live draw of 2 winners (a 15,990.00 prize each) is published; an operator signed in. */
async function publishedDraw(): Promise<Setup> {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  const w = makeCampaign(t.ctx, { name: 'Natal 2026', luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 2 });
  for (let i = 0; i < 4; i++) {
    const enrollment = { full_name: `Maria da Silva ${i}`, address: { city: 'Campinas', state: 'SP' } };
    await submitEntry(t, w.liveKey, entryBody({ enrollment }, 200 + i), `winners-live-${i}`);
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
      winners: 2,
      prizes: ['Moto 0 km=15990.00'],
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
  const op = await signIn(t);
  return { t, w, op, winners: listWinners(t.ctx, { campaignId: w.campaign.id, livemode: 1 }) };
}

const winnersUrl = (w: World, mode = 'live'): string => `/dashboard/campaigns/${w.campaign.id}/winners?mode=${mode}`;

/** A step POSTed as the browser sends the form: multipart/form-data, with the session's CSRF token unless `csrf` is false. */
async function postStep(
  s: Setup,
  winnerId: string,
  fields: Record<string, string>,
  files: Array<{ name: string; data: Buffer; type?: string }> = [],
  o: { csrf?: boolean } = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const form = new FormData();
  if (o.csrf !== false) form.append('csrf', s.op.csrf);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const f of files) form.append('attach', new File([new Uint8Array(f.data)], f.name, { type: f.type ?? 'application/pdf' }));
  const res = await s.t.fetch(`/dashboard/winners/${winnerId}/steps`, {
    method: 'POST',
    headers: { cookie: `${s.op.cookieName}=${s.op.cookie}` },
    body: form,
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const eventsOf = (s: Setup, winnerId: string): string[] =>
  listWinners(s.t.ctx, { campaignId: s.w.campaign.id, livemode: 1 })
    .find((x) => x.id === winnerId)!
    .events.map((e) => e.event);

describe('the Winners page', () => {
  test('the campaign nav links to Winners; the table shows each position with its participant masked, prize, status and deadlines', async () => {
    const s = await publishedDraw();
    const campaignPage = await s.op.get(`/dashboard/campaigns/${s.w.campaign.id}`);
    assert.match(campaignPage.text, new RegExp(`<a href="/dashboard/campaigns/${s.w.campaign.id}/winners"\\s*>Winners</a>`));
    const res = await s.op.get(winnersUrl(s.w));
    assert.equal(res.status, 200, res.text);
    assert.equal((res.text.match(/<h1[ >]/g) ?? []).length, 1, 'one h1');
    const rows = tableRows(res.text);
    assert.deepEqual(rows[0], ['Won by', 'Participant', 'Prize', 'Value (R$)', 'Status', 'Notify by', 'Deliver by', 'Prescribes after']);
    const [first] = s.winners;
    assert.equal(s.winners.length, 2);
    const row = rows.find((r) => r[0] === 'Sorteio de Natal, position 1');
    assert.ok(row, JSON.stringify(rows));
    assert.deepEqual(row.slice(2), ['Moto 0 km', '15990.00', 'awarded', '2026-12-02', '2026-12-22', '2027-05-21']);
    assert.equal(row[1], `${first.participant.name} ${first.participant.document} Campinas/SP`);
    assert.match(first.participant.name!, /^M\*\*\* d\*\*\* S\*\*\* /, 'masked');
    assert.doesNotMatch(res.text, /class="overdue[^"]*"><time/, 'nothing is overdue on the day of the draw');
    // Each open winner has its own step form, multipart, with the CSRF field.
    assert.equal((res.text.match(/enctype="multipart\/form-data"/g) ?? []).length, 2);
    assert.match(res.text, /<label for="attach-[^"]+"\s*>Files/);
  });

  test('the page brings prescriptions up to date once and reads the winners once, for their table and their taxes alike', async () => {
    const s = await publishedDraw();
    let page = '';
    const ran = await statementsRun(s.t.ctx.db, async () => {
      page = (await s.op.get(winnersUrl(s.w))).text;
    });
    assert.match(page, /<h2>Income tax on the prizes<\/h2>/);
    assert.equal(ran.filter((sql) => /WHERE prescribes_at < \?/.test(sql)).length, 1, 'the prescriptions due looked for once');
    assert.equal(ran.filter((sql) => /FROM winners\s+WHERE campaign_id = \?/.test(sql)).length, 1, 'the winners read once');
  });

  test('the income tax: 20% of each prize, due on the 3rd business day after the decêndio, summed per due date', async () => {
    const s = await publishedDraw();
    const page = (await s.op.get(winnersUrl(s.w))).text;
    const taxes = page.slice(page.indexOf('<h2>Income tax on the prizes</h2>'));
    const rows = tableRows(taxes);
    assert.deepEqual(
      rows.filter((r) => r[0].startsWith('Sorteio de Natal')),
      [
        ['Sorteio de Natal, position 1', 'Moto 0 km', '15990.00', '20%', '3198.00', '2026-11-22', '2026-12-03', '0916'],
        ['Sorteio de Natal, position 2', 'Moto 0 km', '15990.00', '20%', '3198.00', '2026-11-22', '2026-12-03', '0916'],
      ],
    );
    assert.deepEqual(
      rows.find((r) => r[0] === '2026-12-03'),
      ['2026-12-03', '0916', '2', '6396.00'],
    );
  });

  test('a step recorded with a PDF: the page shows it with the file’s SHA-256, and the download is the file, audited', async () => {
    const s = await publishedDraw();
    const [first] = s.winners;
    const res = await postStep(s, first.id, { event: 'delivered', note: 'Termo assinado na entrega' }, [{ name: 'termo.pdf', data: PDF }]);
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.get('location'), `${winnersUrl(s.w)}&done=recorded#winner-${first.id}`);
    assert.deepEqual(eventsOf(s, first.id), ['awarded', 'delivered']);
    const page = (await s.op.get(`${winnersUrl(s.w)}&done=recorded`)).text;
    assert.match(page, /<p class="notice success" role="status">Step recorded.<\/p>/);
    const sha256 = createHash('sha256').update(PDF).digest('hex');
    assert.match(page, new RegExp(`SHA-256 <code class="mono sha256">${sha256}</code>`));
    const link = new RegExp(`<a href="(/dashboard/winners/attachments/\\d+)" download>termo.pdf</a>`).exec(page);
    assert.ok(link, 'a download link');
    // Delivered is final: its form is gone, the other winner's stays.
    assert.equal((page.match(/enctype="multipart\/form-data"/g) ?? []).length, 1);
    const [recorded] = listAuditRecords(s.t.ctx, { action: 'winner.recorded', limit: 1 });
    assert.equal(recorded.actor, 'dashboard:maria');
    assert.deepEqual(recorded.details.attachments, [{ media_type: 'application/pdf', size: PDF.length, sha256 }]);

    const download = await s.t.fetch(link[1], { headers: { cookie: `${s.op.cookieName}=${s.op.cookie}` } });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="termo.pdf"; filename*=UTF-8''termo.pdf`);
    assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(
      createHash('sha256')
        .update(Buffer.from(await download.arrayBuffer()))
        .digest('hex'),
      sha256,
    );
    const [viewed] = listAuditRecords(s.t.ctx, { action: 'winner.attachment_viewed', limit: 1 });
    assert.equal(viewed.actor, 'dashboard:maria');
    assert.equal((await s.op.get('/dashboard/winners/attachments/999')).status, 404);
    assert.equal((await s.op.get('/dashboard/winners/attachments/x')).status, 404);
    assert.equal((await dashboardRequest(s.t, 'GET', link[1])).status, 303, 'no session: to the sign-in page');

    // A step on a winner whose story is over: 409, nothing recorded.
    const again = await postStep(s, first.id, { event: 'notified', note: 'late' });
    assert.equal(again.status, 409);
    assert.match(textOf(again.text), /the winner is delivered: that is final/);
    assert.deepEqual(eventsOf(s, first.id), ['awarded', 'delivered']);
  });

  test('a file that is not a PDF, JPEG or PNG is refused beside the form, the note kept, nothing recorded', async () => {
    const s = await publishedDraw();
    const [first] = s.winners;
    const res = await postStep(s, first.id, { event: 'delivered', note: 'Termo assinado' }, [
      { name: 'termo.pdf', data: Buffer.from('just text, whatever the name says\n') },
    ]);
    assert.equal(res.status, 422, res.text);
    assert.match(textOf(res.text), /Step not recorded: Files "termo.pdf" is not a PDF, JPEG or PNG file \(by its first bytes\)/);
    assert.match(res.text, new RegExp(`<input\\s+id="note-${first.id}"\\s+name="note"[^>]*\\svalue="Termo assinado"`));
    assert.match(res.text, /Choose the files again/);
    assert.deepEqual(eventsOf(s, first.id), ['awarded']);
    assert.equal(listAuditRecords(s.t.ctx, { action: 'winner.recorded', limit: 1 }).length, 0);
  });

  test('a multipart form without the CSRF token is 403; without a session, to the sign-in page; nothing recorded', async () => {
    const s = await publishedDraw();
    const [first] = s.winners;
    const res = await postStep(s, first.id, { event: 'notified', note: 'Ligação' }, [{ name: 'a.pdf', data: PDF }], { csrf: false });
    assert.equal(res.status, 403);
    assert.match(res.text, /did not come from this dashboard/);
    const urlencoded = await dashboardRequest(s.t, 'POST', `/dashboard/winners/${first.id}/steps`, {
      cookie: s.op.cookie,
      form: { event: 'notified', note: 'Ligação' },
    });
    assert.equal(urlencoded.status, 403);
    const anonymous = await dashboardRequest(s.t, 'POST', `/dashboard/winners/${first.id}/steps`, {
      form: { csrf: s.op.csrf, event: 'notified', note: 'Ligação' },
    });
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get('location'), '/dashboard/signin');
    assert.deepEqual(eventsOf(s, first.id), ['awarded']);
  });

  test('a body past the files’ cap is a 413 page, whether its length is declared or counted as it streams', async () => {
    const s = await publishedDraw();
    const [first] = s.winners;
    const cap = MAX_ATTACHMENTS * MAX_ATTACHMENT_BYTES + s.t.ctx.config.bodyLimitBytes;
    const cookie = `${s.op.cookieName}=${s.op.cookie}`;
    const declared = await s.t.fetch(`/dashboard/winners/${first.id}/steps`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(cap + 1) },
      body: new ReadableStream({ start: (c) => c.close() }),
      duplex: 'half',
      redirect: 'manual',
    } as RequestInit);
    assert.equal(declared.status, 413);
    assert.match(
      textOf(await declared.text()),
      /The files are too large: one step takes at most 5 files of 10 MiB each. Nothing was recorded./,
    );
    // No Content-Length: the body is counted as it arrives, and refused once past the cap.
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const streamed = await s.t.fetch(`/dashboard/winners/${first.id}/steps`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' },
      body: new ReadableStream({
        pull: (c) => {
          if (sent > cap + chunk.length) c.close();
          else {
            sent += chunk.length;
            c.enqueue(chunk);
          }
        },
      }),
      duplex: 'half',
      redirect: 'manual',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.equal(streamed.headers.get('content-security-policy')?.startsWith("default-src 'none'"), true, 'a dashboard page');
    assert.deepEqual(eventsOf(s, first.id), ['awarded']);
  });

  test('a deadline passed with its step not done is marked overdue; a notified winner is no longer late to be notified', async () => {
    const s = await publishedDraw();
    const [first, second] = s.winners;
    assert.equal((await postStep(s, second.id, { event: 'notified', note: 'Ligação atendida' })).status, 303);
    // The day after notify_by (2026-12-02), in Brasília; a new sign-in, as sessions last 7 days at most.
    s.t.clock.set(Date.parse('2026-12-03T12:00:00Z'));
    const op = await signIn(s.t);
    const page = (await op.get(winnersUrl(s.w))).text;
    const row = (name: string): string => {
      const start = page.indexOf(`<a href="#winner-`, page.indexOf(name) - 60);
      return page.slice(start, page.indexOf('</tr>', start));
    };
    assert.match(
      row('Sorteio de Natal, position 1'),
      /<td class="overdue nowrap"><time datetime="2026-12-02">2026-12-02<\/time> <strong>overdue<\/strong><\/td>/,
    );
    assert.doesNotMatch(row('Sorteio de Natal, position 2'), /overdue/);
    assert.equal(first.deadlines.notify_by, '2026-12-02');
  });

  test('test mode is its own list; a campaign without winners says so', async () => {
    const s = await publishedDraw();
    const res = await s.op.get(winnersUrl(s.w, 'test'));
    assert.equal(res.status, 200);
    assert.match(res.text, /No winner yet in test mode./);
    assert.match(res.text, /No prize bears tax./);
    assert.equal((await s.op.get(winnersUrl(s.w, 'nope'))).status, 422);
  });

  test('the prestação de contas (a draft) and the closing: refused before the prescriptions, confirmed, then forced with a reason', async () => {
    const s = await publishedDraw();
    const id = s.w.campaign.id;
    const page = (await s.op.get(winnersUrl(s.w))).text;
    assert.match(page, /<h2>Prestação de contas<\/h2>/);
    const draft = await s.op.get(`/dashboard/campaigns/${id}/accounts.md?mode=live`);
    assert.equal(draft.status, 200);
    assert.match(draft.headers.get('content-disposition') ?? '', /attachment; filename="prestacao-de-contas-/);
    assert.match(draft.text, /RASCUNHO: campanha não encerrada/);
    const printable = await s.op.get(`/dashboard/campaigns/${id}/accounts/print?mode=live`);
    assert.match(printable.text, /^<!doctype html>/);
    // The first POST asks; only the confirmed one acts, and is refused while prizes are still to prescribe.
    const asked = await s.op.post(`/dashboard/campaigns/${id}/close`, {});
    assert.equal(asked.status, 200);
    assert.match(asked.text, /Close campaign Natal 2026\?/);
    const early = await s.op.post(`/dashboard/campaigns/${id}/close`, { confirmed: 'yes' });
    assert.equal(early.status, 409);
    assert.match(textOf(early.text), /prescribe after 2027-05-21/);
    const noReason = await s.op.post(`/dashboard/campaigns/${id}/close`, { force: 'yes', confirmed: 'yes' });
    assert.equal(noReason.status, 422);
    const closed = await s.op.post(`/dashboard/campaigns/${id}/close`, { force: 'yes', reason: 'SPA pediu', confirmed: 'yes' });
    assert.equal(closed.status, 303);
    const after = (await s.op.get(winnersUrl(s.w))).text;
    assert.match(textOf(after), /Closed .* by dashboard:maria, before every prescription: SPA pediu/);
    assert.doesNotMatch(after, /enctype="multipart\/form-data"/, 'no step form once closed');
    const stored = await s.op.get(`/dashboard/campaigns/${id}/accounts.md?mode=live`);
    assert.doesNotMatch(stored.text, /RASCUNHO/);
    assert.equal(listAuditRecords(s.t.ctx, { campaignId: id, action: 'campaign.closed', limit: 5 })[0].actor, 'dashboard:maria');
  });
});
