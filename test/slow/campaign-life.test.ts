// A campaign's whole life through the operator CLI (docs/operations.md#winners-ces-winners): entries
// through the API and the real pipeline, instant prizes, a draw of three positions with a
// disqualification, its publication, the winners' steps with receipts attached, the legal hold
// refusing an anonymisation, the taxes, a prize left to prescribe on a moved clock, the closing
// that carries the held anonymisation out, and the prestação de contas, whose figures are held to
// the test's own count and whose SHA-256s to the files' own. Every step reaches the campaign's
// webhook as a signed winner.updated.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { addBusinessDays, addDays, decendioEnd } from '../../src/tools/brazil-calendar.ts';
import {
  configureWebhook,
  cpf,
  drainAll,
  entryBody,
  makeCampaign,
  makePrize,
  runCli,
  startTestServer,
  type CliResult,
} from '../support/harness.ts';
import { startReceiver } from '../support/receiver.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Files as an operator scans them: a signed Termo de Quitação (PDF) and a photo of a delivery (PNG). */
const RECEIPT_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const DELIVERY_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR fake photo of a delivery'),
]);
const VOUCHER_PDF = Buffer.from('%PDF-1.7\n% termo de quitação do vale-compras\n%%EOF\n', 'latin1');

test('a campaign from its first entry to its prestação de contas, through the CLI', async () => {
  const s = await startTestServer();
  cleanups.push(() => s.close());
  const ces = async (args: string[]): Promise<CliResult> => runCli([...args, '--json'], { dbPath: s.dbPath, clock: s.clock });
  const ok = async (args: string[]): Promise<any> => {
    const r = await ces(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.json;
  };
  const refused = async (args: string[], code: string): Promise<any> => {
    const r = await ces(args);
    assert.equal(r.code, 1, `${args.join(' ')} should fail: ${r.stdout}`);
    assert.equal(r.json?.error?.code, code, r.stderr);
    return r.json.error;
  };

  // The campaign: lucky numbers and declared instant prizes, its identity for the records.
  const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', instantPrize: 'INTEGRATOR_DECLARED' });
  await ok([
    'campaign',
    'update',
    w.campaign.id,
    '--authorization',
    'SEAE/ME 04.012345/2026',
    '--promoter',
    'Loja Exemplo Ltda',
    '--promoter-document',
    '11222333000181',
    '--promoter-address',
    'Rua das Flores, 100, Campinas/SP',
    '--ends-at',
    '2026-11-22T10:00:00-03:00',
  ]);
  const voucher = makePrize(s.ctx, w.campaign.id, 'live', 10, 'Vale-compras');
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  receiver.setSecret(await configureWebhook(s, w.liveKey, receiver.url));

  // Six participants; the first two declare an instant prize won.
  const entries: string[] = [];
  for (let i = 0; i < 6; i++) {
    const body = entryBody(
      {
        enrollment: { full_name: `Participante ${i}`, address: { city: 'Campinas', state: 'SP' } },
        ...(i < 2 ? { instant_win: { won: true, prize_definition_id: voucher.id } } : {}),
      },
      i,
    );
    const res = await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: `life-${i}`, body });
    assert.equal(res.status, 202, res.text);
    entries.push(res.body.entry_id as string);
  }
  await drainAll(s);
  const instant = (await ok(['winners', 'list', '--campaign', w.campaign.id])) as any[];
  assert.deepEqual(
    instant.map((x) => [x.source, x.entry_id, x.status, x.prize]),
    entries.slice(0, 2).map((e) => ['instant', e, 'awarded', { description: 'Vale-compras', value: '50.00' }]),
    'a confirmed instant prize opens its winner',
  );
  assert.deepEqual(instant[0].deadlines, { notify_by: '2026-12-02', deliver_by: '2026-12-22', prescribes_at: '2027-05-21' });

  // The draw: three positions, each with its prize; position 2 disqualified before publication.
  const draw = await ok([
    'draw',
    'create',
    '--campaign',
    w.campaign.id,
    '--mode',
    'live',
    '--name',
    'Sorteio de Natal',
    '--cutoff',
    '2026-11-22T10:00:00-03:00',
    '--extraction-date',
    '2026-11-22',
    '--winners',
    '3',
    '--prize',
    'Moto 0 km=15990.00',
    '--prize',
    'Smart TV=3500.00',
    '--prize',
    'Bicicleta=1200.50',
  ]);
  s.clock.set('2026-11-22T13:00:01.000Z');
  await ok(['draw', 'freeze', draw.id]);
  await ok(['draw', 'results', draw.id, '--extraction', '6012', '--date', '2026-11-22', '--prizes', '050366,12345,67890,11111,22222']);
  await ok(['draw', 'run', draw.id]);
  await ok(['draw', 'disqualify', draw.id, '--position', '2', '--reason', 'participante funcionário da promotora']);
  const published = await ok(['draw', 'publish', draw.id]);

  const all = (await ok(['winners', 'list', '--campaign', w.campaign.id, '--mode', 'live'])) as any[];
  const ofDraw = all.filter((x) => x.source === 'draw');
  assert.equal(ofDraw.length, 4, 'three positions and the disqualified number');
  const disqualified = ofDraw.find((x) => x.status === 'disqualified');
  assert.equal(disqualified.position, 2);
  assert.equal(disqualified.events.at(-1).note, 'participante funcionário da promotora');
  const [first, second, third] = [1, 2, 3].map((p) => ofDraw.find((x) => x.position === p && x.status === 'awarded'));
  assert.deepEqual(
    [first.prize, second.prize, third.prize],
    [
      { description: 'Moto 0 km', value: '15990.00' },
      { description: 'Smart TV', value: '3500.00' },
      { description: 'Bicicleta', value: '1200.50' },
    ],
  );
  assert.match(first.participant.document, /^\*\*\*\.\d{3}\.\d{3}-\*\*$/, 'the document is masked');

  // Steps: two draw winners delivered against a receipt, an instant winner delivered, one declined.
  const dir = s.dir;
  const files = { pdf: join(dir, 'termo-quitacao.pdf'), png: join(dir, 'entrega.png'), voucher: join(dir, 'vale.pdf') };
  writeFileSync(files.pdf, RECEIPT_PDF);
  writeFileSync(files.png, DELIVERY_PNG);
  writeFileSync(files.voucher, VOUCHER_PDF);
  s.clock.set('2026-11-24T15:00:00.000Z');
  await ok(['winners', 'record', first.id, '--event', 'notified', '--note', 'telefone e e-mail em 24/11']);
  const delivered1 = await ok(['winners', 'record', first.id, '--event', 'delivered', '--note', 'entregue na loja', '--attach', files.pdf]);
  assert.equal(delivered1.status, 'delivered');
  assert.deepEqual(
    delivered1.events.at(-1).attachments.map((a: any) => [a.filename, a.media_type, a.size, a.sha256]),
    [['termo-quitacao.pdf', 'application/pdf', RECEIPT_PDF.length, sha256(RECEIPT_PDF)]],
  );
  await ok(['winners', 'record', third.id, '--event', 'contact_failed', '--note', 'telefone não atende']);
  await ok(['winners', 'record', third.id, '--event', 'documents_received', '--note', 'RG e CPF por e-mail']);
  await ok([
    'winners',
    'record',
    third.id,
    '--event',
    'delivered',
    '--note',
    'bicicleta entregue',
    '--attach',
    files.png,
    '--attach',
    files.pdf,
  ]);
  await ok(['winners', 'record', instant[0].id, '--event', 'delivered', '--note', 'vale entregue', '--attach', files.voucher]);
  await ok(['winners', 'record', instant[1].id, '--event', 'declined', '--note', 'recusou por escrito']);
  // A file that is no PDF, JPEG or PNG is refused, and records nothing.
  writeFileSync(join(dir, 'fake.pdf'), 'not a pdf at all');
  await refused(
    ['winners', 'record', second.id, '--event', 'notified', '--note', 'x', '--attach', join(dir, 'fake.pdf')],
    'invalid_attachment',
  );
  // A final status takes no step.
  await refused(['winners', 'record', first.id, '--event', 'notified', '--note', 'de novo'], 'winner_final');

  // The attachment written back out is the same file.
  const written = await ok(['winners', 'attachment', String(delivered1.events.at(-1).attachments[0].id), '--out', join(dir, 'copy.pdf')]);
  assert.equal(sha256(readFileSync(join(dir, 'copy.pdf'))), sha256(RECEIPT_PDF));
  assert.equal(written.sha256, sha256(RECEIPT_PDF));

  // The legal hold: the second winner asks to be anonymized before the prestação de contas.
  const held = await refused(
    [
      'participant',
      'anonymize',
      '--campaign',
      w.campaign.id,
      '--document',
      cpf(entries.indexOf(second.entry_id)),
      '--reason',
      'pedido LGPD 7',
    ],
    'legal_hold',
  );
  assert.match(held.message, /prestação de contas/);

  // Taxes: 20% of each prize's value, by DARF 0916, the 3rd business day after the decêndio.
  const taxes = (await ok(['winners', 'taxes', '--campaign', w.campaign.id, '--mode', 'live'])) as any[];
  const due = addBusinessDays(decendioEnd('2026-11-22'), 3);
  assert.equal(due, '2026-12-03', 'decêndio 21–30/11; 1, 2 and 3 December are business days');
  const expectedTax: Record<string, string> = {
    [first.id]: '3198.00',
    [second.id]: '700.00',
    [third.id]: '240.10',
    [instant[0].id]: '10.00',
    [instant[1].id]: '10.00',
  };
  assert.deepEqual(Object.fromEntries(taxes.map((t) => [t.winner_id, t.tax])), expectedTax, 'no tax on the disqualified number');
  assert.ok(taxes.every((t) => t.darf_code === '0916' && t.rate === '20%' && t.due_by === due));

  // Closing before the prescription dates is refused.
  const early = await refused(['campaign', 'close', w.campaign.id], 'campaign_prescription_pending');
  assert.equal(early.last_prescription_date, '2027-05-21');

  // 180 days later the second position's prize, never delivered, prescribes.
  s.clock.set('2027-05-22T15:00:00.000Z');
  await drainAll(s);
  const after = (await ok(['winners', 'list', '--campaign', w.campaign.id, '--status', 'prescribed'])) as any[];
  assert.deepEqual(
    after.map((x) => x.id),
    [second.id],
  );

  // The closing carries out the held anonymisation and stores the prestação de contas.
  const closed = await ok(['campaign', 'close', w.campaign.id]);
  assert.equal(closed.anonymizations_carried_out, 1);
  await refused(['participant', 'export', '--campaign', w.campaign.id, '--document', cpf(entries.indexOf(second.entry_id))], 'not_found');
  // A closed campaign takes no step, no setting, no draw and no entry.
  await refused(['winners', 'record', third.id, '--event', 'notified', '--note', 'x'], 'campaign_closed');
  await refused(['campaign', 'update', w.campaign.id, '--name', 'Outra'], 'campaign_closed');
  const closedEntry = await s.request('POST', '/v1/entries', { key: w.liveKey, idempotencyKey: 'after-close', body: entryBody({}, 7) });
  assert.equal(closedEntry.status, 403, 'a closed campaign takes no entry');

  // The prestação de contas: its figures against the test's own count, its SHA-256s against the files'.
  const report = (await ok(['campaign', 'report', w.campaign.id, '--format', 'md'])).text as string;
  assert.equal(sha256(Buffer.from(report)), closed.reports.live.sha256, 'the stored report, byte for byte');
  if (process.env.SHOW_REPORT) console.log(report);
  const row = (label: string): string =>
    report
      .split('\n')
      .find((l) => l.startsWith(`| ${label} |`))!
      .split('|')[2]
      .trim();
  assert.equal(row('Participações recebidas'), '6');
  assert.equal(row('Participações aprovadas'), '6');
  assert.equal(row('Números da sorte atribuídos'), '6');
  assert.ok(report.includes(published.record_sha256), "the draw's record SHA-256");
  for (const file of [RECEIPT_PDF, DELIVERY_PNG, VOUCHER_PDF]) assert.ok(report.includes(sha256(file)), 'every attachment by its SHA-256');
  assert.ok(report.includes('Valor devido ao Tesouro Nacional: R$ 3500.00.'), 'the prescribed prize is due to the Tesouro');
  const totalTax = Object.values(expectedTax).reduce((sum, v) => sum + Math.round(Number(v) * 100), 0);
  assert.ok(report.includes(`Imposto total: R$ ${(totalTax / 100).toFixed(2)}.`), `tax total ${totalTax}`);
  assert.equal(addDays('2027-05-21', 30), '2027-06-20');
  assert.ok(
    report.includes('Prazo para a prestação de contas: 20/06/2027 (30 dias após a última data de prescrição)'),
    'the filing deadline',
  );
  assert.equal(report.match(/\| entregue \|/g)?.length, 3, 'three prizes delivered');

  // Every step reached the webhook as a signed winner.updated: 7 recorded, 1 prescription.
  await drainAll(s);
  const updates = receiver.requests.filter((r) => r.json?.event_type === 'winner.updated');
  assert.ok(
    updates.every((r) => r.signatureMatches === true),
    'signed with the campaign secret',
  );
  assert.deepEqual(
    updates.map((r) => `${r.json.data.id} ${r.json.data.events.at(-1).event} ${r.json.data.status}`).sort(),
    [
      `${first.id} notified notified`,
      `${first.id} delivered delivered`,
      `${third.id} contact_failed awarded`,
      `${third.id} documents_received notified`,
      `${third.id} delivered delivered`,
      `${instant[0].id} delivered delivered`,
      `${instant[1].id} declined declined`,
      `${second.id} prescribed prescribed`,
    ].sort(),
  );

  // The audit log: each step and the closing.
  const audit = (await ok(['audit', 'list', '--campaign', w.campaign.id, '--limit', '200'])) as any[];
  assert.equal(audit.filter((a) => a.action === 'winner.recorded').length, 7);
  assert.equal(audit.filter((a) => a.action === 'campaign.closed').length, 1);
});
