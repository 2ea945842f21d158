// A draw end to end on a real database: entries submitted through the API with lucky numbers
// chosen through the manual endpoint, so the winners can be worked out by hand; then the domain's
// create, freeze, results, run, disqualify and publish, the record and the clause.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { anonymizeParticipant } from '../../src/participants/participants.ts';
import { anonymizeEnrollment } from '../../src/participants/participants.repo.ts';
import { frozenNumbersText } from '../../src/draws/frozen-set.ts';
import { createDraw, freezeDraw, recordResults } from '../../src/draws/lifecycle.ts';
import { publishDraw } from '../../src/draws/publish.ts';
import { disqualifyWinner, runDraw } from '../../src/draws/run.ts';
import { renderDrawClause } from '../../src/draws/clause.ts';
import { renderDrawReport } from '../../src/draws/report.ts';
import { assert as assertStruct } from 'superstruct';
import { DrawPublishedEventStruct } from '../../src/openapi/schemas.ts';
import { startReceiver } from '../support/receiver.ts';
import { configureWebhook, drainAll, makeCampaign, OPERATOR, startTestServer, type TestServer, type World } from '../support/harness.ts';
import { settle, submitEntry } from '../support/mechanics.ts';

const CUTOFF = '2026-11-25T23:59:59-03:00';
/** Atakarejo 2025's results: series from the tens of the 1st and 2nd prizes gives 03/57698. */
const PRIZES = ['12305', '05437', '13526', '02329', '15458'];

async function holdNumbers(s: TestServer, w: World, numbers: Array<[number, number]>): Promise<string> {
  const id = await submitEntry(s, w.liveKey);
  await settle(s);
  const res = await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
    key: w.liveKey,
    body: { numbers: numbers.map(([series, order]) => ({ series: String(series), order_number: String(order).padStart(5, '0') })) },
  });
  assert.equal(res.status, 201, res.text);
  return id;
}

/**
 * A participant holding numbers is under the legal hold: the request is refused and kept, then
 * carried out as the campaign's closing will.
 */
function anonymizeHeld(s: TestServer, campaignId: string, document: string): void {
  assert.throws(() => anonymizeParticipant(s.ctx, { campaignId, livemode: 1, document }, OPERATOR), { code: 'legal_hold' });
  const { id } = s.ctx.db
    .prepare('SELECT id FROM enrollments WHERE campaign_id = ? AND livemode = 1 AND document_number = ?')
    .get(campaignId, document) as { id: string };
  assert.ok(anonymizeEnrollment(s.ctx.db, id, `anon_${id}`, new Date(s.clock.now()).toISOString()));
}

