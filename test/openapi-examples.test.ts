// The OpenAPI document's examples (src/openapi/examples.ts) come from a real run: this scripted
// session of an integrator (configure the webhook, submit, replay, a refused body, processing,
// lucky numbers, reassign, revoke, an operator's revoke, a draw, a ping, a winner notified, the
// events list) runs on a
// fresh server with a fixed clock and seed, so its bodies are the same every time, and every
// recorded request, response and event must equal the one this run produces. After a deliberate
// change, `npm run openapi:examples` (CES_OPENAPI_EXAMPLES=1) writes the file from the run instead.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import * as prettier from 'prettier';
import { assert as assertStruct, type Struct } from 'superstruct';
import { createDraw, freezeDraw, recordResults } from '../src/draws/lifecycle.ts';
import { publishDraw } from '../src/draws/publish.ts';
import { runDraw } from '../src/draws/run.ts';
import { makeAccessKey } from '../src/entries/fiscal-key.ts';
import { revokeAwardAsOperator } from '../src/mechanics/instant-prize.ts';
import { addPrize } from '../src/mechanics/prizes.ts';
import { EXAMPLES, type Example } from '../src/openapi/examples.ts';
import {
  AwardUpdatedEventStruct,
  DrawPublishedEventStruct,
  EntryCompletedEventStruct,
  EntryEvaluatedEventStruct,
  EntryReceivedEventStruct,
  PingEventStruct,
  WinnerUpdatedEventStruct,
} from '../src/openapi/schemas.ts';
import { sendTestPing } from '../src/webhooks/ping.ts';
import { recordWinnerStep } from '../src/winners/record.ts';
import { listWinners } from '../src/winners/winners.ts';
import { drainAll, makeCampaign, OPERATOR, ROOT, startTestServer, type TestResponse, type TestServer } from './support/harness.ts';

const WRITE = process.env.CES_OPENAPI_EXAMPLES === '1';
const EXAMPLE_VERSIONS = { ces: '0.1.0', node: '20.20.2', sqlite: '3.53.2', platform: 'linux', arch: 'x64', binary: false };
const FILE = join(ROOT, 'src/openapi/examples.ts');

const EVENT_STRUCTS: Record<string, Struct<any, any>> = {
  'entry.received': EntryReceivedEventStruct,
  'entry.completed': EntryCompletedEventStruct,
  'entry.evaluated': EntryEvaluatedEventStruct,
  'award.updated': AwardUpdatedEventStruct,
  'draw.published': DrawPublishedEventStruct,
  'winner.updated': WinnerUpdatedEventStruct,
  ping: PingEventStruct,
};

let s: TestServer;
before(async () => {
  s = await startTestServer({ seed: 31 });
});
after(() => s.close());

