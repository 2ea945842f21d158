// Issue 41, through the real CLI on a real database (docs/operations.md#the-order-of-time): an order
// of time in Brasília (a draw created and frozen before its planned extraction at 19:00, results
// dated from the planned extraction to today, a later one only with a reason the record prints),
// nobody left out (no freeze while entries received by the cut-off are pending, unless forced with
// a reason the record prints with the count), one result per extraction (a draw voided to free
// it, named by the record of the next), five different prizes, and who did what, with the history
// of the results. Each test reproduces what the issue found accepted, and shows it refused.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { makeCampaign, runCli, startTestServer, type CliResult, type TestServer, type World } from './support/harness.ts';
import { settle, submitEntry } from './support/mechanics.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The test clock starts 2026-11-22T12:00Z (09:00 in Brasília); the cut-off is an hour later. */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const PLANNED = '2026-11-25';
/** After the cut-off, before the planned extraction (19:00 in Brasília on 25/11 is 22:00Z). */
const BEFORE_EXTRACTION = '2026-11-25T21:59:00Z';
/** After the extraction, the same day in Brasília. */
const AFTER_EXTRACTION = '2026-11-25T23:00:00Z';
const PRIZES = '050366,12345,67890,11111,22222';

interface World41 {
  s: TestServer;
  w: World;
  ces(args: string[]): Promise<CliResult>;
}

async function world(): Promise<World41> {
  const s = await startTestServer();
  cleanups.push(() => s.close());
  const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 2, seriesCount: 10 });
  for (let i = 0; i < 3; i++) await submitEntry(s, w.liveKey);
  await settle(s);
  return { s, w, ces: (args) => runCli(args, { dbPath: s.dbPath, clock: s.clock }) };
}

async function create(x: World41, extra: string[] = ['--extraction-date', PLANNED], name = 'Sorteio 1'): Promise<CliResult> {
  return x.ces(['draw', 'create', '--campaign', x.w.campaign.id, '--mode', 'live', '--name', name, '--cutoff', CUTOFF, ...extra, '--json']);
}

async function created(x: World41, extra?: string[], name?: string): Promise<string> {
  const r = await create(x, extra, name);
  assert.equal(r.code, 0, r.stderr);
  return r.json.id as string;
}

async function ok(x: World41, args: string[]): Promise<CliResult> {
  const r = await x.ces([...args, '--json']);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return r;
}

/** Exit 1 with the code, its message, and one line on stderr. */
async function refused(x: World41, args: string[], code: string, message: RegExp): Promise<CliResult> {
  const r = await x.ces([...args, '--json']);
  assert.equal(r.code, 1, `${args.join(' ')} should fail: ${r.stdout}`);
  assert.equal(r.json?.error?.code, code, r.stderr);
  assert.match(r.json.error.message, message);
  assert.doesNotMatch(r.json.error.message, /^ces /);
  return r;
}

const results = (id: string, date: string, extraction = '5787', prizes = PRIZES): string[] => [
  'draw',
  'results',
  id,
  '--extraction',
  extraction,
  '--date',
  date,
  '--prizes',
  prizes,
];

test('issue 41, point 2: a draw is not created, nor frozen, after its planned extraction (19:00 in Brasília)', async () => {
  const x = await world();
  x.s.clock.set('2029-06-01T12:00:00Z');
  await refused(
    x,
    [
      'draw',
      'create',
      '--campaign',
      x.w.campaign.id,
      '--mode',
      'live',
      '--name',
      'Tarde demais',
      '--cutoff',
      CUTOFF,
      '--extraction-date',
      PLANNED,
    ],
    'draw_extraction_passed',
    /--extraction-date 2026-11-25 19:00 \(Brasília\)\) has already been held/,
  );
  x.s.clock.set('2026-11-22T12:00:00Z');
  const id = await created(x);
  x.s.clock.set('2026-11-25T22:00:00Z');
  await refused(
    x,
    ['draw', 'freeze', id],
    'draw_extraction_passed',
    /has already been held: a draw's eligible numbers are frozen before the extraction/,
  );
  // Nor through the freeze that results and run do first.
  await refused(x, results(id, PLANNED), 'draw_extraction_passed', /has already been held/);
  await refused(x, ['draw', 'run', id], 'draw_extraction_passed', /has already been held/);
  assert.equal((await ok(x, ['draw', 'show', id])).json.status, 'created');
  x.s.clock.set(BEFORE_EXTRACTION);
  // Refused for the time alone, the draw was left as it was: before the extraction it freezes.
  assert.equal((await ok(x, ['draw', 'freeze', id])).json.status, 'frozen');
});

