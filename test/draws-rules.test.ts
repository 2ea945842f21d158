// Issue 41, points 1 and 6, through the real CLI: digit rules that would let the operator fix the
// number are refused naming the rule and the flag; the three approximation readings and the two
// rules for an empty series give the winners docs/operations.md#the-rules-as-ces-applies-them
// says, and the record and the clause write the rule out in words. Also the campaign's identity
// and a draw's place and prizes, as the record prints them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeCampaign, runCli, startTestServer, type TestServer, type World } from './support/harness.ts';
import { settle, submitEntry } from './support/mechanics.ts';

const CUTOFF = '2026-11-22T23:59:59-03:00';

async function holdNumber(s: TestServer, w: World, series: number, element: number): Promise<string> {
  const id = await submitEntry(s, w.liveKey);
  await settle(s);
  const res = await s.request('POST', `/v1/entries/${id}/lucky-numbers`, {
    key: w.liveKey,
    body: { numbers: [{ series: String(series), order_number: String(element).padStart(5, '0') }] },
  });
  assert.equal(res.status, 201, res.text);
  return id;
}

describe('draw rules through the CLI', () => {
  let s: TestServer;
  let ces: (args: string[]) => ReturnType<typeof runCli>;
  before(async () => {
    s = await startTestServer();
    ces = (args) => runCli([...args, '--db', s.dbPath], { clock: s.clock });
  });
  after(() => s.close());

  const create = (w: World, extra: string[], date = '2026-11-25') =>
    ces([
      'draw',
      'create',
      '--campaign',
      w.campaign.id,
      '--mode',
      'live',
      '--name',
      'Sorteio',
      '--cutoff',
      CUTOFF,
      '--extraction-date',
      date,
      ...extra,
      '--json',
    ]);

  test('point 1: digits that fix the number are refused at create, naming the rule and the flag', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', seriesCount: 10 });
    for (const [flags, code, message] of [
      [['--series', '=0,=0,=7', '--element', '=1,=2,=3,=4,=5'], 'draw_element_literal', /^ces: --element item 1 \(=1\) is a fixed digit/],
      [
        ['--element', '1u,1u,1u,1u,1u'],
        'draw_digit_repeated',
        /^ces: --element item 2 \(1u\) reads the same digit of the same prize as --element item 1/,
      ],
      [
        ['--series', '1u'],
        'draw_digit_repeated',
        /^ces: --element item 1 \(1u\) reads the same digit of the same prize as --series item 1/,
      ],
      [['--series', '=3'], 'draw_series_fixed', /^ces: --series has only fixed digits: with 10 series/],
    ] as const) {
      const r = await create(w, [...flags]);
      assert.equal(r.code, 1, flags.join(' '));
      assert.deepEqual((r.json as { error: { code: string } }).error.code, code, flags.join(' '));
      assert.match(r.stderr, message);
    }
    const list = await ces(['draw', 'list', '--campaign', w.campaign.id, '--json']);
    assert.deepEqual(list.json, [], 'nothing was created');
    // A literal in the series stays allowed: 200 series read as =0 and two tens digits.
    const wide = makeCampaign(s.ctx, { luckyNumbers: 'auto', seriesCount: 200 });
    const ok = await create(wide, ['--series', '=0,1d,2d']);
    assert.equal(ok.code, 0, ok.stderr);
    const clause = await ces(['draw', 'clause', ok.json.id as string]);
    assert.match(clause.stdout, /algarismo fixo 0/);
    assert.doesNotMatch(clause.stdout, /subtrai/, 'a series that never exceeds 199 is never reduced (issue point 8)');
    assert.match(clause.stdout, /, de 0 a 99\./);
  });

  test('the extraction date is required; --prize once, or once per position; --place and --prize are kept', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', seriesCount: 10 });
    const bare = await ces(['draw', 'create', '--campaign', w.campaign.id, '--mode', 'live', '--name', 'S', '--cutoff', CUTOFF, '--json']);
    assert.equal(bare.code, 1);
    assert.match(bare.stderr, /^ces: --extraction-date is required/);
    const two = await create(w, ['--winners', '3', '--prize', 'Moto=15990.00', '--prize', 'TV=2000']);
    assert.equal(two.code, 1);
    assert.match(two.stderr, /^ces: --prize is given once for every position or once per position in order \(3\), got 2/);
    const comma = await create(w, ['--prize', 'Moto=15990,00']);
    assert.match(comma.stderr, /^ces: --prize 1 \("Moto=15990,00"\) must be DESCRIPTION=VALUE, the value in reais with a dot/);
    const one = await create(w, ['--winners', '2', '--prize', 'Moto 0 km=15990', '--place', 'Rua A, 1, São Paulo/SP']);
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(one.json.prizes, [
      { position: 1, description: 'Moto 0 km', value: '15990.00' },
      { position: 2, description: 'Moto 0 km', value: '15990.00' },
    ]);
    assert.equal(one.json.place, 'Rua A, 1, São Paulo/SP');
    assert.equal(one.json.empty_series, 'alternate');
    assert.equal(one.json.approximation, 'nearest');
    const bad = await create(w, ['--empty-series', 'upper-first']);
    assert.match(bad.stderr, /^ces: --empty-series must be one of alternate, lower-first, got "upper-first"/);
  });

  test('point 6: nearest, above-then-below and lower-first give the winners their words say, and the record writes the rule out', async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 10 });
    await holdNumber(s, w, 4, 1230); // 4 below 4/01234
    await holdNumber(s, w, 4, 1300); // 66 above
    await holdNumber(s, w, 7, 50000);
    // 4/01234: the tens of the 1st prize, the units of the five. 6/01234: series 6 holds nothing.
    const series4 = '00040,00001,00002,00003,00004';
    const series6 = '00060,00001,00002,00003,00004';
    const cases = [
      { flags: ['--approximation', 'scpc'], prizes: series4, winner: '4/01230', approximation: 'nearest' },
      { flags: ['--approximation', 'above-then-below'], prizes: series4, winner: '4/01300', approximation: 'above-then-below' },
      { flags: [], prizes: series6, winner: '7/50000', approximation: 'nearest' },
      { flags: ['--empty-series', 'lower-first'], prizes: series6, winner: '4/01230', approximation: 'nearest' },
      {
        flags: ['--approximation', 'above-then-below', '--empty-series', 'lower-first'],
        prizes: series6,
        winner: '4/01300',
        approximation: 'above-then-below',
      },
    ];
    const ids: string[] = [];
    for (const [i, c] of cases.entries()) {
      const created = await create(w, c.flags, `2026-11-${25 + i}`);
      assert.equal(created.code, 0, created.stderr);
      assert.equal(created.json.approximation, c.approximation);
      ids.push(created.json.id as string);
    }
    // Frozen after the cut-off and before the first planned extraction (19:00 in Brasília); results read after the last.
    s.clock.set('2026-11-24T12:00:00Z');
    for (const id of ids) assert.equal((await ces(['draw', 'freeze', id])).code, 0);
    s.clock.set('2026-12-01T12:00:00Z');
    for (const [i, c] of cases.entries()) {
      const results = await ces([
        'draw',
        'results',
        ids[i]!,
        '--extraction',
        String(5900 + i),
        '--date',
        `2026-11-${25 + i}`,
        '--prizes',
        c.prizes,
      ]);
      assert.equal(results.code, 0, results.stderr);
      const run = await ces(['draw', 'run', ids[i]!, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const [winner] = run.json.winners as Array<{ series: number; element: number }>;
      assert.equal(
        `${winner!.series}/${String(winner!.element).padStart(5, '0')}`,
        c.winner,
        `${c.flags.join(' ') || 'defaults'} on ${c.prizes}`,
      );
    }
    const record = await ces(['draw', 'report', ids[1]!]);
    assert.doesNotMatch(record.stdout, /SCPC:/);
    assert.match(record.stdout, /o primeiro elegível acima dele, em ordem crescente/);
    assert.match(
      record.stdout,
      /série 4 a partir de 4\/01234: primeiro elegível acima 4\/01300, primeiro abaixo 4\/01230: o superior tem precedência: 4\/01300/,
    );
    const lower = await ces(['draw', 'report', ids[3]!, '--format', 'html']);
    assert.match(lower.stdout, /passa à série imediatamente inferior dentre as que têm números elegíveis/);
    const clause = await ces(['draw', 'clause', ids[1]!]);
    assert.match(clause.stdout, /Somente se não houver nenhum elegível acima será contemplado o imediatamente inferior/);
  });

  test("the campaign's identity: checked, shown, and printed in every record", async () => {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'manual', luckyQuantity: 1, seriesCount: 1 });
    const bad = await ces(['campaign', 'update', w.campaign.id, '--promoter-document', '11.222.333/0001-82', '--json']);
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /--promoter-document must be the promoter's CNPJ \(14 characters, check digits included\): it has the 14 characters of a CNPJ but its check digits do not match/,
    );
    const cpfGiven = await ces(['campaign', 'update', w.campaign.id, '--promoter-document', '529.982.247-25']);
    assert.match(cpfGiven.stderr, /it is a CPF/);
    const long = await ces(['campaign', 'update', w.campaign.id, '--promoter', 'x'.repeat(201)]);
    assert.match(long.stderr, /--promoter may have at most 200 characters/);
    const updated = await ces([
      'campaign',
      'update',
      w.campaign.id,
      '--authorization',
      'SPA/ME 04.012345/2026',
      '--promoter',
      'Exemplo Comércio Ltda.',
      '--promoter-document',
      '11.222.333/0001-81',
      '--promoter-address',
      'Av. Paulista, 1000, São Paulo/SP',
      '--json',
    ]);
    assert.equal(updated.code, 0, updated.stderr);
    const shown = await ces(['campaign', 'show', w.campaign.id, '--json']);
    assert.deepEqual(
      {
        authorization: shown.json.authorization,
        promoter: shown.json.promoter,
        promoter_document: shown.json.promoter_document,
        promoter_address: shown.json.promoter_address,
      },
      {
        authorization: 'SPA/ME 04.012345/2026',
        promoter: 'Exemplo Comércio Ltda.',
        promoter_document: '11222333000181',
        promoter_address: 'Av. Paulista, 1000, São Paulo/SP',
      },
    );
    const text = await ces(['campaign', 'show', w.campaign.id]);
    assert.match(text.stdout, /promoter_document\s+11222333000181/);
    s.clock.set('2026-11-22T12:00:00Z');
    await holdNumber(s, w, 0, 42);
    const draw = await ces([
      'draw',
      'create',
      '--campaign',
      w.campaign.id,
      '--mode',
      'live',
      '--name',
      'Final',
      '--cutoff',
      CUTOFF,
      '--extraction-date',
      '2026-11-28',
      '--place',
      'Sede da promotora',
      '--prize',
      'Moto 0 km=15990.00',
      '--json',
    ]);
    assert.equal(draw.code, 0, draw.stderr);
    const id = draw.json.id as string;
    s.clock.set('2026-11-24T12:00:00Z');
    assert.equal((await ces(['draw', 'freeze', id])).code, 0, 'frozen before the planned extraction');
    s.clock.set('2026-11-29T12:00:00Z');
    assert.equal(
      (await ces(['draw', 'results', id, '--extraction', '5999', '--date', '2026-11-28', '--prizes', '00042,00001,00002,00003,00004']))
        .code,
      0,
    );
    assert.equal((await ces(['draw', 'run', id])).code, 0);
    const md = await ces(['draw', 'report', id]);
    assert.match(md.stdout, /- Certificado de Autorização: SPA\/ME 04\.012345\/2026/);
    assert.match(md.stdout, /- Promotora: Exemplo Comércio Ltda\., CNPJ 11\.222\.333\/0001-81, Av\. Paulista, 1000, São Paulo\/SP/);
    assert.match(md.stdout, /- Local da apuração: Sede da promotora/);
    assert.match(md.stdout, /\| 1º \| Moto 0 km, R\$ 15990\.00 \|/);
    const html = await ces(['draw', 'report', id, '--format', 'html']);
    assert.match(html.stdout, /<th scope="row">Certificado de Autorização<\/th>\s*<td>SPA\/ME 04\.012345\/2026<\/td>/);
    assert.match(html.stdout, /<td>Moto 0 km, R\$ 15990\.00<\/td>/);
  });
});
