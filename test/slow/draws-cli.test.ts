// The apuração through the operator CLI (docs/operations.md#running-a-draw-ces-draw): `ces draw …`
// run as the real program on a real database whose lucky numbers were given through the API and the
// pipeline, on the test server's ManualClock, so the cut-off is crossed by advancing it. A worked
// example whose winners can be computed by hand, the refusals with their codes, the audit trail,
// draw.published at the campaign's webhook, and `results --fetch` against a local server speaking
// Caixa's shape.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, test } from 'node:test';
import type { CliInput } from '../../cli/io.ts';
import { renderDrawClause } from '../../src/draws/clause.ts';
import { renderDrawReport } from '../../src/draws/report.ts';
import { cesCommand } from '../../src/tools/runtime.ts';
import {
  configureWebhook,
  drainAll,
  makeCampaign,
  runCli,
  startTestServer,
  type CliResult,
  type TestServer,
  type World,
} from '../support/harness.ts';
import { settle, submitEntry } from '../support/mechanics.ts';
import { startReceiver } from '../support/receiver.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every test's server starts its ManualClock here; numbers given now are held at the cut-off. */
const START = '2026-11-22T12:00:00.000Z';
/** One hour after START, written with Brasília's offset as an operator would. */
const CUTOFF = '2026-11-22T10:00:00-03:00';
const CUTOFF_UTC = '2026-11-22T13:00:00.000Z';
const AFTER_CUTOFF = '2026-11-22T13:00:01.000Z';
/** The day of START in Brasília: results are never dated after today. */
const EXTRACTION_DATE = '2026-11-22';
/** The worked example's extraction: the 1st prize as Caixa publishes it, with its leading 0. */
const PRIZES = '050366,12345,67890,11111,22222';

interface DrawWorld {
  s: TestServer;
  w: World;
  /** `ces ARGS…` on the server's database and clock. */
  ces(args: string[], options?: { env?: Record<string, string>; stdin?: CliInput }): Promise<CliResult>;
}

async function drawWorld(campaign: { seriesCount: number; luckyNumbers: 'auto' | 'manual'; luckyQuantity?: number }): Promise<DrawWorld> {
  const s = await startTestServer();
  cleanups.push(() => s.close());
  const w = makeCampaign(s.ctx, { luckyQuantity: 1, ...campaign });
  return { s, w, ces: (args, options = {}) => runCli(args, { dbPath: s.dbPath, clock: s.clock, ...options }) };
}

/** One participant per list, each with one approved entry holding exactly those numbers ("6/65010"). Returns number -> entry id. */
async function holdNumbers(dw: DrawWorld, holdings: string[][]): Promise<Map<string, string>> {
  const entries: string[] = [];
  for (let i = 0; i < holdings.length; i++) entries.push(await submitEntry(dw.s, dw.w.liveKey));
  await settle(dw.s);
  const holders = new Map<string, string>();
  for (const [i, numbers] of holdings.entries()) {
    const body = { numbers: numbers.map((n) => ({ series: String(Number(n.split('/')[0])), order_number: n.split('/')[1] })) };
    const res = await dw.s.request('POST', `/v1/entries/${entries[i]}/lucky-numbers`, { key: dw.w.liveKey, body });
    assert.equal(res.status, 201, res.text);
    for (const n of numbers) holders.set(n, entries[i]!);
  }
  return holders;
}

