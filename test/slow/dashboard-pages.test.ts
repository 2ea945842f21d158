// The dashboard's pages over real HTTP (issue 25): status, headers, and the figures each page shows
// against what the database holds, for the campaigns overview, a campaign's live page, the entries
// listing (filters, search, masking, keyset pages) and one entry (timeline, personal data on
// request, audited; redeliver).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { makeAccessKey } from '../../src/entries/fiscal-key.ts';
import {
  configureWebhook,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  runCli,
  startTestServer,
  submitEntry,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';
import { dashboardRequest, figureOf, rowStartingWith, signIn, tableRows, textOf, type Operator } from '../support/dashboard.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function server(): Promise<TestServer> {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  return t;
}

let counter = 0;
/** A live or test entry with its own participant and receipt (or the receipt given, to make a duplicate). */
async function entry(
  t: TestServer,
  key: string,
  o: { i?: number; accessKey?: string; enrollment?: Record<string, unknown> } = {},
): Promise<string> {
  const i = o.i ?? 100 + ++counter;
  const body = entryBody({ evidence: o.accessKey ? { access_key: o.accessKey } : undefined, enrollment: o.enrollment }, i);
  return (await submitEntry(t, key, body, `dash-${++counter}`)).entry_id;
}

/** Three approved live entries, one rejected (duplicate receipt) and one approved test entry, processed. */
async function processedWorld(t: TestServer, name = 'Verão 2026'): Promise<World & { ids: string[] }> {
  const w = makeCampaign(t.ctx, { name });
  const shared = makeAccessKey({ number: '000007777' });
  const ids = [
    await entry(t, w.liveKey, { accessKey: shared }),
    await entry(t, w.liveKey),
    await entry(t, w.liveKey),
    await entry(t, w.liveKey, { accessKey: shared }),
    await entry(t, w.testKey),
  ];
  await drainAll(t);
  return { ...w, ids };
}

