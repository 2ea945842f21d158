// The dashboard's Draws pages over HTTP, in process (docs/operations.md#running-a-draw-ces-draw,
// #dashboard): the list and the create form per campaign and mode, and one draw's page through
// freeze, results, run, disqualification and publication. Each action is checked where it lands:
// the status, the draw as the domain reads it back, the page, and the audit record under
// dashboard:<name>. Refusals change nothing: a POST without the CSRF token (403), a freeze before
// the cut-off (409), results that are not five prizes (422), a wrong typed confirmation (422),
// publishing before the run and disqualifying after publication (409).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { listAuditRecords, type AuditAction, type AuditRecord } from '../src/audit/audit.ts';
import { createDraw } from '../src/draws/lifecycle.ts';
import type { DrawDetail } from '../src/draws/model.ts';
import { getDraw, listDraws } from '../src/draws/views.ts';
import { maskDocument } from '../src/tools/masking.ts';
import { renderDrawClause } from '../src/draws/clause.ts';
import { renderDrawReport } from '../src/draws/report.ts';
import { cesCommand } from '../src/tools/runtime.ts';
import { escapeHtml } from '../src/tools/html.ts';
import type { WinnerStep } from '../src/draws/winners.ts';
import { listDeliveryViews } from '../src/webhooks/deliveries.ts';
import { findEnrollmentById } from '../src/entries/enrollments.repo.ts';
import { getEntry } from '../src/mechanics/entry-view.ts';
import { dashboardRequest, signIn, tableRows, textOf, type Operator } from './support/dashboard.ts';
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

/** The test server's clock starts at 2026-11-22T12:00Z; the draws' cut-off is an hour later (a session lasts 12 idle hours). */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const AFTER_CUTOFF = Date.parse('2026-11-22T13:30:00Z');
const PRIZES = ['12345', '023456', '34567', '45678', '56789'];

async function server(): Promise<TestServer> {
  const t = await startTestServer();
  cleanups.push(() => t.close());
  return t;
}

/** A campaign of 2 series whose `entries` approved live entries hold 2 lucky numbers each, and one test entry. */
async function luckyCampaign(t: TestServer, entries = 6): Promise<World> {
  const w = makeCampaign(t.ctx, { name: 'Natal 2026', luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 2 });
  for (let i = 0; i < entries; i++) await submitEntry(t, w.liveKey, entryBody({}, 200 + i), `draw-live-${i}`);
  await submitEntry(t, w.testKey, entryBody({}, 300), 'draw-test-0');
  await drainAll(t);
  return w;
}

function audits(t: TestServer, action: AuditAction): AuditRecord[] {
  return listAuditRecords(t.ctx, { action, limit: 100 });
}

/** The newest record of `action`, checked to be the operator's. */
function lastAudit(t: TestServer, action: AuditAction, op: Operator): AuditRecord {
  const [record] = audits(t, action);
  assert.ok(record, `an audit record ${action}`);
  assert.equal(record.actor, `dashboard:${op.name}`);
  return record;
}

/** The draws page opens in test mode; live is asked for by name. */
const drawsUrl = (w: World, mode = 'live'): string => `/dashboard/campaigns/${w.campaign.id}/draws?mode=${mode}`;
const drawUrl = (id: string, suffix = ''): string => `/dashboard/draws/${id}${suffix}`;

/** A draw made through the domain (the CLI's way), for the tests about later steps. */
function makeDraw(t: TestServer, w: World, o: { winners?: number; name?: string } = {}): string {
  return createDraw(
    t.ctx,
    {
      campaignId: w.campaign.id,
      mode: 'live',
      name: o.name ?? 'Sorteio 1',
      cutoff: CUTOFF,
      extractionDate: '2026-11-22',
      winners: o.winners,
    },
    OPERATOR,
  ).id;
}

/** Frozen, results entered and run through the dashboard; returns the draw as the domain reads it. */
async function runThroughPages(t: TestServer, op: Operator, id: string): Promise<DrawDetail> {
  t.clock.set(AFTER_CUTOFF);
  for (const [path, form] of [
    ['/freeze', {}],
    ['/results', { extraction: '5912', date: '2026-11-22', ...Object.fromEntries(PRIZES.map((p, i) => [`prize${i + 1}`, p])) }],
    ['/run', {}],
  ] as const) {
    const res = await op.post(drawUrl(id, path), form);
    assert.equal(res.status, 303, `${path}: ${res.text}`);
  }
  return getDraw(t.ctx, id);
}

const section = (page: string, heading: string): string => {
  const start = page.indexOf(`<h2>${heading}</h2>`);
  assert.ok(start >= 0, `a section "${heading}"`);
  const end = page.indexOf('<h2>', start + 4);
  return page.slice(start, end < 0 ? undefined : end);
};