test('issue 41, point 4: results dated 2030, or earlier than planned, are refused; later needs the reason, which the record prints', async () => {
  const x = await world();
  const id = await created(x);
  x.s.clock.set(BEFORE_EXTRACTION);
  await ok(x, ['draw', 'freeze', id]);
  x.s.clock.set(AFTER_EXTRACTION);
  await refused(
    x,
    results(id, '2030-01-01'),
    'extraction_in_future',
    /the extraction of 2030-01-01 has not been held: today is 2026-11-25 in Brasília/,
  );
  await refused(x, results(id, '2026-11-26'), 'extraction_in_future', /today is 2026-11-25/);
  await refused(
    x,
    results(id, '2026-11-22', '5786'),
    'extraction_before_planned',
    /earlier than the planned one \(--extraction-date 2026-11-25\)/,
  );
  x.s.clock.set('2026-11-28T23:00:00Z');
  await refused(
    x,
    results(id, '2026-11-28', '5788'),
    'postponement_reason_required',
    /later than the planned one \(2026-11-25\): give the --reason it was postponed/,
  );
  const r = await ok(x, [...results(id, '2026-11-28', '5788'), '--reason', 'Extração de 25/11 adiada pela Caixa']);
  assert.equal(r.json.extraction.date, '2026-11-28');
  await ok(x, ['draw', 'run', id]);
  const record = (await x.ces(['draw', 'report', id])).stdout;
  assert.match(
    record,
    /A extração utilizada, de 28\/11\/2026, é posterior à prevista \(25\/11\/2026\): a extração foi realizada depois do previsto\. Motivo: Extração de 25\/11 adiada pela Caixa\./,
  );
  assert.doesNotMatch(record, /utilizou-se a extração seguinte/);
});

test('issue 41, point 8: the same ticket twice in one extraction is refused', async () => {
  const x = await world();
  const id = await created(x);
  x.s.clock.set(AFTER_EXTRACTION);
  await refused(
    x,
    results(id, PLANNED, '5787', '050366,12345,50366,11111,22222'),
    'duplicate_prizes',
    /prizes 1 and 3 are both 50366: an extraction draws five different tickets/,
  );
});

test('issue 41, point 3: no freeze while entries received by the cut-off are pending; forced with a reason, the record says how many', async () => {
  const x = await world();
  // Received before the cut-off, never verified (an outage): PENDING.
  await submitEntry(x.s, x.w.liveKey);
  await submitEntry(x.s, x.w.liveKey);
  const id = await created(x);
  x.s.clock.set(BEFORE_EXTRACTION);
  const r = await refused(
    x,
    ['draw', 'freeze', id],
    'draw_entries_pending',
    /^2 entries received by the cut-off are still pending verification/,
  );
  assert.equal(r.json.error.pending_count, 2);
  assert.match((await x.ces(['draw', 'freeze', id])).stderr, /freeze anyway giving the --reason/);
  await refused(x, ['draw', 'run', id], 'draw_entries_pending', /2 entries/);
  await refused(x, ['draw', 'freeze', id, '--force'], 'invalid_option', /--reason must not be empty/);
  const frozen = await ok(x, ['draw', 'freeze', id, '--force', '--reason', 'Verificador fiscal fora do ar até depois da extração']);
  assert.equal(frozen.json.status, 'frozen');
  assert.equal(frozen.json.pending_at_freeze, 2);
  x.s.clock.set(AFTER_EXTRACTION);
  await ok(x, results(id, PLANNED));
  await ok(x, ['draw', 'run', id]);
  const record = (await x.ces(['draw', 'report', id])).stdout;
  assert.match(
    record,
    /Congelamento feito com 2 participações recebidas até a data-limite ainda estavam pendentes de verificação \(seus números não concorrem\)\. Motivo: Verificador fiscal fora do ar/,
  );
  const [audit] = (await ok(x, ['audit', 'list', '--action', 'draw.frozen'])).json as Array<{ details: Record<string, unknown> }>;
  assert.deepEqual([audit.details.pending_count, audit.details.forced], [2, true]);
});