async function ok(operator: Operator, path: string): Promise<string> {
  const res = await operator.get(path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 500)}`);
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  return res.text;
}

describe('campaigns overview', () => {
  test('each campaign with its state, entries today and in all by mode, approval rate, webhook and backlog', async () => {
    const t = await server();
    const w = await processedWorld(t);
    const closed = makeCampaign(t.ctx, {
      name: 'Natal 2025',
      startsAt: '2025-12-01T03:00:00Z',
      endsAt: '2025-12-26T03:00:00Z',
      apiEnabled: false,
    });
    // A day later (Sao Paulo), one more live entry, not processed yet.
    t.clock.advance(24 * 3600_000);
    await entry(t, w.liveKey);
    const maria = await signIn(t);
    const page = await ok(maria, '/dashboard/');
    assert.deepEqual(rowStartingWith(page, 'Verão 2026'), ['Verão 2026', 'open', 'enabled', 'live', '1', '5', '1', '3', '1', '75.0 %']);
    assert.deepEqual(
      tableRows(page).find((r, i, rows) => r[0] === 'test' && rows[i - 1]?.[0] === 'Verão 2026'),
      ['test', '0', '1', '0', '1', '0', '100.0 %'],
    );
    assert.deepEqual(rowStartingWith(page, 'Natal 2025').slice(0, 5), ['Natal 2025', 'closed', 'disabled', 'live', '0']);
    // Webhooks and backlog: no webhook; one entry unprocessed.
    const backlog = tableRows(page).filter((r) => r[0] === 'Verão 2026')[1];
    assert.deepEqual([backlog[1], backlog[5], backlog[6]], ['not set', '0', '1']);
    assert.match(page, new RegExp(`href="/dashboard/campaigns/${w.campaign.id}"`));
    assert.ok(closed);
  });

  test('webhook health: the last delivered event, and the failing state the scheduler reports', async () => {
    const t = await server();
    const receiver = await startReceiver({ respond: () => 200 });
    cleanups.push(() => receiver.close());
    const w = makeCampaign(t.ctx, { name: 'Hooked' });
    receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
    await entry(t, w.liveKey);
    await drainAll(t);
    const maria = await signIn(t);
    const row = tableRows(await ok(maria, '/dashboard/')).filter((r) => r[0] === 'Hooked')[1];
    assert.equal(row[1], 'active');
    assert.match(row[2], /^2026-11-22 09:00:00 \(200\)$/);
    assert.equal(row[4], 'healthy');
    assert.equal(row[5], '0', 'nothing pending');
  });
});

describe("a campaign's live page", () => {
  test('figures, entries per hour (SVG and table), rejection reasons, prize stock, lucky-number fill', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Sorte', luckyNumbers: 'auto', seriesCount: 2 });
    makePrize(t.ctx, w.campaign.id, 'live', 10, 'Vale-compras');
    const shared = makeAccessKey({ number: '000008888' });
    await entry(t, w.liveKey, { accessKey: shared });
    await entry(t, w.liveKey, { accessKey: shared });
    t.clock.advance(3 * 3600_000);
    await entry(t, w.liveKey);
    await drainAll(t);
    const maria = await signIn(t);
    const page = await ok(maria, `/dashboard/campaigns/${w.campaign.id}`);
    assert.equal([...page.matchAll(/<h1>/g)].length, 1);
    assert.equal(figureOf(page, 'Entries in all'), '3');
    assert.equal(figureOf(page, 'Entries today'), '3');
    assert.equal(figureOf(page, 'Approved'), '2');
    assert.equal(figureOf(page, 'Rejected'), '1');
    assert.equal(figureOf(page, 'Approval rate'), '66.7 %');
    assert.deepEqual(rowStartingWith(page, '2026-11-22 09:00:00'), ['2026-11-22 09:00:00', '1', '1', '0']);
    assert.deepEqual(rowStartingWith(page, '2026-11-22 12:00:00'), ['2026-11-22 12:00:00', '1', '0', '0']);
    assert.deepEqual(rowStartingWith(page, '2026-11-22 11:00:00'), ['2026-11-22 11:00:00', '0', '0', '0']);
    assert.equal(tableRows(page).filter((r) => /^2026-11-2\d \d\d:00:00$/.test(r[0])).length, 24, '24 hours');
    assert.match(page, /<svg class="chart"[^>]*role="img"/);
    assert.equal([...page.matchAll(/<rect\s+class="approved"/g)].length, 2, 'two hours with approved entries');
    assert.equal([...page.matchAll(/<rect\s+class="rejected"/g)].length, 1);
    assert.deepEqual(rowStartingWith(page, 'duplicate_receipt'), ['duplicate_receipt', '1', '100.0 %']);
    assert.deepEqual(rowStartingWith(page, 'Vale-compras').slice(0, 4), ['Vale-compras', 'voucher', '10', '10']);
    const lucky = t.ctx.db.prepare(`SELECT count(*) FROM lucky_numbers WHERE campaign_id = ?`).pluck().get(w.campaign.id);
    assert.equal(lucky, 2);
    assert.match(textOf(page), /2 of 200,000 pairs used \(0\.00 %\), auto allocation/);
    assert.match(page, /data-live="campaign"/);
    assert.match(page, /<script src="\/dashboard\/assets\/dashboard\.js" defer><\/script>/);
  });

  test('the current hour is counted on every view, earlier hours again once their counts are a minute old', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Horas' });
    await entry(t, w.liveKey);
    t.clock.advance(2 * 3600_000);
    const maria = await signIn(t);
    const path = `/dashboard/campaigns/${w.campaign.id}`;
    assert.deepEqual(rowStartingWith(await ok(maria, path), '2026-11-22 09:00:00'), ['2026-11-22 09:00:00', '0', '0', '1']);
    await drainAll(t, { advance: false });
    await entry(t, w.liveKey);
    const next = await ok(maria, path);
    assert.deepEqual(rowStartingWith(next, '2026-11-22 11:00:00'), ['2026-11-22 11:00:00', '0', '0', '1'], 'the current hour at once');
    assert.deepEqual(rowStartingWith(next, '2026-11-22 09:00:00'), ['2026-11-22 09:00:00', '0', '0', '1'], 'an earlier hour as counted');
    assert.equal(figureOf(next, 'Approved'), '1', 'the totals (entry_counts) are always current');
    t.clock.advance(60_000);
    assert.deepEqual(rowStartingWith(await ok(maria, path), '2026-11-22 09:00:00'), ['2026-11-22 09:00:00', '1', '0', '0']);
  });

  test('?mode=test shows the test mode, in any case; an unknown mode is 422 and an unknown campaign 404, as pages', async () => {
    const t = await server();
    const w = await processedWorld(t);
    const maria = await signIn(t);
    const test = await ok(maria, `/dashboard/campaigns/${w.campaign.id}?mode=test`);
    assert.equal(figureOf(test, 'Entries in all'), '1');
    assert.equal(figureOf(test, 'Approval rate'), '100.0 %');
    assert.equal(figureOf(await ok(maria, `/dashboard/campaigns/${w.campaign.id}?mode=TEST`), 'Entries in all'), '1');
    // The domain's one mode parser (src/keys/keys.ts toMode), as the CLI: 422 invalid_mode.
    const bad = await maria.get(`/dashboard/campaigns/${w.campaign.id}?mode=prod`);
    assert.equal(bad.status, 422);
    assert.match(bad.text, /mode must be live or test/);
    const missing = await maria.get('/dashboard/campaigns/0196a1b2-0000-7000-8000-000000000000');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type')!, /^text\/html/);
    // Ids are read case-insensitively, as everywhere else.
    assert.equal((await maria.get(`/dashboard/campaigns/${w.campaign.id.toUpperCase()}`)).status, 200);
  });

  test('webhook success rate and lag come from the recorded attempts', async () => {
    const t = await server();
    let answer = 200;
    const receiver = await startReceiver({ respond: () => answer });
    cleanups.push(() => receiver.close());
    const w = makeCampaign(t.ctx, { name: 'Hooks' });
    receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
    await entry(t, w.liveKey);
    await drainAll(t, { advance: false });
    answer = 500;
    await entry(t, w.liveKey);
    await drainAll(t, { advance: false });
    const attempts = t.ctx.db.prepare(`SELECT status_code FROM webhook_attempts`).pluck().all() as number[];
    const good = attempts.filter((s) => s === 200).length;
    assert.ok(good > 0 && good < attempts.length);
    const maria = await signIn(t);
    const page = await ok(maria, `/dashboard/campaigns/${w.campaign.id}`);
    const rate = rowStartingWith(page, 'Success rate')[1];
    assert.equal(
      rate,
      `${((good / attempts.length) * 100).toFixed(1)} % (${good} of ${attempts.length} attempts, among the server's last 5,000)`,
    );
    assert.match(rowStartingWith(page, 'Oldest event waiting')[1], /^\d+ (ms|s|min)$/, 'failed events wait for their retry');
  });
});