describe('the draws of a campaign', () => {
  test('the campaign nav links to Draws; the page lists the draws of its mode with cut-off, status, eligible count and winners', async () => {
    const t = await server();
    const w = await luckyCampaign(t, 2);
    const op = await signIn(t);
    const live = makeDraw(t, w, { name: 'Sorteio semanal', winners: 3 });
    createDraw(t.ctx, { campaignId: w.campaign.id, mode: 'test', name: 'Ensaio', cutoff: CUTOFF, extractionDate: '2026-11-22' }, OPERATOR);
    const campaignPage = await op.get(`/dashboard/campaigns/${w.campaign.id}`);
    assert.match(campaignPage.text, new RegExp(`<a href="/dashboard/campaigns/${w.campaign.id}/draws"\\s*>Draws</a>`));
    const res = await op.get(drawsUrl(w));
    assert.equal(res.status, 200);
    assert.equal((res.text.match(/<h1>/g) ?? []).length, 1);
    const rows = tableRows(res.text);
    assert.deepEqual(rows[0], ['Draw', 'Cut-off', 'Status', 'Eligible numbers', 'Winners']);
    assert.deepEqual(rows.slice(1), [['Sorteio semanal', '2026-11-22 10:00:00 BRT', 'created, not frozen', 'not frozen', '3 to draw']]);
    assert.match(res.text, new RegExp(`href="/dashboard/draws/${live}"`));
    const test = await op.get(drawsUrl(w, 'test'));
    assert.deepEqual(tableRows(test.text).slice(1), [
      ['Ensaio', '2026-11-22 10:00:00 BRT', 'created, not frozen', 'not frozen', '1 to draw'],
    ]);
  });

  test('the create form shows the defaults for the campaign; creating leads to the draw (303) and is audited draw.created', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { luckyNumbers: 'auto', seriesCount: 250 });
    const op = await signIn(t);
    const form = await op.get(drawsUrl(w));
    assert.match(form.text, /Series digits \(default 1d,2d,3d\)\s*<input id="draw-series" name="series" value="1d,2d,3d"/);
    assert.match(form.text, /name="element" value="1u,2u,3u,4u,5u"/);
    assert.match(form.text, /name="one_win_per_document" type="checkbox" value="on"\s+checked/);
    const res = await op.post(`/dashboard/campaigns/${w.campaign.id}/draws`, {
      mode: 'test',
      name: 'Sorteio de Natal',
      cutoff: CUTOFF,
      extraction_date: '2026-12-02',
      winners: '5',
      series: '1d,2d,3d',
      element: '1u,2u,3u,4u,5c',
      approximation: 'up-wrap',
      empty_series: 'lower-first',
      place: 'Sede da promotora',
      prizes: 'Moto 0 km=15990.00\r\n',
    });
    assert.equal(res.status, 303, res.text);
    const [draw] = listDraws(t.ctx, w.campaign.id);
    assert.equal(res.headers.get('location'), `/dashboard/draws/${draw.id}?done=created`);
    assert.deepEqual(
      {
        livemode: draw.livemode,
        name: draw.name,
        cutoff: draw.cutoff,
        extraction_date: draw.extraction_date,
        winners_count: draw.winners_count,
        series_digits: draw.series_digits,
        element_digits: draw.element_digits,
        approximation: draw.approximation,
        one_win_per_document: draw.one_win_per_document,
        empty_series: draw.empty_series,
        place: draw.place,
        prizes: draw.prizes,
      },
      {
        livemode: false,
        name: 'Sorteio de Natal',
        cutoff: '2026-11-22T13:00:00.000Z',
        extraction_date: '2026-12-02',
        winners_count: 5,
        series_digits: '1d,2d,3d',
        element_digits: '1u,2u,3u,4u,5c',
        approximation: 'up-wrap',
        one_win_per_document: false,
        empty_series: 'lower-first',
        place: 'Sede da promotora',
        prizes: Array.from({ length: 5 }, (_, i) => ({ position: i + 1, description: 'Moto 0 km', value: '15990.00' })),
      },
    );
    const record = lastAudit(t, 'draw.created', op);
    assert.equal(record.details.draw_id, draw.id);
    const shown = await op.get(`/dashboard/draws/${draw.id}?done=created`);
    assert.match(shown.text, /Draw created\. Freeze it once its cut-off has passed\./);
    assert.deepEqual(
      tableRows(shown.text).find((r) => r[0] === 'Element digits'),
      ['Element digits', '1u,2u,3u,4u,5c'],
    );
  });

  test('a refused form comes back 422 with the typed values and the reason; nothing is created', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { luckyNumbers: 'auto', seriesCount: 10 });
    const op = await signIn(t);
    const res = await op.post(`/dashboard/campaigns/${w.campaign.id}/draws`, {
      mode: 'live',
      name: 'Sem fuso',
      cutoff: '2026-11-29T23:59:59',
      winners: '2',
      element: '1u,2u,3u,4u,5u',
      one_win_per_document: 'on',
    });
    assert.equal(res.status, 422);
    // The domain names the field; the page names it by its label, never by a flag.
    assert.match(textOf(res.text), /Cut-off must be a date-time with its zone/);
    assert.doesNotMatch(textOf(res.text), /--cutoff|`cutoff`/);
    assert.match(res.text, /name="name" required maxlength="200" value="Sem fuso"/);
    assert.match(res.text, /name="cutoff" required placeholder="[^"]*" value="2026-11-29T23:59:59"/);
    assert.deepEqual(listDraws(t.ctx, w.campaign.id), []);
    assert.deepEqual(audits(t, 'draw.created'), []);
  });

  test('a campaign that gives no lucky numbers has nothing to draw: the page says so and has no form', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx);
    const op = await signIn(t);
    const res = await op.get(drawsUrl(w));
    assert.equal(res.status, 200);
    assert.match(textOf(res.text), /This campaign gives no lucky numbers/);
    assert.doesNotMatch(res.text, /Create draw/);
  });
});