async function createDraw(dw: DrawWorld, extra: string[] = []): Promise<string> {
  const r = await dw.ces([
    'draw',
    'create',
    '--campaign',
    dw.w.campaign.id,
    '--mode',
    'live',
    '--name',
    'Sorteio de Natal',
    '--cutoff',
    CUTOFF,
    // The extraction the plan names; a later --extraction-date in `extra` replaces it.
    '--extraction-date',
    EXTRACTION_DATE,
    ...extra,
    '--json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  return r.json.id as string;
}

/** A command that must fail: exit 1, one line on stderr, {"error"} with the code on stdout. */
async function refused(dw: DrawWorld, args: string[], code: string, message: RegExp, env?: Record<string, string>): Promise<void> {
  const r = await dw.ces([...args, '--json'], { env });
  assert.equal(r.code, 1, `${args.join(' ')} should fail: ${r.stdout}`);
  assert.equal(r.json?.error?.code, code, r.stderr);
  assert.match(r.json.error.message, message);
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, `one line on stderr: ${r.stderr}`);
}

const numberOf = (w: { number: string }): string => w.number;

describe('ces draw create', () => {
  // docs/operations.md#running-a-draw-ces-draw: --element defaults to 1u,2u,3u,4u,5u; --series to
  // the tens of the 1st..k-th prizes, k the digits of series_count - 1.
  for (const [seriesCount, series] of [
    [1, ''],
    [10, '1d'],
    [11, '1d,2d'],
    [100, '1d,2d'],
    [101, '1d,2d,3d'],
  ] as const) {
    test(`defaults as SCPC writes them: element 1u,2u,3u,4u,5u and, for ${seriesCount} series, series "${series}"`, async () => {
      const dw = await drawWorld({ seriesCount, luckyNumbers: 'auto' });
      const r = await dw.ces([
        'draw',
        'create',
        '--campaign',
        dw.w.campaign.id,
        '--mode',
        'test',
        '--name',
        'Sorteio',
        '--cutoff',
        CUTOFF,
        '--extraction-date',
        EXTRACTION_DATE,
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        {
          livemode: r.json.livemode,
          cutoff: r.json.cutoff,
          status: r.json.status,
          winners_count: r.json.winners_count,
          series_digits: r.json.series_digits,
          element_digits: r.json.element_digits,
          approximation: r.json.approximation,
          one_win_per_document: r.json.one_win_per_document,
          eligible_count: r.json.eligible_count,
          numbers_sha256: r.json.numbers_sha256,
          extraction: r.json.extraction,
        },
        {
          livemode: false,
          cutoff: CUTOFF_UTC,
          status: 'created',
          winners_count: 1,
          series_digits: series,
          element_digits: '1u,2u,3u,4u,5u',
          approximation: 'nearest',
          one_win_per_document: true,
          eligible_count: null,
          numbers_sha256: null,
          extraction: null,
        },
      );
    });
  }

  test('the options given are kept as given: winners, DIGITS with literals, up-wrap, several wins per document', async () => {
    const dw = await drawWorld({ seriesCount: 20, luckyNumbers: 'auto' });
    const id = await createDraw(dw, [
      '--winners',
      '3',
      '--series',
      '=0,1m',
      '--element',
      '5u,4u,3u,2u,1u',
      '--approximation',
      'up-wrap',
      '--no-one-win-per-document',
      '--extraction-date',
      EXTRACTION_DATE,
    ]);
    const shown = await dw.ces(['draw', 'show', id, '--json']);
    assert.deepEqual(
      [
        shown.json.winners_count,
        shown.json.series_digits,
        shown.json.element_digits,
        shown.json.approximation,
        shown.json.one_win_per_document,
      ],
      [3, '=0,1m', '5u,4u,3u,2u,1u', 'up-wrap', false],
    );
    assert.equal(shown.json.extraction_date, EXTRACTION_DATE);
    assert.deepEqual(shown.json.winners, []);
  });

  // [what is wrong, extra arguments, code, message]
  const REFUSALS: Array<[string, string[], string, RegExp]> = [
    ['an element of 4 items', ['--element', '1u,2u,3u,4u'], 'invalid_option', /^--element must have exactly 5 items, got 4$/],
    ['an item that is no place', ['--element', '1u,2x,3u,4u,5u'], 'invalid_option', /^--element item 2 \("2x"\) must be <prize><place>/],
    ['a 6th prize', ['--series', '6d'], 'invalid_option', /^--series item 1 \("6d"\)/],
    [
      'no series digit for 10 series',
      ['--series', ''],
      'invalid_option',
      /^--series must have at least one item: the campaign has 10 series$/,
    ],
    ['a cut-off without its zone', ['--cutoff', '2026-11-30T23:59:59'], 'invalid_option', /^--cutoff must be a date-time with its zone/],
    [
      'a cut-off that is no date',
      ['--cutoff', 'tomorrow'],
      'invalid_option',
      /^--cutoff must be a date-time with its zone .*got "tomorrow"$/,
    ],
    [
      'an extraction before the cut-off',
      ['--extraction-date', '2026-11-21'],
      'invalid_option',
      /^--extraction-date 2026-11-21 is before the cut-off/,
    ],
    ['no winner', ['--winners', '0'], 'invalid_option', /^--winners must be an integer from 1 to 10000, got "0"$/],
    [
      'an unknown approximation',
      ['--approximation', 'closest'],
      'invalid_option',
      /^--approximation must be one of nearest, above-then-below, up-wrap \(scpc is nearest's other name\), got "closest"$/,
    ],
    ['an unknown mode', ['--mode', 'prod'], 'invalid_mode', /^--mode must be live or test, got "prod"$/],
  ];
  for (const [what, extra, code, message] of REFUSALS) {
    test(`refused, naming what is wrong: ${what}`, async () => {
      const dw = await drawWorld({ seriesCount: 10, luckyNumbers: 'auto' });
      const base = [
        ...['draw', 'create', '--campaign', dw.w.campaign.id, '--mode', 'live', '--name', 'Sorteio', '--cutoff', CUTOFF],
        ...['--extraction-date', EXTRACTION_DATE],
      ];
      // The flags given last win (commander keeps the last value of an option given twice).
      await refused(dw, [...base, ...extra], code, message);
      assert.deepEqual((await dw.ces(['draw', 'list', '--campaign', dw.w.campaign.id, '--json'])).json, [], 'nothing created');
    });
  }

  test('a campaign that gives no lucky numbers has nothing to draw', async () => {
    const dw = await drawWorld({ seriesCount: 1, luckyNumbers: 'auto' });
    const other = makeCampaign(dw.s.ctx, {});
    await refused(
      dw,
      ['draw', 'create', '--campaign', other.campaign.id, '--mode', 'live', '--name', 'S', '--cutoff', CUTOFF],
      'lucky_numbers_off',
      /^The campaign gives no lucky numbers \(--lucky-numbers none\): there is nothing to draw\.$/,
    );
  });
});

describe('ces draw freeze and numbers', () => {
  test('freeze is refused before the cut-off; past it the numbers held then are frozen, and numbers prints the list whose SHA-256 is numbers_sha256', async () => {
    const dw = await drawWorld({ seriesCount: 3, luckyNumbers: 'auto', luckyQuantity: 4 });
    for (let i = 0; i < 6; i++) await submitEntry(dw.s, dw.w.liveKey);
    await settle(dw.s);
    assert.equal(dw.s.clock.now(), Date.parse(START), 'processing did not move the clock');
    const id = await createDraw(dw);
    await refused(dw, ['draw', 'freeze', id], 'draw_cutoff_not_reached', /cut-off \(2026-11-22T13:00:00.000Z\) has not passed yet/);
    const early = await dw.ces(['draw', 'numbers', id]);
    assert.deepEqual(
      [early.code, early.stdout, early.stderr],
      [1, '', 'ces: The draw is not frozen yet: freeze it first (npx ces draw freeze DRAW_ID)\n'],
    );

    dw.s.clock.set(AFTER_CUTOFF);
    // Given after the cut-off: not held at it, never eligible.
    await submitEntry(dw.s, dw.w.liveKey);
    await settle(dw.s);
    const frozen = await dw.ces(['draw', 'freeze', id, '--json']);
    assert.equal(frozen.code, 0, frozen.stderr);
    assert.equal(frozen.json.status, 'frozen');
    assert.equal(frozen.json.eligible_count, 24, '6 entries x 4 numbers');

    const list = await dw.ces(['draw', 'numbers', id]);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.split('\n');
    assert.equal(lines.pop(), '', 'every line ends in \\n');
    assert.equal(lines.length, 24);
    assert.ok(
      lines.every((l) => /^[0-2]\/\d{5}$/.test(l)),
      'S/EEEEE',
    );
    assert.deepEqual([...lines].sort(), lines, 'ascending');
    assert.equal(createHash('sha256').update(list.stdout).digest('hex'), frozen.json.numbers_sha256);

    // Freezing again changes nothing and records nothing.
    const again = await dw.ces(['draw', 'freeze', id, '--json']);
    assert.deepEqual(again.json, frozen.json);
    const audit = await dw.ces(['audit', 'list', '--campaign', dw.w.campaign.id, '--action', 'draw.frozen', '--json']);
    assert.equal(audit.json.length, 1);
    assert.deepEqual(audit.json[0].details, {
      draw_id: id,
      eligible_count: 24,
      numbers_sha256: frozen.json.numbers_sha256,
      pending_count: 0,
    });
  });

  test('numbers --out writes a new 0600 file with the same bytes, and never over an existing file', async () => {
    const dw = await drawWorld({ seriesCount: 2, luckyNumbers: 'auto', luckyQuantity: 3 });
    for (let i = 0; i < 3; i++) await submitEntry(dw.s, dw.w.liveKey);
    await settle(dw.s);
    const id = await createDraw(dw);
    dw.s.clock.set(AFTER_CUTOFF);
    const frozen = (await dw.ces(['draw', 'freeze', id, '--json'])).json;
    const out = join(dw.s.dir, 'numbers.txt');
    const written = await dw.ces(['draw', 'numbers', id, '--out', out, '--json']);
    assert.equal(written.code, 0, written.stderr);
    const bytes = readFileSync(out);
    assert.deepEqual(written.json, {
      draw_id: id,
      file: out,
      eligible_count: 9,
      numbers_sha256: frozen.numbers_sha256,
      bytes: bytes.length,
    });
    assert.equal(statSync(out).mode & 0o777, 0o600);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), frozen.numbers_sha256);
    assert.equal(bytes.toString(), (await dw.ces(['draw', 'numbers', id])).stdout);

    writeFileSync(out, 'kept');
    await refused(
      dw,
      ['draw', 'numbers', id, '--out', out],
      'cannot_write_file',
      /^cannot create .*numbers\.txt: a file is already there$/,
    );
    assert.equal(readFileSync(out, 'utf8'), 'kept', 'the existing file is untouched');
    assert.deepEqual(
      readdirSync(dw.s.dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp file left behind',
    );
    await refused(dw, ['draw', 'numbers', id], 'invalid_option', /^--json needs --out FILE/);
  });
});

describe('ces draw results', () => {
  async function frozenDraw(): Promise<{ dw: DrawWorld; id: string }> {
    const dw = await drawWorld({ seriesCount: 10, luckyNumbers: 'auto' });
    await submitEntry(dw.s, dw.w.liveKey);
    await settle(dw.s);
    const id = await createDraw(dw);
    dw.s.clock.set(AFTER_CUTOFF);
    return { dw, id };
  }
  const results = (id: string, prizes: string, date = EXTRACTION_DATE): string[] => [
    'draw',
    'results',
    id,
    '--extraction',
    '5787',
    '--date',
    date,
    '--prizes',
    prizes,
  ];

  // docs/operations.md#the-steps: each prize 5 digits, or 6 with a leading 0 (as Caixa publishes
  // it).
  for (const [prizes, recorded] of [
    ['50366,12345,67890,11111,22222', ['50366', '12345', '67890', '11111', '22222']],
    ['050366,012345,067890,011111,022222', ['50366', '12345', '67890', '11111', '22222']],
    ['00000, 099999 ,00001,000002,10000', ['00000', '99999', '00001', '00002', '10000']],
  ] as const) {
    test(`prizes ${prizes} are recorded as the 5-digit tickets ${recorded.join(',')}`, async () => {
      const { dw, id } = await frozenDraw();
      const r = await dw.ces([...results(id, prizes), '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        { ...r.json.extraction, recorded_at: undefined },
        { number: 5787, date: EXTRACTION_DATE, prizes: recorded, source: 'typed', recorded_at: undefined },
      );
      assert.equal(r.json.status, 'frozen', 'recording the results freezes the draw first');
    });
  }

  // [prizes, the message naming what is wrong]
  const BAD: Array<[string, RegExp]> = [
    ['150366,12345,67890,11111,22222', /^prize 1 \("150366"\) must be 5 digits, or 6 with a leading 0/],
    ['50366,1234,67890,11111,22222', /^prize 2 \("1234"\) must be 5 digits/],
    ['50366,12345,6789O,11111,22222', /^prize 3 \("6789O"\)/],
    ['50366,12345,67890,11111,', /^prize 5 \(""\)/],
    ['50366,12345,67890,11111', /^an extraction has exactly 5 prizes \(1st to 5th\), got 4$/],
    ['50366,12345,67890,11111,22222,33333', /^an extraction has exactly 5 prizes \(1st to 5th\), got 6$/],
  ];
  for (const [prizes, message] of BAD) {
    test(`refused, naming the bad prize or the count: ${prizes}`, async () => {
      const { dw, id } = await frozenDraw();
      await refused(dw, results(id, prizes), 'invalid_results', message);
      assert.equal((await dw.ces(['draw', 'show', id, '--json'])).json.extraction, null);
    });
  }

  test('an extraction held before the cut-off cannot decide the draw', async () => {
    const { dw, id } = await frozenDraw();
    await refused(dw, results(id, PRIZES, '2026-11-21'), 'invalid_results', /extraction of 2026-11-21 is before the draw's cut-off/);
  });

  test('without --fetch, --extraction, --date and --prizes are all needed, and a missing one is named', async () => {
    const { dw, id } = await frozenDraw();
    await refused(dw, ['draw', 'results', id, '--extraction', '5787'], 'invalid_option', /^give --date, --prizes \(or --fetch/);
  });
});

describe('the worked example: run, show, disqualify, publish', () => {
  // 10 series (series digit: the tens of the 1st prize), one number per participant. Prizes
  // 050366, 12345, 67890, 11111, 22222 form series 6 (tens of 50366) and element 65012 (units
  // 6, 5, 0, 1, 2). 6/65012 is held by nobody; in series 6 the nearest are 65010 (2 below) and
  // 65015 (3 above): 65010 wins. Then upwards: 6/65015, 9/99999, and past the last series 0/00007.
  const HELD = ['3/12345', '6/65010', '6/65015', '9/99999', '0/00007'];

  async function example(extra: string[] = ['--winners', '4']): Promise<{ dw: DrawWorld; id: string; holders: Map<string, string> }> {
    const dw = await drawWorld({ seriesCount: 10, luckyNumbers: 'manual' });
    const holders = await holdNumbers(
      dw,
      HELD.map((n) => [n]),
    );
    const id = await createDraw(dw, extra);
    dw.s.clock.set(AFTER_CUTOFF);
    const recorded = await dw.ces(['draw', 'results', id, '--extraction', '5787', '--date', EXTRACTION_DATE, '--prizes', PRIZES]);
    assert.equal(recorded.code, 0, recorded.stderr);
    return { dw, id, holders };
  }

  test('winners are computed by hand: 6/65010 by SCPC approximation, then 6/65015, 9/99999 and, past the last series, 0/00007', async () => {
    const { dw, id, holders } = await example();
    const run = await dw.ces(['draw', 'run', id, '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.draw.status, 'drawn');
    assert.deepEqual([run.json.formed.series, run.json.formed.element, run.json.formed.number], [6, 65012, '6/65012']);
    assert.deepEqual(
      run.json.formed.steps.map((s: { target?: string; item?: string; digit?: number }) => `${s.target} ${s.item}=${s.digit}`),
      ['series 1d=6', 'element 1u=6', 'element 2u=5', 'element 3u=0', 'element 4u=1', 'element 5u=2'],
    );
    assert.deepEqual(
      run.json.winners.map((w: { position: number; number: string; entry_id: string }) => [w.position, w.number, w.entry_id]),
      [
        [1, '6/65010', holders.get('6/65010')],
        [2, '6/65015', holders.get('6/65015')],
        [3, '9/99999', holders.get('9/99999')],
        [4, '0/00007', holders.get('0/00007')],
      ],
    );
    assert.deepEqual(run.json.winners[0].steps, [
      { kind: 'formed', series: 6, element: 65012, eligible: false },
      { kind: 'series_search', series: 6, from: 65012, above: 65015, below: 65010, chosen: 65010, rule: 'nearest' },
    ]);
    assert.deepEqual(run.json.winners[3].steps, [
      { kind: 'next_upwards', after: { series: 9, element: 99999 }, inclusive: false, series: 0, element: 7, wrapped: true },
    ]);
    assert.deepEqual(run.json.unfilled_positions, []);

    // Human output: the formed number, every winner and every step on a line of its own.
    const text = (await dw.ces(['draw', 'run', id])).stdout;
    for (const line of [
      'formed number 6/65012',
      '  series: 6, the tens digit of the 1st prize (ticket 050366)',
      '  element: 2, the units digit of the 5th prize (ticket 022222)',
      'winners (4 of 4)',
      `   1. 6/65010  entry ${holders.get('6/65010')}`,
      '        formed number 6/65012: not eligible (not distributed or not valid)',
      '        series 6 from 6/65012: nearest eligible above 6/65015, below 6/65010: nearest 6/65010',
      `   4. 0/00007  entry ${holders.get('0/00007')}`,
      '        next eligible number upwards from 9/99999, wrapping to the first series: 0/00007',
    ])
      assert.ok(text.split('\n').includes(line), `missing line ${JSON.stringify(line)} in:\n${text}`);
  });

  test('run again gives the same outcome and records one draw.run', async () => {
    const { dw, id } = await example();
    const first = await dw.ces(['draw', 'run', id, '--json']);
    dw.s.clock.advance(3600_000);
    const second = await dw.ces(['draw', 'run', id, '--json']);
    assert.deepEqual(second.json, first.json);
    const audit = await dw.ces(['audit', 'list', '--action', 'draw.run', '--campaign', dw.w.campaign.id, '--json']);
    assert.equal(audit.json.length, 1);
    assert.deepEqual(audit.json[0].details, {
      draw_id: id,
      extraction: 5787,
      formed: '6/65012',
      winners: ['6/65010', '6/65015', '9/99999', '0/00007'],
      unfilled_positions: [],
    });
  });

  test('show prints the draw with its winners; before the run it has none', async () => {
    const { dw, id } = await example();
    const before = await dw.ces(['draw', 'show', id, '--json']);
    assert.deepEqual([before.json.status, before.json.winners, before.json.formed], ['frozen', [], null]);
    const run = (await dw.ces(['draw', 'run', id, '--json'])).json;
    const shown = await dw.ces(['draw', 'show', id, '--json']);
    assert.deepEqual(shown.json.winners, run.winners);
    assert.deepEqual(shown.json.formed, { series: 6, element: 65012, number: '6/65012' });
    assert.deepEqual(shown.json.disqualified, []);
    const text = (await dw.ces(['draw', 'show', id])).stdout;
    assert.match(text, /^status +drawn$/m);
    assert.match(text, /^extraction +5787 of 2026-11-22: 1st 050366, 2nd 012345, 3rd 067890, 4th 011111, 5th 022222 \(typed\)$/m);
    assert.match(text, /^ {3}2\. 6\/65015 {2}entry /m);
    assert.match(text, /^ {8}next eligible number upwards from 6\/65010: 6\/65015$/m);
  });

  test('more winners than eligible numbers: the positions left are unfilled, and said so', async () => {
    const { dw, id } = await example(['--winners', '7']);
    const run = await dw.ces(['draw', 'run', id, '--json']);
    assert.deepEqual(run.json.winners.map(numberOf), ['6/65010', '6/65015', '9/99999', '0/00007', '3/12345']);
    assert.deepEqual(run.json.unfilled_positions, [6, 7]);
    assert.match((await dw.ces(['draw', 'run', id])).stdout, /^positions 6, 7 are not filled: fewer eligible numbers than winners$/m);
  });

  test('disqualify fills the position with the next eligible number after the last winner; the other positions do not change', async () => {
    const { dw, id, holders } = await example();
    const run = (await dw.ces(['draw', 'run', id, '--json'])).json;
    const r = await dw.ces(['draw', 'disqualify', id, '--position', '2', '--reason', 'documento divergente', '--json']);
    assert.equal(r.code, 0, r.stderr);
    // After the last winner (0/00007), upwards: 3/12345.
    assert.deepEqual(r.json.winners.map(numberOf), ['6/65010', '3/12345', '9/99999', '0/00007']);
    assert.equal(r.json.winners[1].entry_id, holders.get('3/12345'));
    assert.deepEqual(r.json.winners[1].steps, [
      { kind: 'next_upwards', after: { series: 0, element: 7 }, inclusive: false, series: 3, element: 12345, wrapped: false },
    ]);
    for (const p of [0, 2, 3]) assert.deepEqual(r.json.winners[p], run.winners[p], `position ${p + 1} unchanged`);
    assert.deepEqual(
      r.json.disqualified.map((d: { position: number; number: string; reason: string }) => [d.position, d.number, d.reason]),
      [[2, '6/65015', 'documento divergente']],
    );
    const audit = await dw.ces(['audit', 'list', '--action', 'draw.winner_disqualified', '--json']);
    assert.deepEqual(audit.json[0].details, { draw_id: id, position: 2, number: '6/65015', replaced_by: '3/12345' });
    assert.match(
      (await dw.ces(['draw', 'show', id])).stdout,
      /^ {2}position 2: 6\/65015 {2}entry .*, disqualified .*: documento divergente$/m,
    );

    // Every number has now won or was disqualified: a second disqualification leaves its position empty.
    const empty = await dw.ces(['draw', 'disqualify', id, '--position', '1', '--reason', 'menor de idade', '--json']);
    assert.deepEqual(empty.json.winners.map(numberOf), ['3/12345', '9/99999', '0/00007']);
    assert.deepEqual(empty.json.unfilled_positions, [1]);
  });

  // [arguments after DRAW_ID, code, message]
  const BAD_DISQUALIFY: Array<[string[], string, RegExp]> = [
    [['--position', '5', '--reason', 'x'], 'invalid_option', /^--position must be the position of a current winner \(1 to 4\), got "5"$/],
    [['--position', 'one', '--reason', 'x'], 'invalid_option', /got "one"$/],
    [['--position', '1', '--reason', '  '], 'invalid_option', /^--reason must not be empty$/],
  ];
  for (const [args, code, message] of BAD_DISQUALIFY) {
    test(`disqualify refuses ${args.join(' ')}, and nothing changes`, async () => {
      const { dw, id } = await example();
      const run = (await dw.ces(['draw', 'run', id, '--json'])).json;
      await refused(dw, ['draw', 'disqualify', id, ...args], code, message);
      assert.deepEqual((await dw.ces(['draw', 'show', id, '--json'])).json.winners, run.winners);
    });
  }

  test("publish is final: draw.published reaches the campaign's webhook with the winners, and nothing can change afterwards", async () => {
    const { dw, id, holders } = await example();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    receiver.setSecret(await configureWebhook(dw.s, dw.w.liveKey, receiver.url));
    await refused(dw, ['draw', 'publish', id], 'draw_not_run', /^Run the draw before publishing it \(npx ces draw run DRAW_ID\)$/);
    await dw.ces(['draw', 'run', id]);
    const published = await dw.ces(['draw', 'publish', id, '--json']);
    assert.equal(published.code, 0, published.stderr);
    assert.equal(published.json.status, 'published');
    assert.equal(published.json.published_at, AFTER_CUTOFF);

    const deliveries = await dw.ces(['webhook', 'deliveries', '--campaign', dw.w.campaign.id, '--json']);
    const queued = deliveries.json.filter((d: { event_type: string }) => d.event_type === 'draw.published');
    assert.deepEqual(
      queued.map((d: { status: string }) => d.status),
      ['pending'],
    );
    await drainAll(dw.s);
    const arrived = receiver.requests.filter((r) => r.json?.event_type === 'draw.published');
    assert.equal(arrived.length, 1);
    assert.equal(arrived[0]!.signatureMatches, true);
    assert.deepEqual(arrived[0]!.json.data, {
      draw_id: id,
      name: 'Sorteio de Natal',
      extraction: { number: 5787, date: EXTRACTION_DATE, prizes: ['50366', '12345', '67890', '11111', '22222'] },
      winners: [
        { position: 1, series: 6, element: 65010, entry_id: holders.get('6/65010') },
        { position: 2, series: 6, element: 65015, entry_id: holders.get('6/65015') },
        { position: 3, series: 9, element: 99999, entry_id: holders.get('9/99999') },
        { position: 4, series: 0, element: 7, entry_id: holders.get('0/00007') },
      ],
      // The SHA-256 of the record the publication stored: the draw's, and the report's bytes.
      record_sha256: (await dw.ces(['draw', 'show', id, '--json'])).json.record_sha256,
    });
    assert.equal(
      createHash('sha256')
        .update((await dw.ces(['draw', 'report', id])).stdout)
        .digest('hex'),
      arrived[0]!.json.data.record_sha256,
    );

    await refused(dw, ['draw', 'disqualify', id, '--position', '1', '--reason', 'tarde demais'], 'draw_published', /final/);
    await refused(dw, ['draw', 'publish', id], 'draw_published', /already published/);
    await refused(
      dw,
      ['draw', 'results', id, '--extraction', '5788', '--date', '2026-11-28', '--prizes', PRIZES],
      'draw_already_run',
      /has run/,
    );
    assert.equal((await dw.ces(['draw', 'run', id, '--json'])).json.draw.status, 'published', 'run prints the outcome, changes nothing');
  });

  test('the audit log records each step by the operator: draw.created, frozen, results_recorded, run, winner_disqualified, published', async () => {
    const { dw, id } = await example();
    await dw.ces(['draw', 'run', id]);
    await dw.ces(['draw', 'disqualify', id, '--position', '3', '--reason', 'desistência']);
    await dw.ces(['draw', 'publish', id]);
    const audit = await dw.ces(['audit', 'list', '--campaign', dw.w.campaign.id, '--json']);
    const records = audit.json.filter((r: { action: string }) => r.action.startsWith('draw.')).reverse();
    assert.deepEqual(
      records.map((r: { action: string }) => r.action),
      ['draw.created', 'draw.frozen', 'draw.results_recorded', 'draw.run', 'draw.winner_disqualified', 'draw.published'],
    );
    assert.ok(
      records.every((r: { actor: string; details: { draw_id: string } }) => r.actor.startsWith('cli:') && r.details.draw_id === id),
      'each by the CLI operator, about this draw',
    );
    assert.deepEqual(records[2].details, {
      draw_id: id,
      extraction: 5787,
      date: EXTRACTION_DATE,
      prizes: ['50366', '12345', '67890', '11111', '22222'],
      source: 'typed',
    });
  });

  test('list shows the campaign’s draws, newest first', async () => {
    const { dw, id } = await example();
    dw.s.clock.advance(1000);
    // Another extraction: one extraction decides one draw of a campaign and mode.
    const second = await createDraw(dw, ['--extraction-date', '2026-11-25']);
    const list = await dw.ces(['draw', 'list', '--campaign', dw.w.campaign.id, '--json']);
    assert.deepEqual(
      list.json.map((d: { id: string; status: string }) => [d.id, d.status]),
      [
        [second, 'created'],
        [id, 'frozen'],
      ],
    );
    const text = (await dw.ces(['draw', 'list', '--campaign', dw.w.campaign.id])).stdout;
    assert.match(text, /^ID +NAME +MODE +STATUS +CUTOFF +WINNERS +ELIGIBLE +EXTRACTION +FORMED +CREATED_AT$/m);
    assert.match(text, new RegExp(`^${id} +Sorteio de Natal +live +frozen +${CUTOFF_UTC} +4 +5 +5787 +- `, 'm'));
  });

  test('report prints the apuração record (Markdown or HTML) and clause the regulation clause, as text; --json wraps the text', async () => {
    const { dw, id } = await example();
    await refused(dw, ['draw', 'report', id], 'draw_not_run', /has not run yet/);
    const clause = await dw.ces(['draw', 'clause', id]);
    assert.equal(clause.code, 0, clause.stderr);
    assert.equal(clause.stdout, `${renderDrawClause(dw.s.ctx, id).replace(/\n$/, '')}\n`);
    assert.match(clause.stdout, /^CLÁUSULA — DA APURAÇÃO \(Sorteio de Natal\)$/m);

    const run = (await dw.ces(['draw', 'run', id, '--json'])).json;
    // The record tells its reader how to write the canonical list again, as this ces is run.
    const numbersCommand = `${cesCommand()} draw numbers ${id}`;
    const md = await dw.ces(['draw', 'report', id]);
    assert.equal(md.code, 0, md.stderr);
    assert.equal(md.stdout, `${renderDrawReport(dw.s.ctx, id, 'md', numbersCommand).replace(/\n$/, '')}\n`);
    assert.match(md.stdout, /^# Ata de apuração: Sorteio de Natal$/m);
    for (const shown of [run.draw.numbers_sha256, '50366', '6/65010', '0/00007', `\`${numbersCommand}\` a reproduz`])
      assert.ok(md.stdout.includes(shown), `the record shows ${shown}`);
    const html = await dw.ces(['draw', 'report', id, '--format', 'HTML']);
    assert.equal(html.stdout, `${renderDrawReport(dw.s.ctx, id, 'html', numbersCommand).replace(/\n$/, '')}\n`);
    assert.match(html.stdout, /^<!doctype html>/i);
    const json = await dw.ces(['draw', 'report', id, '--format', 'html', '--json']);
    assert.deepEqual(json.json, { draw_id: id, format: 'html', text: renderDrawReport(dw.s.ctx, id, 'html', numbersCommand) });
    await refused(dw, ['draw', 'report', id, '--format', 'pdf'], 'invalid_option', /^--format must be md or html, got "pdf"$/);
  });

  test('a draw that does not exist, or has no results yet, is refused with its code', async () => {
    const { dw, id } = await example();
    await refused(dw, ['draw', 'show', '00000000-0000-4000-8000-000000000000'], 'not_found', /^Draw not found\.$/);
    const bare = await createDraw(dw, ['--extraction-date', '2026-11-25']);
    await refused(
      dw,
      ['draw', 'run', bare],
      'draw_results_missing',
      /^Record the extraction first: its number, date and five prizes \(npx ces draw results DRAW_ID --extraction N --date DATE --prizes P1,P2,P3,P4,P5\)$/,
    );
    await refused(dw, ['draw', 'disqualify', id, '--position', '1', '--reason', 'x'], 'draw_not_run', /has not run yet/);
  });

  test('a frozen set changed in storage never decides a draw: run refuses with draw_numbers_damaged', async () => {
    const { dw, id } = await example();
    // 0/00007 alone in its series, stored as gaps: the same count, another element (0/00000).
    const changed = dw.s.ctx.db
      .prepare('UPDATE draw_numbers SET data = ? WHERE draw_id = ? AND series = 0 AND encoding = 1 AND count = 1')
      .run(Buffer.from([1]), id);
    assert.equal(changed.changes, 1);
    await refused(dw, ['draw', 'run', id], 'draw_numbers_damaged', /no longer match their SHA-256/);
    assert.equal((await dw.ces(['draw', 'show', id, '--json'])).json.status, 'frozen', 'nothing was drawn');
  });
});

describe('one win per document', () => {
  // Participant A holds 6/65010 and 6/65015; B holds 9/99999 and 0/00007.
  for (const [flags, winners] of [
    [[], ['6/65010', '9/99999']],
    [['--no-one-win-per-document'], ['6/65010', '6/65015']],
  ] as const) {
    test(`${flags.length === 0 ? 'by default a participant whose document won is passed over' : 'with --no-one-win-per-document the next number wins whoever holds it'}: ${winners.join(', ')}`, async () => {
      const dw = await drawWorld({ seriesCount: 10, luckyNumbers: 'manual', luckyQuantity: 2 });
      await holdNumbers(dw, [
        ['6/65010', '6/65015'],
        ['9/99999', '0/00007'],
      ]);
      const id = await createDraw(dw, ['--winners', '2', ...flags]);
      dw.s.clock.set(AFTER_CUTOFF);
      await dw.ces(['draw', 'results', id, '--extraction', '5787', '--date', EXTRACTION_DATE, '--prizes', PRIZES]);
      const run = await dw.ces(['draw', 'run', id, '--json']);
      assert.deepEqual(run.json.winners.map(numberOf), winners);
      if (flags.length === 0)
        assert.deepEqual(run.json.winners[1].steps.slice(0, 2), [
          { kind: 'next_upwards', after: { series: 6, element: 65010 }, inclusive: false, series: 6, element: 65015, wrapped: false },
          { kind: 'skipped', series: 6, element: 65015, reason: 'document_already_won' },
        ]);
    });
  }
});

// ---- results --fetch: a local server answering as Caixa's results API does ----

interface Caixa {
  /** The base URL, as CES_LOTERIA_URL names it. */
  url: string;
  /** The path of every request, in order. */
  paths: string[];
}

type Reply = (req: IncomingMessage, res: ServerResponse, n: number) => void;

async function startCaixa(reply: Reply): Promise<Caixa> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.on('error', () => {});
    reply(req, res, paths.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/portaldeloterias/api`, paths };
}

const answer =
  (body: unknown, status = 200): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

/** Extraction 5787 as Caixa's API gives it (its other fields left out). */
const FEDERAL_5787 = {
  tipoJogo: 'FEDERAL',
  numero: 5787,
  dataApuracao: '22/11/2026',
  listaDezenas: ['050366', '012345', '067890', '011111', '022222'],
  dezenasSorteadasOrdemSorteio: ['050366', '012345', '067890', '011111', '022222'],
  localSorteio: 'ESPAÇO DA SORTE',
};

/** A terminal at which the operator types `typed` (nothing: the input ends). */
function terminal(typed: string): CliInput {
  return Object.assign(Readable.from(typed === '' ? [] : [Buffer.from(typed)]), { isTTY: true });
}

describe('ces draw results --fetch', () => {
  async function fetchWorld(reply: Reply): Promise<{ dw: DrawWorld; id: string; caixa: Caixa; env: Record<string, string> }> {
    const dw = await drawWorld({ seriesCount: 10, luckyNumbers: 'manual' });
    await holdNumbers(dw, [['6/65010']]);
    const id = await createDraw(dw);
    dw.s.clock.set(AFTER_CUTOFF);
    const caixa = await startCaixa(reply);
    return { dw, id, caixa, env: { CES_LOTERIA_URL: caixa.url, CES_LOTERIA_TIMEOUT_MS: '400' } };
  }
  const extractionOf = async (dw: DrawWorld, id: string): Promise<unknown> =>
    (await dw.ces(['draw', 'show', id, '--json'])).json.extraction;

  test('reads {base}/federal/N, shows it on stderr and with --yes records it as from Caixa, dataApuracao as the date', async () => {
    const { dw, id, caixa, env } = await fetchWorld(answer(FEDERAL_5787));
    const r = await dw.ces(['draw', 'results', id, '--fetch', '--extraction', '5787', '--yes', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(caixa.paths, ['/portaldeloterias/api/federal/5787']);
    assert.deepEqual(r.stderr.split('\n'), [
      `Loteria Federal extraction 5787 of 2026-11-22, read from ${caixa.url}/federal/5787:`,
      '  1st prize  050366',
      '  2nd prize  012345',
      '  3rd prize  067890',
      '  4th prize  011111',
      '  5th prize  022222',
      '',
    ]);
    assert.deepEqual(
      { ...r.json.extraction, recorded_at: undefined },
      { number: 5787, date: '2026-11-22', prizes: ['50366', '12345', '67890', '11111', '22222'], source: 'caixa', recorded_at: undefined },
    );
    // The same inputs give the same winners as typed results would.
    assert.deepEqual((await dw.ces(['draw', 'run', id, '--json'])).json.formed.number, '6/65012');
    const audit = await dw.ces(['audit', 'list', '--action', 'draw.results_recorded', '--json']);
    assert.equal(audit.json[0].details.source, 'caixa');
  });

  // Issue 41: "listaDezenas" alone was trusted, and a sorted list was recorded as the 1st to 5th prizes.
  test('a sorted "listaDezenas" is not taken for the prizes: they are recorded in the order of the extraction', async () => {
    const sorted = ['011111', '012345', '022222', '050366', '067890'];
    const { dw, id, env } = await fetchWorld(answer({ ...FEDERAL_5787, listaDezenas: sorted }));
    const r = await dw.ces(['draw', 'results', id, '--fetch', '--extraction', '5787', '--yes', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.extraction.prizes, ['50366', '12345', '67890', '11111', '22222']);
  });

  test('without --extraction it reads the latest extraction, at {base}/federal', async () => {
    const { dw, id, caixa, env } = await fetchWorld(answer(FEDERAL_5787));
    const r = await dw.ces(['draw', 'results', id, '--fetch', '--yes', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(caixa.paths, ['/portaldeloterias/api/federal']);
    assert.equal(r.json.extraction.number, 5787);
  });

  test('without a terminal and without --yes nothing is recorded, and it says to check and pass --yes', async () => {
    const { dw, id, env } = await fetchWorld(answer(FEDERAL_5787));
    const r = await dw.ces(['draw', 'results', id, '--fetch', '--extraction', '5787', '--json'], { env });
    assert.equal(r.code, 1);
    assert.equal(r.json.error.code, 'confirmation_required');
    assert.match(r.stderr, /5th prize {2}022222\nces: Not recorded: without a terminal nobody can confirm what was read\. .*--yes\.\n$/);
    assert.equal(await extractionOf(dw, id), null);
  });

  // [what the operator types at the terminal, recorded?]
  for (const [typed, recorded] of [
    ['y\n', true],
    ['YES\n', true],
    ['n\n', false],
    ['\n', false],
    ['', false],
  ] as const) {
    test(`at a terminal it asks "Record these results? [y/N]"; ${JSON.stringify(typed)} ${recorded ? 'records them' : 'records nothing'}`, async () => {
      const { dw, id, env } = await fetchWorld(answer(FEDERAL_5787));
      const r = await dw.ces(['draw', 'results', id, '--fetch', '--extraction', '5787', '--json'], { env, stdin: terminal(typed) });
      assert.match(r.stderr, /\n {2}5th prize {2}022222\nRecord these results\? \[y\/N\] /);
      if (recorded) {
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.json.extraction.source, 'caixa');
      } else {
        assert.equal(r.code, 1);
        assert.equal(r.json.error.code, 'not_confirmed');
        assert.equal(await extractionOf(dw, id), null);
      }
    });
  }

  test('--fetch and --prizes are mutually exclusive, and --date goes with --prizes only; Caixa is not asked', async () => {
    const { dw, id, caixa, env } = await fetchWorld(answer(FEDERAL_5787));
    await refused(
      dw,
      ['draw', 'results', id, '--fetch', '--prizes', PRIZES],
      'invalid_option',
      /^give --prizes or --fetch, not both$/,
      env,
    );
    await refused(dw, ['draw', 'results', id, '--fetch', '--date', EXTRACTION_DATE], 'invalid_option', /^--date goes with --prizes/, env);
    await refused(
      dw,
      ['draw', 'results', id, '--fetch', '--extraction', '0'],
      'invalid_option',
      /^--extraction must be a whole number/,
      env,
    );
    assert.deepEqual(caixa.paths, []);
  });

  test('a draw that has run is refused before Caixa is asked', async () => {
    const { dw, id, caixa, env } = await fetchWorld(answer(FEDERAL_5787));
    await dw.ces(['draw', 'results', id, '--extraction', '5787', '--date', EXTRACTION_DATE, '--prizes', PRIZES]);
    await dw.ces(['draw', 'run', id]);
    await refused(dw, ['draw', 'results', id, '--fetch', '--yes'], 'draw_already_run', /has run/, env);
    assert.deepEqual(caixa.paths, []);
  });

  test('a 503 is tried again after a short pause; the answer that follows is recorded', async () => {
    const { dw, id, caixa, env } = await fetchWorld((req, res, n) =>
      (n === 1 ? answer({ error: 'busy' }, 503) : answer(FEDERAL_5787))(req, res, n),
    );
    const r = await dw.ces(['draw', 'results', id, '--fetch', '--extraction', '5787', '--yes', '--json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(caixa.paths.length, 2);
    assert.equal(r.json.extraction.source, 'caixa');
  });

  const big = { ...FEDERAL_5787, observacao: 'x'.repeat(70 * 1024) };
  // [what Caixa does, its reply, code, message, requests made]
  const REFUSALS: Array<[string, Reply, string, RegExp, number]> = [
    [
      'the 5th prize missing',
      answer({ ...FEDERAL_5787, listaDezenas: FEDERAL_5787.listaDezenas.slice(0, 4) }),
      'loteria_bad_answer',
      /"listaDezenas" has 4 prizes; an extraction has exactly 5/,
      1,
    ],
    [
      'a 6th prize',
      answer({ ...FEDERAL_5787, listaDezenas: [...FEDERAL_5787.listaDezenas, '033333'] }),
      'loteria_bad_answer',
      /"listaDezenas" has 6 prizes/,
      1,
    ],
    [
      'no prizes at all',
      answer({ numero: 5787, dataApuracao: '22/11/2026' }),
      'loteria_bad_answer',
      /"listaDezenas" \(the five prizes\) is missing/,
      1,
    ],
    [
      'a prize that is no ticket',
      answer({ ...FEDERAL_5787, listaDezenas: ['050366', '012345', '1067890', '011111', '022222'] }),
      'loteria_bad_answer',
      /prize 3 \("1067890"\) must be 5 digits/,
      1,
    ],
    [
      'a prize that is a number',
      answer({ ...FEDERAL_5787, listaDezenas: ['050366', 12345, '067890', '011111', '022222'] }),
      'loteria_bad_answer',
      /prize 2 is 12345, not a ticket number/,
      1,
    ],
    [
      'a date that does not exist',
      answer({ ...FEDERAL_5787, dataApuracao: '31/02/2026' }),
      'loteria_bad_answer',
      /"dataApuracao" must be a date DD\/MM\/YYYY, got "31\/02\/2026"/,
      1,
    ],
    [
      'another extraction than asked',
      answer({ ...FEDERAL_5787, numero: 5788 }),
      'loteria_bad_answer',
      /it is about extraction 5788, not 5787/,
      1,
    ],
    [
      'no prizes in the order of the extraction, only "listaDezenas"',
      answer({ ...FEDERAL_5787, dezenasSorteadasOrdemSorteio: undefined }),
      'loteria_bad_answer',
      /"dezenasSorteadasOrdemSorteio" \(the five prizes in the order of the extraction\) is missing/,
      1,
    ],
    [
      'the two lists hold different tickets',
      answer({ ...FEDERAL_5787, dezenasSorteadasOrdemSorteio: ['050366', '012345', '067890', '011111', '033333'] }),
      'loteria_bad_answer',
      /do not hold the same five tickets/,
      1,
    ],
    [
      'the two lists, neither sorted, give different orders',
      answer({ ...FEDERAL_5787, dezenasSorteadasOrdemSorteio: ['012345', '050366', '067890', '011111', '022222'] }),
      'loteria_bad_answer',
      /give the prizes in different orders/,
      1,
    ],
    [
      'the same ticket twice',
      answer({
        ...FEDERAL_5787,
        listaDezenas: ['050366', '012345', '050366', '011111', '022222'],
        dezenasSorteadasOrdemSorteio: ['050366', '012345', '050366', '011111', '022222'],
      }),
      'loteria_bad_answer',
      /prizes 1 and 3 are both 50366/,
      1,
    ],
    ['a body that is not JSON', answer('<html>Portal indisponível</html>'), 'loteria_bad_answer', /the body is not JSON/, 1],
    ['an answer over 64 KiB', answer(big), 'loteria_bad_answer', /it is longer than 64 KiB/, 1],
    [
      'no such extraction yet (404)',
      answer({ message: 'not found' }, 404),
      'loteria_not_found',
      /no result for extraction 5787 .*HTTP 404/,
      1,
    ],
    ['a refusal (403)', answer('forbidden', 403), 'loteria_unavailable', /answered HTTP 403$/, 1],
    ['a 503 every time', answer({ error: 'busy' }, 503), 'loteria_unavailable', /answered HTTP 503 \(3 attempts\)$/, 3],
    ['a server that never answers', () => {}, 'loteria_unavailable', /did not answer \(3 attempts\): no complete answer within 400 ms$/, 3],
    [
      'a body that never ends (the deadline covers it)',
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"numero": 5787, ');
      },
      'loteria_unavailable',
      /did not answer \(3 attempts\): no complete answer within 400 ms$/,
      3,
    ],
  ];
  for (const [what, reply, code, message, requests] of REFUSALS) {
    test(`refused, nothing recorded: ${what}`, async () => {
      const { dw, id, caixa, env } = await fetchWorld(reply);
      await refused(dw, ['draw', 'results', id, '--fetch', '--extraction', '5787', '--yes'], code, message, env);
      assert.equal(caixa.paths.length, requests);
      assert.equal(await extractionOf(dw, id), null);
    });
  }

  // Issue 43: an error quotes at most 200 characters of what Caixa sent, on one line.
  const long = `${'9'.repeat(30 * 1024)}\u001b[2J\n${'x'.repeat(30 * 1024)}`;
  for (const [what, reply, message] of [
    [
      'a "numero" of 60 KiB',
      answer({ ...FEDERAL_5787, numero: long }),
      /^.*"numero" must be the extraction number \(1 to 999999\), got "9{199}… \(\d+ more characters\)$/,
    ],
    [
      'a "dataApuracao" of 60 KiB',
      answer({ ...FEDERAL_5787, dataApuracao: long }),
      /"dataApuracao" must be a date DD\/MM\/YYYY, got "9{199}… \(\d+ more characters\)$/,
    ],
    [
      'a prize that is 60 KiB of JSON',
      answer({ ...FEDERAL_5787, listaDezenas: ['050366', { note: long }, '067890', '011111', '022222'] }),
      /prize 2 is \{"note":"9{191}… \(\d+ more characters\), not a ticket number$/,
    ],
  ] as const)
    test(`refused, and the message quotes at most 200 characters of the answer: ${what}`, async () => {
      const { dw, id, env } = await fetchWorld(reply);
      await refused(dw, ['draw', 'results', id, '--fetch', '--extraction', '5787', '--yes'], 'loteria_bad_answer', message, env);
      const plain = await dw.ces(['draw', 'results', id, '--fetch', '--extraction', '5787', '--yes'], { env });
      assert.ok(plain.stderr.length < 600, `${plain.stderr.length} characters on stderr`);
      assert.equal(plain.stderr.split('\n').filter(Boolean).length, 1);
      assert.doesNotMatch(plain.stderr, /\u001b/);
    });

  test('a connection refused is tried 3 times, then loteria_unavailable says why', async () => {
    const { dw, id, env } = await fetchWorld(answer(FEDERAL_5787));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await refused(dw, ['draw', 'results', id, '--fetch', '--yes'], 'loteria_unavailable', /did not answer \(3 attempts\): ECONNREFUSED/, {
      ...env,
      CES_LOTERIA_URL: `http://127.0.0.1:${port}/api`,
    });
  });

  test('the results API settings are read only by --fetch: a bad one stops it, not typed results', async () => {
    const { dw, id, caixa } = await fetchWorld(answer(FEDERAL_5787));
    const bad = { CES_LOTERIA_URL: 'caixa.gov.br', CES_LOTERIA_TIMEOUT_MS: 'soon' };
    await refused(
      dw,
      ['draw', 'results', id, '--fetch', '--yes'],
      'invalid_config',
      /^CES_LOTERIA_URL must be an http:\/\/ or https:\/\/ URL/,
      bad,
    );
    const typed = await dw.ces(['draw', 'results', id, '--extraction', '5787', '--date', EXTRACTION_DATE, '--prizes', PRIZES], {
      env: bad,
    });
    assert.equal(typed.code, 0, typed.stderr);
    assert.deepEqual(caixa.paths, []);
  });
});
