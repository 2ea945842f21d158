// One notation for a lucky number wherever a person reads it (docs/operations.md#one-way-to-write-a-number):
// `S/EEEEE`, the series zero-padded to the digits of series_count - 1, the element to 5 digits, and
// each prize as Caixa publishes it, six characters with the leading 0. A 200-series campaign through
// the real CLI: the run's text, the record in Markdown and HTML, the clause and the entries export
// write every number one way (before, the same draw wrote `10`/`60130`, `10-60130`, `010/60130`
// and prizes as `50306`), while `--json` keeps its `{series, element}` numbers and 5-digit prizes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../src/kernel/clock.ts';
import { makeCampaign, runCli, startTestServer } from './support/harness.ts';
import { settle, submitDrawEntries } from './support/mechanics.ts';

/** Tens of the 1st, 2nd and 3rd prizes 0, 1, 0 (series 010); units 6, 0, 1, 3, 0 (element 60130). */
const PRIZES = ['050306', '033510', '045501', '094363', '051100'];

/** Every `digits/digits` in a text: the lucky numbers it writes. */
const numbersIn = (text: string): string[] => text.match(/(?<![\w/.-])\d+\/\d+(?![\w/])/g) ?? [];

test('a 200-series draw writes every number S/EEEEE (series padded to 3) and every prize in 6 characters', async () => {
  const s = await startTestServer({ clock: new ManualClock('2023-01-10T12:00:00.000Z'), seed: 41 });
  try {
    const w = makeCampaign(s.ctx, { luckyNumbers: 'auto', luckyQuantity: 5, seriesCount: 200, name: 'Promoção 200 séries' });
    await submitDrawEntries(s, w.liveKey, { count: 40, firstDocument: 41_000, firstKey: 410_000, idempotencyPrefix: 'notation' });
    await settle(s);
    const ces = (args: string[]) => runCli([...args, '--db', s.dbPath], { clock: s.clock });
    const created = await ces([
      'draw',
      'create',
      '--campaign',
      w.campaign.id,
      '--mode',
      'live',
      '--name',
      'Sorteio 200',
      '--cutoff',
      '2023-01-17T23:59:59-03:00',
      '--extraction-date',
      '2023-01-18',
      '--winners',
      '3',
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const id = created.json.id as string;
    // Frozen after the cut-off and before the extraction (19:00 in Brasília); its results read the day after.
    s.clock.set('2023-01-18T12:00:00.000Z');
    const frozen = await ces(['draw', 'freeze', id]);
    assert.equal(frozen.code, 0, frozen.stderr);
    s.clock.set('2023-01-19T12:00:00.000Z');
    const results = await ces(['draw', 'results', id, '--extraction', '5733', '--date', '2023-01-18', '--prizes', PRIZES.join(',')]);
    assert.equal(results.code, 0, results.stderr);
    assert.match(results.stdout, /^extraction +5733 of 2023-01-18: 1st 050306, 2nd 033510, 3rd 045501, 4th 094363, 5th 051100 \(typed\)$/m);

    const run = await ces(['draw', 'run', id]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^formed number 010\/60130$/m);
    assert.match(run.stdout, /^ {2}series: 1, the tens digit of the 2nd prize \(ticket 033510\)$/m);
    const report = await ces(['draw', 'report', id]);
    const html = await ces(['draw', 'report', id, '--format', 'html']);
    const clause = await ces(['draw', 'clause', id]);
    const exported = await ces(['entries', 'export', '--campaign', w.campaign.id, '--format', 'csv', '--no-progress']);
    for (const [what, text] of [
      ['run', run.stdout],
      ['report (md)', report.stdout],
      ['report (html)', html.stdout],
      ['clause', clause.stdout],
      ['export (csv)', exported.stdout],
    ] as const) {
      const numbers = numbersIn(text);
      assert.ok(numbers.length > 0, `${what} writes numbers`);
      for (const n of numbers) assert.match(n, /^\d{3}\/\d{5}$/, `${what} writes ${n}`);
      assert.doesNotMatch(text, /\bfrom element\b|\ba partir do elemento\b/, `${what}: an element is never written apart from its series`);
      assert.doesNotMatch(text, /\d+-\d{5}\b/, `${what}: no S-EEEEE`);
    }
    assert.match(run.stdout, /^ {8}formed number 010\/60130: /m);
    for (const prize of PRIZES) {
      assert.ok(report.stdout.includes(`| ${prize} |`), `the record (md) shows ${prize} as Caixa publishes it`);
      assert.ok(html.stdout.includes(`<td>${prize}</td>`), `the record (html) shows ${prize} as Caixa publishes it`);
    }
    assert.match(report.stdout, /Número formado: \*\*010\/60130\*\*/);
    assert.match(clause.stdout, /forem 012305, 005437, 013526, 002329 e 015458:/);
    assert.match(clause.stdout, /algarismo da unidade do 1º prêmio \(012305\);/);

    // The machine shapes stay as they were: numbers as {series, element}, prizes as 5-digit tickets.
    const json = await ces(['draw', 'show', id, '--json']);
    assert.deepEqual(
      json.json.extraction.prizes,
      PRIZES.map((p) => p.slice(1)),
    );
    assert.deepEqual(Object.keys(json.json.winners[0]).includes('series'), true);
    assert.equal(typeof json.json.winners[0].series, 'number');
    const jsonl = await ces(['entries', 'export', '--campaign', w.campaign.id, '--format', 'jsonl', '--no-progress']);
    const pair = JSON.parse(jsonl.stdout.split('\n')[0]!).lucky_numbers[0];
    assert.match(pair.series, /^[1-9]?\d{1,2}$/, 'the JSON lines keep the API series (not padded)');
    assert.match(pair.order_number, /^\d{5}$/);
  } finally {
    await s.close();
  }
});