/** The session's bodies, by the names document.ts gives them (operationId.status[.variant], operationId.request, event.TYPE). */
async function runSession(): Promise<Record<string, Example>> {
  const out: Record<string, Example> = {};
  const record = (name: string, summary: string, value: unknown): void => {
    out[name] = { summary, value };
  };
  const expect = (res: TestResponse, status: number): TestResponse => {
    assert.equal(res.status, status, res.text);
    return res;
  };

  const w = makeCampaign(s.ctx, {
    name: 'Promoção Verão Premiado',
    instantPrize: 'INTEGRATOR_DECLARED',
    luckyNumbers: 'manual',
    luckyQuantity: 2,
    seriesCount: 10,
  });
  const key = w.liveKey;
  const prize = (name: string, type: string, unitValue: number, stock: number) =>
    addPrize(s.ctx, { campaignId: w.campaign.id, mode: 'live', name, type, unitValue, stock }, OPERATOR);
  const voucher = prize('Vale-compras R$ 50', 'vale-compras', 50, 100);
  const giftCard = prize('Cartão-presente R$ 200', 'cartao-presente', 200, 20);

  const hook = { endpoint_url: 'https://crm.example.com/webhooks/ces' };
  record('updateWebhookConfig.request', 'Create the configuration', hook);
  record(
    'updateWebhookConfig.201',
    'Created: the only answer with the secret',
    expect(await s.request('PATCH', '/v1/webhook', { key, body: hook }), 201).body,
  );
  // Paused, so that nothing is sent anywhere: the events are recorded all the same, and listed.
  const pause = { is_active: false };
  record('updateWebhookConfig.request.pause', 'Pause deliveries', pause);
  record('updateWebhookConfig.200', 'Updated', expect(await s.request('PATCH', '/v1/webhook', { key, body: pause }), 200).body);
  record('getWebhookConfig.200', 'The configuration', expect(await s.request('GET', '/v1/webhook', { key }), 200).body);
  record('listPrizes.200', "The live mode's pool", expect(await s.request('GET', '/v1/prizes', { key }), 200).body);

  const submission = {
    enrollment: {
      document_number: '529.982.247-25',
      full_name: 'Maria da Silva',
      email: 'maria.silva@example.com',
      phone: '+55 11 98765-4321',
      birthdate: '1990-05-17',
      address: {
        address_line_1: 'Rua das Flores, 123',
        neighborhood: 'Centro',
        city: 'São Paulo',
        state: 'SP',
        zipcode: '01001-000',
        country: 'BR',
      },
    },
    consent: {
      granted_at: '2026-11-22T08:55:12-03:00',
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
      term_version: 'regulamento-v3',
      consents: [
        { consent_type: 'marketing', granted: true },
        { consent_type: 'data_sharing', granted: false },
      ],
    },
    evidence: { type: 'fiscal_key', access_key: makeAccessKey({ uf: '35', yymm: '2611', number: '000012345' }) },
    instant_win: { won: true, prize_definition_id: voucher.id },
  };
  record('createEntry.request', 'A participant who won an instant prize', submission);
  const created = expect(await s.request('POST', '/v1/entries', { key, idempotencyKey: 'pedido-8812-1', body: submission }), 202);
  record('createEntry.202', 'Accepted', created.body);
  s.clock.advance(4_000);
  const entryId = created.body.entry_id as string;
  const other = { ...submission, enrollment: { document_number: '111.444.777-35' } };
  const replay = expect(await s.request('POST', '/v1/entries', { key, idempotencyKey: 'pedido-8812-1', body: other }), 202);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  record('createEntry.202.replay', 'A replay (header Idempotent-Replayed: true): the first entry, the new body ignored', replay.body);
  const refused = {
    ...submission,
    enrollment: { ...submission.enrollment, document_number: '529.982.247-26', email: 'maria.silva@', emial: 'maria@example.com' },
    consent: { ...submission.consent, granted_at: '2026-11-22 08:55' },
    evidence: { type: 'fiscal_key', access_key: '3526 1112 3456' },
  };
  record(
    'createEntry.422',
    'Every violation at once',
    expect(await s.request('POST', '/v1/entries', { key, idempotencyKey: 'pedido-8812-2', body: refused }), 422).body,
  );
  s.clock.advance(1_000);
  record(
    'getEntry.401',
    'A key that is not valid',
    expect(await s.request('GET', `/v1/entries/${entryId}`, { key: 'service_live_revoked0000' }), 401).body,
  );

  s.clock.advance(2_000);
  await drainAll(s);
  // The WAL's size follows every page the session wrote before, which any change to the schema or to
  // the session moves: the example shows a fixed, typical figure instead (the rest is as answered).
  const health = expect(await s.request('GET', '/healthz'), 200).body;
  assert.equal(typeof health.wal.bytes, 'number');
  // The versions are the machine's that runs the session, and the release's: typical ones instead.
  assert.deepEqual(Object.keys(health.versions), Object.keys(EXAMPLE_VERSIONS));
  record('getHealth.200', 'Healthy', { ...health, wal: { ...health.wal, bytes: 4_124_152 }, versions: EXAMPLE_VERSIONS });
  record(
    'getEntry.200',
    'Approved and evaluated: manual lucky numbers due, the declared win awarded',
    expect(await s.request('GET', `/v1/entries/${entryId}`, { key }), 200).body,
  );

  const numbers = {
    numbers: [
      { series: '3', order_number: '57700' },
      { series: '9', order_number: '04512' },
    ],
  };
  s.clock.advance(60_000);
  record('submitLuckyNumbers.request', 'The two numbers outcome.quantity asks for', numbers);
  record(
    'submitLuckyNumbers.201',
    'Assigned',
    expect(await s.request('POST', `/v1/entries/${entryId}/lucky-numbers`, { key, body: numbers }), 201).body,
  );

  s.clock.advance(3_600_000);
  const reassign = { prize_definition_id: giftCard.id };
  record('reassignInstantPrize.request', 'Another prize for the same entry', reassign);
  record(
    'reassignInstantPrize.200',
    'The new award',
    expect(await s.request('POST', `/v1/entries/${entryId}/instant-prize/reassign`, { key, body: reassign }), 200).body,
  );
  s.clock.advance(86_400_000);
  const revoke = { reason: 'Cupom fiscal cancelado pelo lojista' };
  record('revokeInstantPrize.request', 'With a reason for the history', revoke);
  record(
    'revokeInstantPrize.200',
    'The award, revoked',
    expect(await s.request('POST', `/v1/entries/${entryId}/instant-prize/revoke`, { key, body: revoke }), 200).body,
  );

  // A second participant's win, revoked by the operator (`ces award revoke`): award.updated.
  const second = {
    ...submission,
    enrollment: { document_number: '390.533.447-05', full_name: 'João Pereira' },
    evidence: { type: 'fiscal_key', access_key: makeAccessKey({ uf: '35', yymm: '2611', number: '000012346' }) },
  };
  const secondId = expect(await s.request('POST', '/v1/entries', { key, idempotencyKey: 'pedido-8813-1', body: second }), 202).body
    .entry_id as string;
  await drainAll(s);
  s.clock.advance(7_200_000);
  revokeAwardAsOperator(s.ctx, secondId, 'Participante desclassificado', new Date(s.clock.now()).toISOString(), OPERATOR);

  // A draw of the lucky numbers, published: draw.published.
  const draw = createDraw(
    s.ctx,
    {
      campaignId: w.campaign.id,
      mode: 'live',
      name: 'Sorteio de novembro',
      cutoff: '2026-11-25T23:59:59-03:00',
      winners: 1,
      prizes: ['Moto 0 km=15990.00'],
      series: '1d',
      extractionDate: '2026-11-28',
    },
    OPERATOR,
  );
  s.clock.set('2026-11-28T21:00:00Z');
  await freezeDraw(s.ctx, draw.id, OPERATOR);
  await recordResults(
    s.ctx,
    draw.id,
    { extraction: 6012, date: '2026-11-28', prizes: ['12305', '05437', '13526', '02329', '15458'] },
    OPERATOR,
  );
  await runDraw(s.ctx, draw.id, OPERATOR);
  publishDraw(s.ctx, draw.id, OPERATOR, `ces draw numbers ${draw.id}`);
  // `ces webhook test` while paused: skipped, but its body is what a receiver gets.
  await sendTestPing(s.ctx, w.campaign.id, true);

  // The draw's winner reached two days later, the notice attached: winner.updated.
  s.clock.set('2026-11-30T13:20:00Z');
  const drawn = listWinners(s.ctx, { campaignId: w.campaign.id, livemode: 1 }).find((x) => x.draw_id === draw.id)!;
  const notice = Buffer.from('%PDF-1.7\n% Aviso de premiação enviado por e-mail e carta registrada\n%%EOF\n', 'latin1');
  recordWinnerStep(
    s.ctx,
    drawn.id,
    {
      event: 'notified',
      note: 'Avisada por e-mail e por carta registrada (AR)',
      attachments: [{ filename: 'aviso-premiacao.pdf', data: notice }],
    },
    { kind: 'dashboard', name: 'ana' },
  );

  const deliveries = s.ctx.db
    .prepare('SELECT event_type, payload FROM webhook_deliveries WHERE campaign_id = ? ORDER BY seq')
    .all(w.campaign.id) as Array<{ event_type: string; payload: string }>;
  for (const { event_type: type, payload } of deliveries) {
    const event = JSON.parse(payload);
    // Every event queued matches its documented envelope (object() refuses a field not documented).
    assertStruct(event, EVENT_STRUCTS[type]!);
    if (!out[`event.${type}`]) record(`event.${type}`, `A ${type} event`, event);
  }
  record('listEvents.200', 'The newest two events', expect(await s.request('GET', '/v1/events?limit=2', { key }), 200).body);
  return out;
}

test('the examples of the OpenAPI document are the bodies of a real run', async () => {
  const examples = await runSession();
  if (WRITE) {
    const source = `// Written by \`npm run openapi:examples\` from the session of test/openapi-examples.test.ts, which
// checks on every run that the server still answers exactly this. Do not edit by hand.

export interface Example {
  summary: string;
  value: unknown;
}

export const EXAMPLES: Record<string, Example> = ${JSON.stringify(examples, null, 2)};
`;
    const options = (await prettier.resolveConfig(FILE)) ?? {};
    writeFileSync(FILE, await prettier.format(source, { ...options, filepath: FILE }));
    return;
  }
  assert.deepEqual(Object.keys(examples).sort(), Object.keys(EXAMPLES).sort(), 'the session records every example the document shows');
  for (const [name, example] of Object.entries(examples))
    assert.deepEqual(example, EXAMPLES[name], `${name} differs from the run: npm run openapi:examples rewrites src/openapi/examples.ts`);
});