test('issue 41, point 2: one result per extraction; a voided draw frees it and is named by the next record', async () => {
  const x = await world();
  const first = await created(x);
  await refused(
    x,
    [
      'draw',
      'create',
      '--campaign',
      x.w.campaign.id,
      '--mode',
      'live',
      '--name',
      'De novo',
      '--cutoff',
      CUTOFF,
      '--extraction-date',
      PLANNED,
    ],
    'draw_extraction_taken',
    new RegExp(`already used by draw ${first} \\("Sorteio 1"\\)`),
  );
  const second = await created(x, ['--extraction-date', '2026-11-28'], 'Sorteio 2');
  x.s.clock.set(BEFORE_EXTRACTION);
  await ok(x, ['draw', 'freeze', first]);
  await ok(x, ['draw', 'freeze', second]);
  x.s.clock.set(AFTER_EXTRACTION);
  await ok(x, results(first, PLANNED));
  await ok(x, ['draw', 'run', first]);
  // The issue: the same extraction drawn again by another draw, to get another winner.
  x.s.clock.set('2026-11-28T23:00:00Z');
  const taken = await refused(
    x,
    [...results(second, PLANNED, '5787'), '--reason', 'x'],
    'extraction_before_planned',
    /earlier than the planned one/,
  );
  assert.ok(taken);
  await refused(
    x,
    [...results(second, '2026-11-28', '5787')],
    'draw_extraction_taken',
    new RegExp(`^Extraction 5787 is already used by draw ${first}`),
  );
  await refused(x, ['draw', 'void', first, '--reason', ''], 'invalid_option', /--reason must not be empty/);
  const voided = await ok(x, ['draw', 'void', first, '--reason', 'Sorteio criado com a regra errada']);
  assert.equal(voided.json.status, 'voided');
  await refused(x, ['draw', 'void', first, '--reason', 'de novo'], 'draw_voided', /voided already/);
  await refused(x, ['draw', 'run', first], 'draw_voided', /voided/);
  await refused(x, results(first, PLANNED), 'draw_voided', /voided/);
  // The publication (publish.ts) is held to the same state machine: a voided draw is never published.
  await refused(x, ['draw', 'publish', first], 'draw_voided', /voided/);
  const listed = (await ok(x, ['draw', 'list', '--campaign', x.w.campaign.id])).json as Array<{ id: string; status: string }>;
  assert.deepEqual(
    listed.map((d) => [d.id, d.status]).sort(),
    [
      [first, 'voided'],
      [second, 'frozen'],
    ].sort(),
  );
  await ok(x, results(second, '2026-11-28', '5787'));
  await ok(x, ['draw', 'run', second]);
  await ok(x, ['draw', 'publish', second]);
  await refused(x, ['draw', 'void', second, '--reason', 'tarde'], 'draw_published', /can no longer be voided/);
  const record = (await x.ces(['draw', 'report', second])).stdout;
  assert.match(record, /## Sorteios anulados sobre a mesma extração/);
  assert.match(
    record,
    new RegExp(`Sorteio ${first} \\(Sorteio 1\\), anulado em .* por cli:[^.]+\\. Motivo: Sorteio criado com a regra errada\\.`),
  );
  const [audit] = (await ok(x, ['audit', 'list', '--action', 'draw.voided'])).json as Array<{ details: Record<string, unknown> }>;
  assert.equal(audit.details.draw_id, first);
});

test('issue 41, point 5: the record says who created and froze the draw, and every recording of the results', async () => {
  const x = await world();
  const id = await created(x);
  x.s.clock.set(BEFORE_EXTRACTION);
  await ok(x, ['draw', 'freeze', id]);
  x.s.clock.set(AFTER_EXTRACTION);
  await ok(x, results(id, PLANNED, '5787', '050366,12345,67890,11111,22223'));
  await ok(x, [...results(id, PLANNED), '--reason', '5º prêmio digitado errado']);
  const shown = (await ok(x, ['draw', 'show', id])).json;
  assert.match(shown.created_by, /^cli:/);
  assert.equal(shown.frozen_by, shown.created_by);
  assert.deepEqual(
    shown.results_history.map((r: { prizes: string[]; reason: string | null }) => [r.prizes[4], r.reason]),
    [
      ['22223', null],
      ['22222', '5º prêmio digitado errado'],
    ],
  );
  await ok(x, ['draw', 'run', id]);
  const record = (await x.ces(['draw', 'report', id])).stdout;
  assert.match(
    record,
    /Sorteio criado em 2026-11-22T12:00:00\.000Z \(22\/11\/2026 09:00:00, horário de Brasília\) por cli:\S+; números congelados em 2026-11-25T21:59:00\.000Z .* por cli:\S+\./,
  );
  assert.match(record, /## Registro dos resultados/);
  assert.match(record, /\| 5787 \| 25\/11\/2026 \| 050366, 012345, 067890, 011111, 022223 \| digitada \| — \|/);
  assert.match(record, /\| 5787 \| 25\/11\/2026 \| 050366, 012345, 067890, 011111, 022222 \| digitada \| 5º prêmio digitado errado \|/);
  assert.match(record, /Nenhuma participação recebida até a data-limite estava pendente de verificação no congelamento\./);
});
