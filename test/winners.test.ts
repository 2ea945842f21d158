// Winners and the closing, in process against a real SQLite file (docs/operations.md#winners-ces-winners,
// #closing-a-campaign): what opens and disqualifies a winner, what its steps send, prescription
// by the server's tick, the closing's refusals and what it does, and what an anonymisation erases
// of a winner. The whole life through the CLI is test/slow/campaign-life.test.ts.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { closeCampaign } from '../src/closing/close.ts';
import { renderAccounts } from '../src/closing/report.ts';
import { AppError } from '../src/kernel/errors.ts';
import { revokeAwardAsOperator } from '../src/mechanics/instant-prize.ts';
import { anonymizeParticipant } from '../src/participants/participants.ts';
import { maskDocument } from '../src/tools/masking.ts';
import { listDeliveryViews } from '../src/webhooks/deliveries.ts';
import { readAttachment, recordWinnerStep } from '../src/winners/record.ts';
import type { WinnerView } from '../src/winners/model.ts';
import { listWinners } from '../src/winners/winners.ts';
import { cpf, drainAll, makeCampaign, makePrize, OPERATOR, startTestServer, type TestServer, type World } from './support/harness.ts';
import { submitEntry } from './support/mechanics.ts';
import { statementsRun } from './support/query-plans.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PDF = Buffer.from('%PDF-1.4\n% termo\n%%EOF\n', 'latin1');

interface InstantWorld {
  s: TestServer;
  w: World;
  /** The entries that won, in order; participant i of cpf(i). */
  entries: string[];
}

/** A campaign of declared instant prizes with `count` winners, evaluated. */
async function instantWinners(count: number): Promise<InstantWorld> {
  const s = await startTestServer();
  cleanups.push(() => s.close());
  const w = makeCampaign(s.ctx, { instantPrize: 'INTEGRATOR_DECLARED' });
  const prize = makePrize(s.ctx, w.campaign.id, 'live', 10, 'Vale-compras');
  const entries: string[] = [];
  for (let i = 0; i < count; i++)
    entries.push(await submitEntry(s, w.liveKey, { i, instantWin: { won: true, prize_definition_id: prize.id } }));
  await drainAll(s);
  return { s, w, entries };
}

function refusal(run: () => unknown): { status: number; code: string; fields: string[] } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return { status: error.status, code: error.code, fields: (error.errors ?? []).map((e) => e.field) };
  }
  assert.fail('expected a refusal');
}

const winnerEvents = (iw: InstantWorld): Array<{ event_type: string }> =>
  listDeliveryViews(iw.s.ctx, iw.w.campaign.id, undefined, 100).filter((d) => d.event_type === 'winner.updated');