describe('one draw', () => {
  test('freeze before the cut-off is refused with the reason (409) and changes nothing; after it, the set is fixed and audited', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w);
    const early = await op.post(drawUrl(id, '/freeze'));
    assert.equal(early.status, 409);
    assert.match(textOf(early.text), /The draw's cut-off \(2026-11-22T13:00:00\.000Z\) has not passed yet/);
    assert.equal(getDraw(t.ctx, id).status, 'created');
    assert.deepEqual(audits(t, 'draw.frozen'), []);
    const numbersEarly = await op.get(drawUrl(id, '/numbers'));
    assert.equal(numbersEarly.status, 409, 'no list before the freeze');

    t.clock.set(AFTER_CUTOFF);
    const res = await op.post(drawUrl(id, '/freeze'));
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.get('location'), `/dashboard/draws/${id}?done=frozen`);
    const draw = getDraw(t.ctx, id);
    assert.equal(draw.status, 'frozen');
    assert.equal(draw.eligible_count, 12, '6 approved live entries, 2 numbers each');
    const record = lastAudit(t, 'draw.frozen', op);
    assert.deepEqual(record.details, { draw_id: id, eligible_count: 12, numbers_sha256: draw.numbers_sha256, pending_count: 0 });
    const page = await op.get(drawUrl(id));
    const frozen = section(page.text, 'Eligible numbers');
    assert.match(frozen, /<dt>Eligible numbers<\/dt>\s*<dd>12<\/dd>/);
    assert.ok(frozen.includes(draw.numbers_sha256!), 'the SHA-256 is shown');
    assert.doesNotMatch(frozen, /<button type="submit">Freeze<\/button>/);
  });

  test('the numbers download is the canonical list, the bytes numbers_sha256 is the hash of', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w);
    t.clock.set(AFTER_CUTOFF);
    assert.equal((await op.post(drawUrl(id, '/freeze'))).status, 303);
    const res = await op.get(drawUrl(id, '/numbers'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="draw-${id}-numbers.txt"`);
    const draw = getDraw(t.ctx, id);
    assert.equal(createHash('sha256').update(res.text).digest('hex'), draw.numbers_sha256);
    assert.equal(res.headers.get('x-numbers-sha256'), draw.numbers_sha256);
    const lines = res.text.split('\n');
    assert.equal(lines.pop(), '', 'each line ends in \\n');
    assert.equal(lines.length, 12);
    assert.ok(lines.every((l) => /^[01]\/\d{5}$/.test(l)));
    assert.deepEqual([...lines].sort(), lines, 'ascending');
    const held = t.ctx.db
      .prepare(`SELECT series, order_number FROM lucky_numbers WHERE campaign_id = ? AND livemode = 1 ORDER BY series, order_number`)
      .all(w.campaign.id) as Array<{ series: number; order_number: number }>;
    assert.deepEqual(
      lines,
      held.map((n) => `${n.series}/${String(n.order_number).padStart(5, '0')}`),
    );
  });

  test('results: a bad prize is refused (422) naming it, the typed values kept; five prizes are recorded and audited', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w);
    t.clock.set(AFTER_CUTOFF);
    const bad = await op.post(drawUrl(id, '/results'), {
      extraction: '5912',
      date: '2026-11-22',
      prize1: '12345',
      prize2: '2345',
      prize3: '34567',
      prize4: '45678',
      prize5: '56789',
    });
    assert.equal(bad.status, 422);
    assert.match(textOf(bad.text), /prize 2 \("2345"\) must be 5 digits, or 6 with a leading 0/);
    assert.match(bad.text, /id="results-prize2"\s+name="prize2"[^>]*value="2345"/);
    assert.equal(getDraw(t.ctx, id).extraction, null);
    assert.deepEqual(audits(t, 'draw.results_recorded'), []);

    const res = await op.post(drawUrl(id, '/results'), {
      extraction: '5912',
      date: '2026-11-22',
      ...Object.fromEntries(PRIZES.map((p, i) => [`prize${i + 1}`, p])),
    });
    assert.equal(res.status, 303, res.text);
    const draw = getDraw(t.ctx, id);
    assert.equal(draw.status, 'frozen', 'recording the results froze the draw first');
    assert.deepEqual(
      { number: draw.extraction!.number, date: draw.extraction!.date, prizes: draw.extraction!.prizes },
      { number: 5912, date: '2026-11-22', prizes: ['12345', '23456', '34567', '45678', '56789'] },
    );
    assert.equal(lastAudit(t, 'draw.results_recorded', op).details.extraction, 5912);
    assert.equal(lastAudit(t, 'draw.frozen', op).details.draw_id, id);
    const page = await op.get(drawUrl(id));
    const rows = tableRows(section(page.text, 'Loteria Federal results'));
    assert.deepEqual(rows.slice(0, 7), [
      ['Extraction', '5912'],
      ['Date', '2026-11-22'],
      ['1st prize', '012345'],
      ['2nd prize', '023456'],
      ['3rd prize', '034567'],
      ['4th prize', '045678'],
      ['5th prize', '056789'],
    ]);
    assert.match(page.text, /<button type="submit">Run draw<\/button>/);
  });

  test('run: winners with their entry and masked document, and the derivation step by step; audited draw.run', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { winners: 3 });
    const draw = await runThroughPages(t, op, id);
    assert.equal(draw.status, 'drawn');
    assert.equal(draw.winners.length, 3);
    assert.equal(lastAudit(t, 'draw.run', op).details.formed, '0/56789');
    const page = (await op.get(drawUrl(id, '?done=run'))).text;
    assert.match(page, /The draw has run: check the winners/);

    const winners = tableRows(section(page, 'Winners'));
    assert.deepEqual(winners[0], ['Position', 'Number', 'Entry', 'Document']);
    assert.deepEqual(
      winners.slice(1),
      draw.winners.map((x) => {
        const enrollment = findEnrollmentById(t.ctx.db, getEntry(t.ctx, x.entry_id).enrollment_id)!;
        return [String(x.position), x.number, x.entry_id, maskDocument(enrollment.document_type, enrollment.document_number)];
      }),
    );
    for (const x of draw.winners) assert.ok(page.includes(`href="/dashboard/entries/${x.entry_id}"`), 'each winner links to its entry');
    assert.doesNotMatch(page, /\b\d{11}\b/, 'no document in full');

    const derivation = textOf(section(page, 'Derivation, step by step'));
    // The 1st prize's tens (4) past the last of 2 series: 2 subtracted twice gives series 0; the units make 56789.
    const formation = [
      'Series: 4, the tens digit of the 1st prize (ticket 012345).',
      'Series 4 is beyond the 2 series: 4 − 2 × 2 = 0.',
      'Element: 5, the units digit of the 1st prize (ticket 012345).',
      'Element: 6, the units digit of the 2nd prize (ticket 023456).',
      'Element: 7, the units digit of the 3rd prize (ticket 034567).',
      'Element: 8, the units digit of the 4th prize (ticket 045678).',
      'Element: 9, the units digit of the 5th prize (ticket 056789).',
      'The formed number is 0/56789.',
    ];
    assert.ok(derivation.includes(formation.join(' ')), `the formation, in order, in ${derivation}`);
    // Winner 1 by SCPC from 0/56789; winners 2 and 3 each the next number upwards after the one before,
    // passing over a number whose participant already won (each participant holds 2 numbers).
    const num = (series: number, element: number): string => `${series}/${String(element).padStart(5, '0')}`;
    const el = (series: number, e: number | null): string => (e === null ? 'none' : num(series, e));
    const said = (step: WinnerStep): string => {
      switch (step.kind) {
        case 'formed':
          return `Formed number ${num(step.series, step.element)}: ${step.eligible ? 'eligible' : 'not eligible (not distributed or not valid)'}.`;
        case 'series_search':
          return `Series ${step.series} from ${num(step.series, step.from)}: nearest eligible above ${el(step.series, step.above)}, below ${el(step.series, step.below)}: nearest ${num(step.series, step.chosen!)}.`;
        case 'next_upwards':
          return `Next eligible number upwards from ${num(step.after.series, step.after.element)}${step.wrapped ? ', wrapping to the first series' : ''}: ${num(step.series, step.element)}.`;
        case 'skipped':
          assert.equal(step.reason, 'document_already_won');
          return `${num(step.series, step.element)} passed over: its participant already won in this draw.`;
        default:
          assert.fail(`no ${step.kind} step expected here`);
      }
    };
    assert.deepEqual(
      draw.winners[0].steps.map((step) => step.kind),
      ['formed', 'series_search'],
      '0/56789 is not among 12 numbers; series 0 holds some of them',
    );
    for (const x of draw.winners)
      assert.ok(
        derivation.includes(`${x.position} ${x.number} ${x.steps.map(said).join(' ')} winner`),
        `winner ${x.position} in ${derivation}`,
      );
    const positions = tableRows(section(page, 'Derivation, step by step')).filter((r) => /^\d+$/.test(r[0]));
    assert.deepEqual(
      positions.map((r) => [r[0], r[1], r[3]]),
      draw.winners.map((x) => [String(x.position), x.number, 'winner']),
    );
    assert.doesNotMatch(page, /Record results|Run draw/, 'the results and the run are closed once run');
  });

  test('disqualify: a wrong confirmation changes nothing (422) and says so; the number confirms; the position is filled again', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { winners: 2 });
    const before = await runThroughPages(t, op, id);
    const target = before.winners[0];
    const wrong = await op.post(drawUrl(id, '/disqualify'), {
      position: '1',
      reason: 'Nota fiscal cancelada',
      confirm: before.winners[1].number,
    });
    assert.equal(wrong.status, 422);
    assert.match(textOf(wrong.text), /The confirmation does not match the number of the winner at position 1: nothing changed\./);
    assert.match(wrong.text, /name="reason" required maxlength="1000" value="Nota fiscal cancelada"/, 'the reason is kept');
    assert.deepEqual(getDraw(t.ctx, id), before);
    assert.deepEqual(audits(t, 'draw.winner_disqualified'), []);

    const res = await op.post(drawUrl(id, '/disqualify'), {
      position: '1',
      reason: 'Nota fiscal cancelada',
      confirm: ` ${target.number} `,
    });
    assert.equal(res.status, 303, res.text);
    assert.equal(res.headers.get('location'), `/dashboard/draws/${id}?done=disqualified#winners`);
    const after = getDraw(t.ctx, id);
    assert.deepEqual(
      after.disqualified.map((d) => [d.position, d.number, d.reason]),
      [[1, target.number, 'Nota fiscal cancelada']],
    );
    assert.equal(after.winners[1].number, before.winners[1].number, 'the other position does not change');
    assert.notEqual(after.winners[0].number, target.number);
    const record = lastAudit(t, 'draw.winner_disqualified', op);
    assert.deepEqual(record.details, { draw_id: id, position: 1, number: target.number, replaced_by: after.winners[0].number });

    const page = (await op.get(drawUrl(id))).text;
    const disqualified = tableRows(section(page, 'Disqualified winners'));
    assert.deepEqual(
      disqualified.slice(1).map((r) => [r[0], r[1], r[2], r[4]]),
      [['1', target.number, target.entry_id, 'Nota fiscal cancelada']],
    );
    const positions = tableRows(section(page, 'Derivation, step by step')).filter((r) => r[0] === '1');
    assert.deepEqual(
      positions.map((r) => [r[1], r[3].replace(/ \d{4}-.*$/, '')]),
      [
        [target.number, 'disqualified'],
        [after.winners[0].number, `winner (replaces the disqualified ${target.number})`],
      ],
    );
  });

  test('disqualify: the position and the number are compared as numbers, so every spelling of them behaves alike', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { winners: 2 });
    const before = await runThroughPages(t, op, id);
    const [first, second] = before.winners;
    // A wrong number is refused however the position is written.
    for (const position of ['1', '01', '001', ' 1 ', '1.0']) {
      const wrong = await op.post(drawUrl(id, '/disqualify'), { position, reason: 'Nota fiscal cancelada', confirm: second.number });
      assert.equal(wrong.status, 422, `position "${position}"`);
      assert.match(textOf(wrong.text), /The confirmation does not match the number of the winner at position 1: nothing changed\./);
    }
    for (const confirm of [`${first.series + 1}/${first.element}`, `${first.series}/${first.element + 1}`, '', 'x', `${first.number}0`]) {
      const wrong = await op.post(drawUrl(id, '/disqualify'), { position: '01', reason: 'Nota fiscal cancelada', confirm });
      assert.equal(wrong.status, 422, `confirm "${confirm}"`);
    }
    assert.deepEqual(getDraw(t.ctx, id), before);
    assert.deepEqual(audits(t, 'draw.winner_disqualified'), []);
    // The right number confirms however it is written: the series and the element with more or fewer zeros.
    const spelled = `0${first.series} / ${String(first.element).padStart(6, '0')}`;
    assert.notEqual(spelled, first.number);
    const res = await op.post(drawUrl(id, '/disqualify'), { position: '01', reason: 'Nota fiscal cancelada', confirm: spelled });
    assert.equal(res.status, 303, res.text);
    assert.deepEqual(
      getDraw(t.ctx, id).disqualified.map((d) => [d.position, d.number]),
      [[1, first.number]],
    );
  });

  test('void: a reason is needed (422); the first POST asks and changes nothing; the confirmed one voids, audited; a published draw cannot be', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { name: 'Sorteio errado' });
    assert.match((await op.get(drawUrl(id))).text, /<h2>Void<\/h2>/);
    const empty = await op.post(drawUrl(id, '/void'), { reason: '  ' });
    assert.equal(empty.status, 422);
    assert.match(textOf(empty.text), /Reason must not be empty/);
    const asked = await op.post(drawUrl(id, '/void'), { reason: 'Regra de aproximação errada' });
    assert.equal(asked.status, 200);
    assert.match(textOf(asked.text), /Void draw Sorteio errado\?/);
    assert.match(asked.text, /<button type="submit" class="danger">Void the draw<\/button>/);
    assert.equal(getDraw(t.ctx, id).status, 'created');
    assert.deepEqual(audits(t, 'draw.voided'), []);
    const res = await op.post(drawUrl(id, '/void'), { reason: 'Regra de aproximação errada', confirmed: 'yes' });
    assert.equal(res.status, 303, res.text);
    const draw = getDraw(t.ctx, id);
    assert.deepEqual([draw.status, draw.void_reason, draw.voided_by], ['voided', 'Regra de aproximação errada', `dashboard:${op.name}`]);
    assert.deepEqual(lastAudit(t, 'draw.voided', op).details, {
      draw_id: id,
      status_before: 'created',
      extraction: null,
      reason: 'Regra de aproximação errada',
    });
    const page = textOf((await op.get(drawUrl(id))).text);
    assert.match(page, /Voided 2026-11-22 09:00:00 BRT by dashboard:\S+: Regra de aproximação errada/);
    assert.doesNotMatch(page, /Freeze anyway|Record results|Run draw/);
    assert.equal((await op.post(drawUrl(id, '/freeze'), {})).status, 409);

    const other = makeDraw(t, w, { name: 'Sorteio certo' });
    await runThroughPages(t, op, other);
    assert.equal((await op.post(drawUrl(other, '/publish'), { confirm: 'Sorteio certo' })).status, 303);
    const late = await op.post(drawUrl(other, '/void'), { reason: 'tarde', confirmed: 'yes' });
    assert.equal(late.status, 409);
    assert.match(textOf(late.text), /The draw is published: its winners are final, and it can no longer be voided\./);
  });

  test('freeze: refused while entries received by the cut-off are pending (409, with the count); forced with a reason it goes ahead', async () => {
    const t = await server();
    const w = await luckyCampaign(t, 2);
    await submitEntry(t, w.liveKey, entryBody({}, 290), 'draw-pending-0');
    const op = await signIn(t);
    const id = makeDraw(t, w);
    t.clock.set(AFTER_CUTOFF);
    const refused = await op.post(drawUrl(id, '/freeze'), {});
    assert.equal(refused.status, 409);
    assert.match(textOf(refused.text), /1 entry received by the cut-off is still pending verification/);
    assert.equal(getDraw(t.ctx, id).status, 'created');
    const forced = await op.post(drawUrl(id, '/freeze'), { force: 'yes', reason: 'Verificador fora do ar' });
    assert.equal(forced.status, 303, forced.text);
    const draw = getDraw(t.ctx, id);
    assert.deepEqual([draw.status, draw.pending_at_freeze, draw.freeze_reason], ['frozen', 1, 'Verificador fora do ar']);
  });

  test('publish: refused before the run (409); a wrong name changes nothing (422); the name publishes, audited and sent to the webhook', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { name: 'Sorteio final', winners: 2 });
    const early = await op.post(drawUrl(id, '/publish'), { confirm: 'Sorteio final' });
    assert.equal(early.status, 409);
    assert.match(textOf(early.text), /Run the draw before publishing it/);
    assert.doesNotMatch(textOf(early.text), /ces draw/);
    assert.equal(getDraw(t.ctx, id).status, 'created');

    const drawn = await runThroughPages(t, op, id);
    const wrong = await op.post(drawUrl(id, '/publish'), { confirm: 'Sorteio' });
    assert.equal(wrong.status, 422);
    assert.match(textOf(wrong.text), /The confirmation does not match the draw’s name: nothing was published\./);
    assert.equal(getDraw(t.ctx, id).status, 'drawn');
    assert.deepEqual(audits(t, 'draw.published'), []);

    const res = await op.post(drawUrl(id, '/publish'), { confirm: 'Sorteio final' });
    assert.equal(res.status, 303, res.text);
    assert.equal(getDraw(t.ctx, id).status, 'published');
    assert.deepEqual(lastAudit(t, 'draw.published', op).details, {
      draw_id: id,
      winners: 2,
      record_sha256: getDraw(t.ctx, id).record_sha256,
    });
    const [event] = listDeliveryViews(t.ctx, w.campaign.id, undefined, 50).filter((d) => d.event_type === 'draw.published');
    assert.ok(event, 'draw.published was queued for the webhook');
    const page = (await op.get(drawUrl(id))).text;
    assert.match(textOf(page), /Published 2026-11-22 10:30:00 BRT : the winners are final\./);
    assert.doesNotMatch(page, /Disqualify winner|Publish draw/);

    const late = await op.post(drawUrl(id, '/disqualify'), { position: '1', reason: 'tarde demais', confirm: drawn.winners[0].number });
    assert.equal(late.status, 409);
    assert.match(textOf(late.text), /The draw is published: its winners are final\./);
    assert.deepEqual(getDraw(t.ctx, id).disqualified, []);
    assert.deepEqual(audits(t, 'draw.winner_disqualified'), []);
  });

  test('the record: refused before the run (409); then Markdown and HTML downloads, and a print view without the dashboard around it', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { name: 'Sorteio do ata', winners: 2 });
    for (const path of ['/report.md', '/report.html', '/print']) assert.equal((await op.get(drawUrl(id, path))).status, 409, path);
    assert.doesNotMatch((await op.get(drawUrl(id))).text, /Print the record/);

    const draw = await runThroughPages(t, op, id);
    const page = (await op.get(drawUrl(id))).text;
    assert.match(page, new RegExp(`<a href="/dashboard/draws/${id}/print">Print the record</a>`));
    assert.match(textOf(section(page, 'Apuração record')), /Until the draw is published it is marked as a draft\./);

    const md = await op.get(drawUrl(id, '/report.md'));
    assert.equal(md.status, 200);
    assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.equal(md.headers.get('content-disposition'), `attachment; filename="draw-${id}-ata.md"`);
    assert.equal(md.text, renderDrawReport(t.ctx, id, 'md', `${cesCommand()} draw numbers ${id}`));
    assert.ok(md.text.includes(draw.numbers_sha256!));
    assert.ok(
      md.text.includes(`\`${cesCommand()} draw numbers ${id}\` a reproduz`),
      'the record says how to write the list again, as the server runs ces',
    );
    for (const x of draw.winners) assert.ok(md.text.includes(`| ${x.position}º | ${x.number} |`), `winner ${x.position} in the record`);

    const file = await op.get(drawUrl(id, '/report.html'));
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-disposition'), `attachment; filename="draw-${id}-ata.html"`);
    assert.equal(file.text, renderDrawReport(t.ctx, id, 'html', `${cesCommand()} draw numbers ${id}`));

    const print = await op.get(drawUrl(id, '/print'));
    assert.equal(print.status, 200);
    assert.equal(print.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(print.headers.get('content-disposition'), null, 'shown, not downloaded');
    assert.equal(print.text, renderDrawReport(t.ctx, id, 'html', `${cesCommand()} draw numbers ${id}`));
    assert.equal([...print.text.matchAll(/<h1>/g)].length, 1);
    assert.doesNotMatch(print.text, /ces dashboard|Sign out|<nav|<script|<form/, 'no dashboard chrome, no script, no form');
    // Its policy allows its own stylesheet (by hash) and nothing else.
    const [, style] = /<style>([\s\S]*?)<\/style>/.exec(print.text)!;
    const hash = createHash('sha256').update(style).digest('base64');
    assert.equal(
      print.headers.get('content-security-policy'),
      `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
    );
    assert.equal(print.headers.get('x-frame-options'), 'DENY');
    assert.equal(print.headers.get('cache-control'), 'no-store');
    const anonymous = await dashboardRequest(t, 'GET', drawUrl(id, '/print'));
    assert.equal(anonymous.status, 303, 'the record needs a session too');
  });

  test('the record shows what operators and participants wrote as typed: no HTML, comment or bidirectional control of theirs is read as such', async () => {
    const t = await server();
    const w = makeCampaign(t.ctx, { name: 'Natal <!-- 2026', luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 2 });
    const participant = { full_name: '\u202eairaM <b>Silva</b>', address: { city: '<!-- Campinas', state: 'SP' } };
    for (let i = 0; i < 4; i++) await submitEntry(t, w.liveKey, entryBody({ enrollment: participant }, 400 + i), `escaped-${i}`);
    await drainAll(t);
    const op = await signIn(t);
    const id = createDraw(
      t.ctx,
      {
        campaignId: w.campaign.id,
        mode: 'live',
        name: 'Sorteio <!-- oculto',
        cutoff: CUTOFF,
        extractionDate: '2026-11-22',
        winners: 2,
        place: '<b>Sede</b> *Rua* [x](https://evil.example) `a` | b',
        prizes: ['Moto <i>0 km</i>=15990.00'],
      },
      OPERATOR,
    ).id;
    const drawn = await runThroughPages(t, op, id);
    const reason = 'Nota <!-- cancelada --> & _falsa_';
    const res = await op.post(drawUrl(id, '/disqualify'), { position: '2', reason, confirm: drawn.winners[1].number });
    assert.equal(res.status, 303, res.text);
    const md = renderDrawReport(t.ctx, id, 'md', 'ces draw numbers');
    // Every markup character of theirs is escaped: none opens a tag or a comment, none starts emphasis, a link or code.
    assert.doesNotMatch(md, /(^|[^\\])[<>]/m, 'no < or > unescaped');
    for (const text of [
      '# Ata de apuração: Sorteio \\<!-- oculto',
      '- Promoção: Natal \\<!-- 2026 (campanha',
      '- Local da apuração: \\<b\\>Sede\\</b\\> \\*Rua\\* \\[x\\](https://evil.example) \\`a\\` \\| b',
      '| 1º | Moto \\<i\\>0 km\\</i\\>, R$ 15990.00 |',
      '| Nota \\<!-- cancelada --\\> \\& \\_falsa\\_ |',
      '| \\\\u202e\\*\\*\\* \\<\\*\\*\\* | \\<!-- Campinas/SP |',
      '## Assinaturas',
    ])
      assert.ok(md.includes(text), `the record holds ${text}`);
    assert.doesNotMatch(md, /[\u202e\u001b]/, 'no bidirectional control or ESC, the masked initial included');
    // The printable record escapes them as HTML.
    const print = (await op.get(drawUrl(id, '/print'))).text;
    assert.ok(print.includes('Sorteio &lt;!-- oculto') && !print.includes('<!--'));
  });

  test('the regulation clause is on the page from the start, and downloads as text', async () => {
    const t = await server();
    const w = await luckyCampaign(t, 1);
    const op = await signIn(t);
    const id = makeDraw(t, w, { winners: 2 });
    const clause = renderDrawClause(t.ctx, id);
    assert.match(clause, /^CLÁUSULA/);
    const page = (await op.get(drawUrl(id))).text;
    assert.ok(page.includes(`<pre class="clause">${escapeHtml(clause)}</pre>`), 'the clause, as text, on the page');
    const res = await op.get(drawUrl(id, '/clause.txt'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="draw-${id}-clausula.txt"`);
    assert.equal(res.text, clause);
  });

  test('every action needs the session’s CSRF token: without it 403, and nothing changes', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { winners: 2 });
    t.clock.set(AFTER_CUTOFF);
    const attempts: Array<[string, Record<string, string>]> = [
      [`/dashboard/campaigns/${w.campaign.id}/draws`, { mode: 'live', name: 'Sem token', cutoff: CUTOFF }],
      [drawUrl(id, '/freeze'), {}],
      [drawUrl(id, '/results'), { extraction: '1', date: '2026-11-22', ...Object.fromEntries(PRIZES.map((p, i) => [`prize${i + 1}`, p])) }],
      [drawUrl(id, '/run'), {}],
      [drawUrl(id, '/disqualify'), { position: '1', reason: 'x', confirm: '0/00000' }],
      [drawUrl(id, '/publish'), { confirm: 'Sorteio 1' }],
    ];
    for (const [path, form] of attempts) {
      const res = await dashboardRequest(t, 'POST', path, { cookie: op.cookie, form });
      assert.equal(res.status, 403, path);
      const other = await dashboardRequest(t, 'POST', path, { cookie: op.cookie, form: { ...form, csrf: 'not-the-token' } });
      assert.equal(other.status, 403, path);
    }
    assert.equal(listDraws(t.ctx, w.campaign.id).length, 1);
    assert.equal(getDraw(t.ctx, id).status, 'created');
    for (const action of ['draw.frozen', 'draw.results_recorded', 'draw.run', 'draw.winner_disqualified', 'draw.published'] as const)
      assert.deepEqual(audits(t, action), [], action);
  });

  test('the pages are one-h1 HTML with the dashboard’s headers, and what an operator typed is shown as text', async () => {
    const t = await server();
    const w = await luckyCampaign(t);
    const op = await signIn(t);
    const id = makeDraw(t, w, { name: '<script>alert(1)</script>', winners: 2 });
    const drawn = await runThroughPages(t, op, id);
    const reason = '<img src=x onerror=alert(2)>';
    const res = await op.post(drawUrl(id, '/disqualify'), { position: '2', reason, confirm: drawn.winners[1].number });
    assert.equal(res.status, 303, res.text);
    for (const path of [drawsUrl(w), drawsUrl(w, 'test'), drawUrl(id)]) {
      const page = await op.get(path);
      assert.equal(page.status, 200, path);
      assert.match(page.headers.get('content-type')!, /^text\/html; charset=utf-8$/);
      assert.match(page.headers.get('content-security-policy')!, /default-src 'none'/);
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.equal([...page.text.matchAll(/<h1>/g)].length, 1, `${path}: one h1`);
      assert.doesNotMatch(page.text, /<script>alert|<img src=x/, path);
    }
    const page = (await op.get(drawUrl(id))).text;
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(page.includes('&lt;img src=x onerror=alert(2)&gt;'));
  });

  test('an unknown draw is 404; without a session the pages go to sign-in', async () => {
    const t = await server();
    const op = await signIn(t);
    const missing = await op.get(drawUrl('00000000-0000-4000-8000-000000000000'));
    assert.equal(missing.status, 404);
    const anonymous = await dashboardRequest(t, 'GET', drawUrl('00000000-0000-4000-8000-000000000000'));
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get('location'), '/dashboard/signin');
  });
});
