// src/tools/csv.ts: RFC 4180 quoting, and OWASP's CSV-injection rule
// (docs/operations.md#exports-ces-entries-export): a text cell whose first character is =, +, -, @,
// TAB or CR gets a leading apostrophe, and so does a formula after ;, a comma, TAB, a line break,
// a space or | inside it; the field is then quoted as any other would be.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { csvField, csvRecord } from '../../src/tools/csv.ts';

describe('csvField', () => {
  const cases: Array<[input: string | number | null, written: string, rule: string]> = [
    ['=1+1', "'=1+1", 'an equals sign starts a formula'],
    ['+cmd|x', "'+cmd|x", 'so does a plus sign'],
    ['-2+3', "'-2+3", 'and a minus sign'],
    ['@SUM(A1)', "'@SUM(A1)", 'and an at sign'],
    ['\t=1+1', "'\t'=1+1", 'a TAB hides a formula behind it (and may split the cell there)'],
    ['\r=1+1', `"'\r'=1+1"`, 'a CR too, and the field is then quoted for its CR'],
    // Issue 32: a spreadsheet that splits on ; (pt-BR Excel, LibreOffice for Brazil) must not find a
    // cell that starts a formula either: an apostrophe goes before the formula after each separator.
    [';=1+1', `";'=1+1"`, 'a formula after a semicolon is neutralised, and the field quoted for its semicolon'],
    ['Ana;=1+1', `"Ana;'=1+1"`, 'also after text'],
    ['Ana; "=1+1"', `"Ana; ""'=1+1"""`, 'also behind spaces and a quote'],
    ['Ana,@SUM(A1)', `"Ana,'@SUM(A1)"`, 'after a comma'],
    ['Ana\t+cmd', "Ana\t'+cmd", 'after a TAB'],
    ['Ana\n-2', `"Ana\n'-2"`, 'after a line break'],
    ['Rua 1; apto 2', '"Rua 1; apto 2"', 'a semicolon before plain text changes nothing but the quoting'],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`, 'a formula with quotes is prefixed, then quoted'],
    // Issue 43: a spreadsheet may split on a space or on | (both offered by Excel's and LibreOffice's
    // import dialogs), so `Ana =1+1` opened that way would be a cell `=1+1`.
    ['Ana =1+1', "Ana '=1+1", 'a formula after a space is neutralised'],
    ['Ana  "+cmd"', `"Ana  ""'+cmd"""`, 'also behind more spaces and a quote'],
    [' =1+1', " '=1+1", 'and after a leading space'],
    ['Ana|=1+1', "Ana|'=1+1", 'a formula after a | is neutralised'],
    ['Ana|@SUM(A1)', "Ana|'@SUM(A1)", 'an at sign too'],
    ['Rua 1 | apto 2', 'Rua 1 | apto 2', 'a | or a space before plain text changes nothing'],
    ['Ana=1+1', 'Ana=1+1', 'a formula character after a letter is harmless'],
    ["'=1", "'=1", 'an apostrophe already first is left alone'],
    [-5, '-5', 'a number is digits, never a formula'],
    ['Silva, Maria', '"Silva, Maria"', 'a comma is quoted'],
    [null, '', 'null is an empty field'],
  ];
  for (const [input, written, rule] of cases) {
    test(rule, () => assert.equal(csvField(input), written));
  }
  test('a record is its fields joined by commas and ended by CRLF', () => {
    assert.equal(csvRecord(['=a', 'b', null]), "'=a,b,\r\n");
  });
});