describe('winners of instant prizes', () => {
  test("a confirmed prize opens its winner, with the award's id and the prize's name and value; no winner.updated", async () => {
    const iw = await instantWinners(1);
    const [winner] = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id });
    assert.equal(winner.entry_id, iw.entries[0]);
    assert.deepEqual([winner.source, winner.status, winner.prize], ['instant', 'awarded', { description: 'Vale-compras', value: '50.00' }]);
    assert.deepEqual(
      winner.events.map((e) => [e.event, e.actor]),
      [['awarded', 'system']],
    );
    assert.deepEqual(winnerEvents(iw), []);
  });

  test("an operator's revoke disqualifies the winner with its reason; a delivered prize's winner stays delivered", async () => {
    const iw = await instantWinners(2);
    const [a, b] = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id });
    recordWinnerStep(
      iw.s.ctx,
      b.id,
      { event: 'delivered', note: 'entregue', attachments: [{ filename: 'termo.pdf', data: PDF }] },
      OPERATOR,
    );
    const now = new Date(iw.s.clock.now()).toISOString();
    revokeAwardAsOperator(iw.s.ctx, a.entry_id, 'fraude comprovada', now, OPERATOR);
    revokeAwardAsOperator(iw.s.ctx, b.entry_id, 'tarde demais', now, OPERATOR);
    const [after, stays] = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id });
    assert.equal(after.status, 'disqualified');
    assert.equal(after.events.at(-1)!.note, 'fraude comprovada');
    assert.equal(stays.status, 'delivered');
    assert.deepEqual(winnerEvents(iw).length, 1, 'only the recorded step is a winner.updated: the revoke is told by award.updated');
  });

  test("a listing reads its winners' participants, steps and files in one statement each: as many for four winners as for one", async () => {
    const listing = async (iw: InstantWorld): Promise<{ listed: WinnerView[]; ran: string[] }> => {
      let listed: WinnerView[] = [];
      const ran = await statementsRun(iw.s.ctx.db, () => {
        listed = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id });
        renderAccounts(iw.s.ctx, iw.w.campaign.id, 1, 'md');
      });
      return { listed, ran };
    };
    const one = await instantWinners(1);
    const four = await instantWinners(4);
    const [, second, , fourth] = listWinners(four.s.ctx, { campaignId: four.w.campaign.id });
    for (const [w, filename] of [
      [second, 'termo-2.pdf'],
      [fourth, 'termo-4.pdf'],
    ] as const)
      recordWinnerStep(four.s.ctx, w.id, { event: 'delivered', note: 'entregue', attachments: [{ filename, data: PDF }] }, OPERATOR);
    const few = await listing(one);
    const many = await listing(four);
    assert.equal(many.listed.length, 4);
    assert.deepEqual(
      many.listed.map((w) => [w.entry_id, w.participant.document, w.events.map((e) => e.attachments.map((a) => a.filename))]),
      four.entries.map((entry, i) => [entry, maskDocument('cpf', cpf(i)), i % 2 === 1 ? [[], [`termo-${i + 1}.pdf`]] : [[]]]),
      'each winner with its own participant, steps and files',
    );
    assert.equal(many.ran.length, few.ran.length, `four winners ran ${many.ran.length} statements, one ran ${few.ran.length}`);
  });

  test('a step needs a known event and a note; a refused step records nothing', async () => {
    const iw = await instantWinners(1);
    const [winner] = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id });
    assert.deepEqual(refusal(() => recordWinnerStep(iw.s.ctx, winner.id, { event: 'paid', note: 'x' }, OPERATOR)).fields, ['event']);
    assert.deepEqual(refusal(() => recordWinnerStep(iw.s.ctx, winner.id, { event: 'notified', note: '  ' }, OPERATOR)).fields, ['note']);
    assert.deepEqual(
      refusal(() => recordWinnerStep(iw.s.ctx, '00000000-0000-4000-8000-000000000000', { event: 'notified', note: 'x' }, OPERATOR)).code,
      'not_found',
    );
    assert.equal(listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id })[0].events.length, 1);
  });

  test('the tick prescribes a prize 180 days after its apuração, with winner.updated; overdue deadlines are named before', async () => {
    const iw = await instantWinners(1);
    iw.s.clock.set('2026-12-03T15:00:00.000Z');
    const [late] = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id });
    assert.deepEqual(late.overdue, ['notify_by'], 'notify_by 2026-12-02 passed');
    iw.s.clock.set('2027-05-21T23:00:00.000Z');
    await iw.s.tick();
    assert.equal(
      listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id })[0].status,
      'awarded',
      'the 21st is still the 180th day (20:00 in Brasília)',
    );
    iw.s.clock.set('2027-05-22T03:00:00.000Z');
    await iw.s.tick();
    const [prescribed] = listWinners(iw.s.ctx, { campaignId: iw.w.campaign.id, status: 'prescribed' });
    assert.equal(prescribed.events.at(-1)!.actor, 'system');
    assert.deepEqual(prescribed.overdue, []);
    assert.equal(winnerEvents(iw).length, 1);
  });
});