describe('a draw from entries to publication', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('SCPC: the formed number 03/57698 is not held; the nearest eligible in series 03 wins, then the next ones upwards', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 2, seriesCount: 10 });
    const a = await holdNumbers(s, w, [
      [3, 57695],
      [3, 57702],
    ]); // distance 3 below, 4 above
    const b = await holdNumbers(s, w, [
      [3, 57700],
      [9, 99999],
    ]); // 57700 is distance 2 above: the nearest
    const c = await holdNumbers(s, w, [
      [0, 0],
      [5, 12345],
    ]);
    const gone = await holdNumbers(s, w, [
      [3, 57698],
      [3, 57699],
    ]); // the formed number itself, but its holder is anonymised before the freeze
    const { document_number: document } = s.ctx.db
      .prepare('SELECT en.document_number FROM entries e JOIN enrollments en ON en.id = e.enrollment_id WHERE e.id = ?')
      .get(gone) as { document_number: string };
    anonymizeHeld(s, w.campaign.id, document);

    const draw = createDraw(
      s.ctx,
      {
        campaignId: w.campaign.id,
        mode: 'live',
        name: 'Sorteio 1',
        cutoff: CUTOFF,
        winners: 3,
        series: '1d,2d',
        extractionDate: '2026-11-28',
      },
      OPERATOR,
    );
    assert.equal(draw.status, 'created');
    assert.equal(draw.element_digits, '1u,2u,3u,4u,5u');
    await assert.rejects(freezeDraw(s.ctx, draw.id, OPERATOR), { code: 'draw_cutoff_not_reached' });
    s.clock.set('2026-11-26T12:00:00Z');
    const frozen = await freezeDraw(s.ctx, draw.id, OPERATOR);
    assert.equal(frozen.eligible_count, 6);
    const text = Buffer.concat([...frozenNumbersText(s.ctx, draw.id)]).toString();
    assert.equal(text, '0/00000\n3/57695\n3/57700\n3/57702\n5/12345\n9/99999\n');
    assert.equal(createHash('sha256').update(text).digest('hex'), frozen.numbers_sha256);

    // The extraction of 28/11 is held at 19:00 in Brasília: its results are recorded after it.
    s.clock.set('2026-11-28T23:00:00Z');
    await recordResults(s.ctx, draw.id, { extraction: 6012, date: '2026-11-28', prizes: ['012305', ...PRIZES.slice(1)] }, OPERATOR);
    const outcome = await runDraw(s.ctx, draw.id, OPERATOR);
    assert.equal(outcome.formed.number, '3/57698');
    assert.deepEqual(
      outcome.winners.map((x) => [x.position, x.number, x.entry_id]),
      [
        [1, '3/57700', b],
        [2, '3/57702', a],
        [3, '5/12345', c],
      ],
    );
    assert.deepEqual(outcome.winners[0]!.steps[0], { kind: 'formed', series: 3, element: 57698, eligible: false });
    assert.deepEqual(await runDraw(s.ctx, draw.id, OPERATOR), outcome, 'a second run gives the recorded outcome');

    // Only the number is disqualified (docs/operations.md#the-rules-as-ces-applies-them): a no
    // longer holds a win, so a's other number is eligible again. From the last winner 5/12345
    // upwards: 9/99999 is b's (won), then past the last series 0/00000 is c's (won), then 3/57695
    // is a's.
    const after1 = disqualifyWinner(s.ctx, draw.id, { position: 2, reason: 'Comprovante inválido' }, OPERATOR);
    assert.deepEqual(
      after1.winners.map((x) => [x.position, x.number]),
      [
        [1, '3/57700'],
        [2, '3/57695'],
        [3, '5/12345'],
      ],
    );
    assert.equal(after1.winners[1]!.entry_id, a);
    assert.deepEqual(
      after1.winners[1]!.steps.map((st) =>
        st.kind === 'skipped'
          ? st.reason
          : st.kind === 'next_upwards'
            ? `${st.series}/${st.element}${st.wrapped ? ' wrapped' : ''}`
            : st.kind,
      ),
      ['9/99999', 'document_already_won', '0/0 wrapped', 'document_already_won', '3/57695'],
    );
    assert.deepEqual(
      after1.disqualified.map((d) => [d.position, d.number, d.reason]),
      [[2, '3/57702', 'Comprovante inválido']],
    );

    const report = renderDrawReport(s.ctx, draw.id, 'md', `ces draw numbers ${draw.id}`);
    assert.match(report, /RASCUNHO/);
    assert.match(report, /Número formado: \*\*3\/57698\*\*/);
    assert.match(report, /\| 2º \| 3\/57702 \| .* \| Comprovante inválido \|/);
    assert.doesNotMatch(report, /RASCUNHO[\s\S]*RASCUNHO/);

    const published = publishDraw(s.ctx, draw.id, OPERATOR, `ces draw numbers ${draw.id}`);
    assert.equal(published.status, 'published');
    assert.throws(() => disqualifyWinner(s.ctx, draw.id, { position: 1, reason: 'late' }, OPERATOR), { code: 'draw_published' });
    assert.throws(() => publishDraw(s.ctx, draw.id, OPERATOR, `ces draw numbers ${draw.id}`), { code: 'draw_published' });
    const event = s.ctx.db.prepare(`SELECT payload FROM webhook_deliveries WHERE event_type = 'draw.published'`).get() as {
      payload: string;
    };
    assertStruct(JSON.parse(event.payload), DrawPublishedEventStruct);
    assert.deepEqual(JSON.parse(event.payload).data, {
      draw_id: draw.id,
      name: 'Sorteio 1',
      extraction: { number: 6012, date: '2026-11-28', prizes: PRIZES },
      winners: [
        { position: 1, series: 3, element: 57700, entry_id: b },
        { position: 2, series: 3, element: 57695, entry_id: a },
        { position: 3, series: 5, element: 12345, entry_id: c },
      ],
      record_sha256: published.record_sha256,
    });
    assert.match(published.record_sha256!, /^[0-9a-f]{64}$/);
    const html = renderDrawReport(s.ctx, draw.id, 'html', `ces draw numbers ${draw.id}`);
    assert.match(html, /<h1>Ata de apuração: Sorteio 1<\/h1>/);
    assert.doesNotMatch(html, /RASCUNHO/);

    const clause = renderDrawClause(s.ctx, draw.id);
    assert.match(clause, /O número formado é 3\/57698/);
    assert.match(clause, /1º contemplado: 3\/57696/);
    assert.match(clause, /2º contemplado: 3\/57701/);
  });

  test('nothing done to entries after the freeze changes the draw: an anonymisation and new numbers come too late', async () => {
    s.clock.set('2026-11-22T12:00:00Z');
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 1 });
    const first = await holdNumbers(s, w, [[0, 50000]]);
    await holdNumbers(s, w, [[0, 10]]);
    const draw = createDraw(
      s.ctx,
      {
        campaignId: w.campaign.id,
        mode: 'live',
        name: 'Semanal',
        cutoff: '2026-11-23T00:00:00Z',
        extractionDate: '2026-11-25',
        winners: 5,
      },
      OPERATOR,
    );
    assert.equal(draw.series_digits, '', 'one series: no series digits');
    s.clock.set('2026-11-23T00:00:01Z');
    const frozen = await freezeDraw(s.ctx, draw.id, OPERATOR);
    assert.equal(frozen.eligible_count, 2);
    const { document_number: document } = s.ctx.db
      .prepare('SELECT en.document_number FROM entries e JOIN enrollments en ON en.id = e.enrollment_id WHERE e.id = ?')
      .get(first) as { document_number: string };
    anonymizeHeld(s, w.campaign.id, document);
    await holdNumbers(s, w, [[0, 50001]]);
    assert.deepEqual((await freezeDraw(s.ctx, draw.id, OPERATOR)).numbers_sha256, frozen.numbers_sha256, 'a second freeze changes nothing');
    await assert.rejects(runDraw(s.ctx, draw.id, OPERATOR), { code: 'draw_results_missing' });
    await assert.rejects(
      recordResults(s.ctx, draw.id, { extraction: 5731, date: '2026-11-21', prizes: PRIZES }, OPERATOR),
      { code: 'invalid_results' },
      'an extraction held before the cut-off cannot decide the draw',
    );
    s.clock.set('2026-11-25T23:00:00Z');
    await assert.rejects(
      recordResults(s.ctx, draw.id, { extraction: 5732, date: '2026-11-25', prizes: ['050366', '33514', '45504', '94365'] }, OPERATOR),
      {
        code: 'invalid_results',
        message: /exactly 5 prizes/,
      },
    );
    await assert.rejects(
      recordResults(
        s.ctx,
        draw.id,
        { extraction: 5732, date: '2026-11-25', prizes: ['050366', '33514', '145504', '94365', '51105'] },
        OPERATOR,
      ),
      { code: 'invalid_results', message: /prize 3 \("145504"\)/ },
    );
    // Concurso 5732 of the Loteria Federal (18/01/2023): 050366, 033514, 045504, 094365, 051105 -> element 64455.
    await recordResults(
      s.ctx,
      draw.id,
      { extraction: 5732, date: '2026-11-25', prizes: ['050366', '033514', '045504', '094365', '051105'] },
      OPERATOR,
    );
    const outcome = await runDraw(s.ctx, draw.id, OPERATOR);
    assert.equal(outcome.formed.number, '0/64455');
    assert.deepEqual(
      outcome.winners.map((x) => [x.position, x.number, x.entry_id]),
      [
        [1, '0/50000', first],
        [2, '0/00010', outcome.winners[1]!.entry_id],
      ],
      'the anonymised participant still wins: eligibility was fixed at the freeze',
    );
    assert.deepEqual(outcome.unfilled_positions, [3, 4, 5], 'two eligible numbers: two winners of five');
    assert.match(renderDrawReport(s.ctx, draw.id, 'md', `ces draw numbers ${draw.id}`), /\| 1º \| 0\/50000 \| anonimizado \|/);
  });

  test('publishing sends draw.published to the webhook, signed like every event', async () => {
    const receiver = await startReceiver();
    try {
      s.clock.set('2026-11-22T12:00:00Z');
      const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 1 });
      receiver.setSecret(await configureWebhook(s, w.liveKey, receiver.url));
      const holder = await holdNumbers(s, w, [[0, 64455]]);
      const draw = createDraw(
        s.ctx,
        { campaignId: w.campaign.id, mode: 'live', name: 'Final', cutoff: '2026-11-23T00:00:00Z', extractionDate: '2026-11-25' },
        OPERATOR,
      );
      // Frozen before the planned extraction (19:00 in Brasília); its results are recorded once it is held.
      s.clock.set('2026-11-24T00:00:00Z');
      await freezeDraw(s.ctx, draw.id, OPERATOR);
      s.clock.set('2026-11-25T23:00:00Z');
      await recordResults(
        s.ctx,
        draw.id,
        { extraction: 5732, date: '2026-11-25', prizes: ['050366', '033514', '045504', '094365', '051105'] },
        OPERATOR,
      );
      await runDraw(s.ctx, draw.id, OPERATOR);
      publishDraw(s.ctx, draw.id, OPERATOR, `ces draw numbers ${draw.id}`);
      await drainAll(s);
      await receiver.waitFor((reqs) => reqs.some((r) => r.json?.event_type === 'draw.published'));
      const delivered = receiver.requests.find((r) => r.json?.event_type === 'draw.published')!;
      assert.equal(delivered.signatureMatches, true);
      assertStruct(delivered.json, DrawPublishedEventStruct);
      assert.deepEqual(delivered.json.data.winners, [{ position: 1, series: 0, element: 64455, entry_id: holder }]);
    } finally {
      await receiver.close();
    }
  });
});