describe('entries', () => {
  test('filter by status, mode and day; personal data masked', async () => {
    const t = await server();
    const w = await processedWorld(t);
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}/entries`;
    const all = await ok(maria, base);
    const ids = (page: string) => [...page.matchAll(/href="\/dashboard\/entries\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    assert.deepEqual(ids(all).sort(), w.ids.slice(0, 4).sort());
    assert.deepEqual(ids(await ok(maria, `${base}?status=rejected`)), [w.ids[3]]);
    assert.deepEqual(ids(await ok(maria, `${base}?mode=test`)), [w.ids[4]]);
    assert.deepEqual(ids(await ok(maria, `${base}?from=2026-11-22&to=2026-11-22`)).length, 4);
    assert.deepEqual(ids(await ok(maria, `${base}?from=2026-11-23`)), []);
    assert.deepEqual(ids(await ok(maria, `${base}?to=2026-11-21`)), []);
    // Masked: the CPF of participant 101 shows only its middle digits.
    const document = t.ctx.db
      .prepare(`SELECT document_number FROM enrollments e JOIN entries n ON n.enrollment_id = e.id WHERE n.id = ?`)
      .pluck()
      .get(w.ids[0]) as string;
    assert.ok(all.includes(`***.${document.slice(3, 6)}.${document.slice(6, 9)}-**`));
    assert.ok(!all.includes(document) && !all.includes(`${document.slice(0, 3)}.${document.slice(3, 6)}`), 'no full CPF');
    for (const bad of ['from=22/11/2026', 'to=2026-13-45', 'before=xyz']) {
      const res = await maria.get(`${base}?${bad}`);
      assert.equal(res.status, 400, bad);
    }
    // A status the listing does not know is the listings' one check: 422, as the API and the CLI.
    const lost = await maria.get(`${base}?status=LOST`);
    assert.equal(lost.status, 422);
    assert.match(lost.text, /status must be one of PENDING, /);
  });

  test('find by entry id, by CPF/CNPJ written with or without punctuation, by e-mail in any case (a POST)', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Busca', allowCompanies: true });
    const a = await entry(t, w.liveKey, { i: 0, enrollment: { email: 'Maria.Silva@Example.com' } });
    const b = await entry(t, w.liveKey, { i: 0 });
    const other = await entry(t, w.liveKey, { i: 1 });
    const company = await entry(t, w.liveKey, { enrollment: { document_number: '11.222.333/0001-81' } });
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}/entries`;
    const search = async (q: string) => {
      const res = await maria.post(`${base}/search`, { q });
      assert.equal(res.status, 200, `${q}: ${res.text.slice(0, 300)}`);
      return res.text;
    };
    const ids = async (q: string) => [...(await search(q)).matchAll(/href="\/dashboard\/entries\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    assert.deepEqual((await ids('529.982.247-25')).sort(), [a, b].sort());
    assert.deepEqual((await ids('52998224725')).sort(), [a, b].sort());
    assert.deepEqual(await ids(other), [other]);
    assert.deepEqual(await ids(other.toUpperCase()), [other]);
    assert.deepEqual((await ids('maria.silva@example.COM')).sort(), [a, b].sort());
    assert.deepEqual(await ids('11222333000181'), [company]);
    assert.deepEqual(await ids('390.533.447-05'), [], 'a valid CPF of nobody');
    const page = await search('11222333000181');
    assert.ok(page.includes('**.222.333/****-**'), 'a CNPJ is masked too');
    const bad = await maria.post(`${base}/search`, { q: '123.456.789-00' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /check digits do not match/);
    assert.match(bad.text, /<form class="filters" method="post" action="[^"]+\/search"/, 'the form stays');
    // Another campaign's entry is not found here.
    const elsewhere = makeCampaign(t.ctx, { name: 'Outra' });
    const foreign = await entry(t, elsewhere.liveKey);
    assert.deepEqual(await ids(foreign), []);
    // A search needs the session's CSRF token, as every POST; an empty one is the listing itself.
    const forged = await dashboardRequest(t, 'POST', `${base}/search`, { cookie: maria.cookie, form: { q: '52998224725' } });
    assert.equal(forged.status, 403);
    const empty = await maria.post(`${base}/search`, { q: ' ', mode: 'test' });
    assert.equal(empty.status, 303);
    assert.equal(empty.headers.get('location'), `${base}?mode=test`);
  });

  test('no personal data in a URL: the search is POSTed, its pages too, and a q in a query string finds nothing', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Privada' });
    const mine: string[] = [];
    for (let i = 0; i < 60; i++) {
      mine.push(await entry(t, w.liveKey, { i: 0, enrollment: { email: 'ana@example.com' } }));
      if (i % 25 === 24) t.clock.advance(1000);
    }
    const others = [await entry(t, w.liveKey, { i: 1 }), await entry(t, w.liveKey, { i: 2 })];
    const maria = await signIn(t);
    const base = `/dashboard/campaigns/${w.campaign.id}/entries`;
    const cpf0 = '529.982.247-25';
    const listing = await ok(maria, base);
    const searchForm = /<form class="filters" method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(listing);
    assert.ok(searchForm, 'the search form posts');
    assert.equal(searchForm[1], `${base}/search`);
    assert.match(searchForm[2], /name="q"/);
    assert.doesNotMatch(
      /<form class="filters" method="get"[\s\S]*?<\/form>/.exec(listing)![0],
      /name="q"/,
      'the GET filter has no search field',
    );
    // Every page of the search: all 60 entries once, newest first; no link or form names the CPF in a URL.
    const seen: string[] = [];
    const sizes: number[] = [];
    let form: Record<string, string> | null = { q: cpf0 };
    while (form) {
      const res = await maria.post(`${base}/search`, form);
      assert.equal(res.status, 200, res.text.slice(0, 300));
      const ids = [...res.text.matchAll(/href="\/dashboard\/entries\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
      sizes.push(ids.length);
      seen.push(...ids);
      for (const url of [...res.text.matchAll(/(?:href|action)="([^"]*)"/g)].map((m) => m[1]))
        assert.ok(!/52998224725|529\.982|ana%40|ana@/i.test(url), `no personal data in ${url}`);
      const older = /<form method="post" action="([^"]+)">((?:(?!<\/form>)[\s\S])*?)>Older<\/button>/.exec(res.text);
      if (!older) form = null;
      else {
        assert.equal(older[1], `${base}/search`);
        const hidden = Object.fromEntries([...older[2].matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
        assert.equal(hidden.q, cpf0, 'the search goes with the page, in the body');
        assert.match(hidden.before, /^\d{4}-\d\d-\d\dT[\d:.]+Z\|[0-9a-f-]{36}$/, 'the cursor: an instant and an entry id');
        form = { q: hidden.q, before: hidden.before };
      }
    }
    assert.deepEqual(sizes, [50, 10]);
    const expected = t.ctx.db
      .prepare(`SELECT id FROM entries WHERE id IN (${mine.map(() => '?').join(',')}) ORDER BY created_at DESC, id DESC`)
      .pluck()
      .all(...mine);
    assert.deepEqual(seen, expected);
    // The e-mail finds the same participant.
    const byEmail = await maria.post(`${base}/search`, { q: 'ANA@example.com' });
    assert.equal([...byEmail.text.matchAll(/href="\/dashboard\/entries\//g)].length, 50);
    // An old bookmark or a hand-made URL with ?q= is the plain listing: a search is never read from a URL.
    const viaGet = await ok(maria, `${base}?q=${encodeURIComponent(cpf0)}`);
    const listed = [...viaGet.matchAll(/href="\/dashboard\/entries\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
    assert.ok(
      others.every((id) => listed.includes(id)),
      'not filtered by the q of the URL',
    );
  });

  test('keyset pages of 50: every entry once, newest first, also among entries of the same instant', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Muitas' });
    const created: string[] = [];
    for (let i = 0; i < 120; i++) {
      created.push(await entry(t, w.liveKey));
      if (i % 40 === 39) t.clock.advance(1000);
    }
    const maria = await signIn(t);
    const seen: string[] = [];
    let path: string | null = `/dashboard/campaigns/${w.campaign.id}/entries`;
    const sizes: number[] = [];
    while (path) {
      const page = await ok(maria, path);
      const ids = [...page.matchAll(/href="\/dashboard\/entries\/([0-9a-f-]{36})"/g)].map((m) => m[1]);
      sizes.push(ids.length);
      seen.push(...ids);
      path = /href="([^"]+)" rel="next"/.exec(page)?.[1]?.replaceAll('&amp;', '&') ?? null;
    }
    assert.deepEqual(sizes, [50, 50, 20]);
    assert.equal(new Set(seen).size, 120);
    const expected = t.ctx.db
      .prepare(`SELECT id FROM entries WHERE campaign_id = ? ORDER BY created_at DESC, id DESC`)
      .pluck()
      .all(w.campaign.id);
    assert.deepEqual(seen, expected);
    assert.ok(created.length === 120);
  });
});

describe('one entry', () => {
  test('its timeline: received, checks, webhook events with attempts and answers; redeliver one', async () => {
    const t = await server();
    const receiver = await startReceiver({ respond: () => ({ status: 200, body: 'thanks' }) });
    cleanups.push(() => receiver.close());
    const w = makeCampaign(t.ctx, { name: 'Linha do tempo' });
    receiver.setSecret(await configureWebhook(t, w.liveKey, receiver.url));
    const id = await entry(t, w.liveKey);
    await drainAll(t);
    const maria = await signIn(t);
    const page = await ok(maria, `/dashboard/entries/${id}`);
    const text = textOf(page);
    assert.match(text, /Received · 2026-11-22 09:00:00/);
    assert.match(text, /Checks: approved/);
    assert.match(text, /Mechanics evaluated/);
    const deliveries = t.ctx.db.prepare(`SELECT id, event_type FROM webhook_deliveries WHERE entry_id = ? ORDER BY seq`).all(id) as Array<{
      id: string;
      event_type: string;
    }>;
    assert.ok(deliveries.length >= 2);
    for (const d of deliveries) {
      assert.ok(page.includes(d.id), d.id);
      assert.match(text, new RegExp(`Webhook ${d.event_type.replace('.', '\\.')} ?: delivered`));
    }
    assert.match(text, /thanks/, "the receiver's answer");
    // Redeliver the first event: 303 back to the entry, the event pending again.
    const res = await maria.post(`/dashboard/entries/${id}/deliveries/${deliveries[0].id}/redeliver`);
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), `/dashboard/entries/${id}?redelivered=${deliveries[0].id}`);
    assert.equal(t.ctx.db.prepare(`SELECT status FROM webhook_deliveries WHERE id = ?`).pluck().get(deliveries[0].id), 'pending');
    assert.match(await ok(maria, res.headers.get('location')!), /queued again/);
    // Audited under the operator's name: the participant's data goes to the partner again.
    const audited = t.ctx.db.prepare(`SELECT actor, details FROM audit_log WHERE action = 'webhook.redelivered'`).all() as Array<{
      actor: string;
      details: string;
    }>;
    assert.deepEqual(
      audited.map((a) => ({ actor: a.actor, details: JSON.parse(a.details) })),
      [
        {
          actor: 'dashboard:maria',
          details: { delivery_id: deliveries[0].id, event_type: deliveries[0].event_type, entry_id: id, mode: 'live' },
        },
      ],
    );
    // Pending now: a second redeliver is a 409 page, and the CLI says the same.
    const again = await maria.post(`/dashboard/entries/${id}/deliveries/${deliveries[0].id}/redeliver`);
    assert.equal(again.status, 409);
    const cli = await runCli(['webhook', 'redeliver', deliveries[0].id, '--json'], { dbPath: t.dbPath });
    assert.equal(cli.json.error.code, 'delivery_pending');
    // Without the CSRF token nothing is queued.
    await drainAll(t);
    const forged = await maria.post(`/dashboard/entries/${id}/deliveries/${deliveries[1].id}/redeliver`, { csrf: 'nope' });
    assert.equal(forged.status, 403);
    assert.equal(t.ctx.db.prepare(`SELECT status FROM webhook_deliveries WHERE id = ?`).pluck().get(deliveries[1].id), 'delivered');
    // An event of another entry is not redelivered through this one.
    const otherId = await entry(t, w.liveKey);
    await drainAll(t);
    const foreign = t.ctx.db.prepare(`SELECT id FROM webhook_deliveries WHERE entry_id = ?`).pluck().get(otherId) as string;
    assert.equal((await maria.post(`/dashboard/entries/${id}/deliveries/${foreign}/redeliver`)).status, 404);
  });

  test('personal data masked until "Show personal data" (POST with CSRF), which is audited and not stored by the browser', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Dados' });
    const id = await entry(t, w.liveKey, {
      i: 0,
      enrollment: { full_name: 'Maria da Silva', email: 'maria@example.com', phone: '+55 11 98765-4321' },
    });
    const maria = await signIn(t);
    const masked = await ok(maria, `/dashboard/entries/${id}`);
    assert.ok(masked.includes('***.982.247-**'));
    assert.ok(masked.includes('M*** d*** S***'));
    assert.ok(masked.includes('m***@e***.com'));
    assert.ok(!masked.includes('529.982.247-25') && !masked.includes('Maria da Silva') && !masked.includes('maria@example.com'));
    assert.match(masked, /<button type="submit" class="secondary">\s*Show personal data\s*<\/button>/);
    const forged = await maria.post(`/dashboard/entries/${id}/personal-data`, { csrf: '' });
    assert.equal(forged.status, 403);
    assert.ok(!forged.text.includes('529.982.247-25'));
    const shown = await maria.post(`/dashboard/entries/${id}/personal-data`);
    assert.equal(shown.status, 200);
    assert.equal(shown.headers.get('cache-control'), 'no-store');
    for (const value of ['529.982.247-25', 'Maria da Silva', 'maria@example.com', '+5511987654321'])
      assert.ok(shown.text.includes(value), value);
    const audit = await runCli(['audit', 'list', '--action', 'participant.viewed', '--json'], { dbPath: t.dbPath });
    assert.equal(audit.json.length, 1, 'one view, one record (the forged POST recorded nothing)');
    assert.equal(audit.json[0].actor, 'dashboard:maria');
    assert.equal(audit.json[0].campaign_id, w.campaign.id);
    assert.equal(audit.json[0].details.entry_id, id);
    assert.ok(!JSON.stringify(audit.json).includes('Maria da Silva') && !JSON.stringify(audit.json).includes('52998224725'));
  });
});