describe('closing a campaign', () => {
  test('refused before the prescription dates; --force needs a reason, and a reason needs --force', async () => {
    const iw = await instantWinners(1);
    const id = iw.w.campaign.id;
    const early = refusal(() => closeCampaign(iw.s.ctx, id, {}, OPERATOR));
    assert.deepEqual([early.status, early.code], [409, 'campaign_prescription_pending']);
    assert.deepEqual(refusal(() => closeCampaign(iw.s.ctx, id, { force: true }, OPERATOR)).fields, ['reason']);
    assert.deepEqual(refusal(() => closeCampaign(iw.s.ctx, id, { reason: 'cedo' }, OPERATOR)).fields, ['reason']);
    assert.match(renderAccounts(iw.s.ctx, id, 1, 'md'), /RASCUNHO: campanha não encerrada/);
    const closed = closeCampaign(iw.s.ctx, id, { force: true, reason: 'SPA pediu' }, OPERATOR);
    assert.equal(closed.campaign.close_reason, 'SPA pediu');
    assert.equal(refusal(() => closeCampaign(iw.s.ctx, id, { force: true, reason: 'de novo' }, OPERATOR)).code, 'campaign_closed');
    const report = renderAccounts(iw.s.ctx, id, 1, 'md');
    assert.doesNotMatch(report, /RASCUNHO/);
    assert.match(report, /antes do fim dos prazos de prescrição\. Motivo: SPA pediu/);
    assert.match(renderAccounts(iw.s.ctx, id, 1, 'html'), /^<!doctype html>/);
  });

  test('the legal hold refuses an anonymisation, and the closing carries it out and erases the files and notes', async () => {
    const iw = await instantWinners(1);
    const id = iw.w.campaign.id;
    const [winner] = listWinners(iw.s.ctx, { campaignId: id });
    const recorded = recordWinnerStep(
      iw.s.ctx,
      winner.id,
      { event: 'delivered', note: 'entregue a Maria, CPF 529.982.247-25', attachments: [{ filename: 'termo-maria.pdf', data: PDF }] },
      OPERATOR,
    );
    const request = { campaignId: id, livemode: 1, document: cpf(0), reason: 'pedido LGPD' };
    assert.equal(refusal(() => anonymizeParticipant(iw.s.ctx, request, OPERATOR)).code, 'legal_hold');
    const closed = closeCampaign(iw.s.ctx, id, { force: true, reason: 'teste' }, OPERATOR);
    assert.equal(closed.anonymizations_carried_out, 1);
    assert.deepEqual(closed.erasure, { erasure: 'done', erasure_waiting_for: [] }, 'no reader: erased at once');
    const [after] = listWinners(iw.s.ctx, { campaignId: id });
    assert.deepEqual(after.participant, { name: null, document: '***', city: null, state: null });
    assert.equal(after.events.at(-1)!.note, '[redacted]');
    assert.equal(after.events.at(-1)!.attachments[0].filename, '[redacted]');
    assert.equal(after.events.at(-1)!.attachments[0].sha256, recorded.events.at(-1)!.attachments[0].sha256, 'the digest stays');
    const erased = refusal(() => readAttachment(iw.s.ctx, recorded.events.at(-1)!.attachments[0].id, OPERATOR));
    assert.deepEqual([erased.status, erased.code], [410, 'attachment_erased']);
    const payloads = (
      iw.s.ctx.db.prepare(`SELECT payload FROM webhook_deliveries WHERE event_type = 'winner.updated'`).all() as Array<{ payload: string }>
    ).map((d) => d.payload);
    assert.equal(payloads.length, 1);
    assert.doesNotMatch(payloads[0], /Maria|529\.982|termo-maria/);
    // The stored prestação de contas keeps the winner as it was at the closing.
    assert.match(renderAccounts(iw.s.ctx, id, 1, 'md'), /termo-maria\.pdf/);
  });

  test('the prestação de contas in Markdown shows what operators wrote as typed: no HTML, comment or code of theirs is read as such', async () => {
    const iw = await instantWinners(1);
    const id = iw.w.campaign.id;
    const [winner] = listWinners(iw.s.ctx, { campaignId: id });
    const recorded = recordWinnerStep(
      iw.s.ctx,
      winner.id,
      { event: 'delivered', note: 'entregue <!-- oculto `a | *b*', attachments: [{ filename: '<!--termo.pdf', data: PDF }] },
      OPERATOR,
    );
    const sha256 = recorded.events.at(-1)!.attachments[0].sha256;
    closeCampaign(iw.s.ctx, id, { force: true, reason: 'SPA <!-- pediu' }, OPERATOR);
    const md = renderAccounts(iw.s.ctx, id, 1, 'md');
    assert.doesNotMatch(md, /(^|[^\\])[<>]/m, 'no < or > unescaped');
    for (const text of [
      'Motivo: SPA \\<!-- pediu',
      '| entregue \\<!-- oculto \\`a \\| \\*b\\* |',
      `\\<!--termo.pdf (application/pdf, ${PDF.length} bytes), SHA-256 \`${sha256}\` |`,
      `| \`${winner.id}\` |`,
      '## Assinatura',
    ])
      assert.ok(md.includes(text), `the report holds ${text}`);
    const printable = renderAccounts(iw.s.ctx, id, 1, 'html');
    assert.ok(printable.includes(`<code>${sha256}</code>`) && printable.includes('entregue &lt;!-- oculto `a | *b*'));
    assert.doesNotMatch(printable, /<!--/);
  });
});
