// RFC 4180 CSV: fields separated by commas, records ended by CRLF, and a field that holds a comma,
// a double quote, CR or LF enclosed in double quotes with inner quotes doubled. null is an empty
// field. A text value that a spreadsheet would run as a formula gets a leading apostrophe
// (docs/operations.md#exports-ces-entries-export, OWASP's CSV-injection rule): names, addresses and
// the like come from the API, and an operator who opens the export in a spreadsheet must never run
// `=HYPERLINK(...)` or `+cmd|...` sent by whoever filled a form. JSON Lines keeps every value
// exactly as stored.

/** First characters that make a spreadsheet read a cell as a formula (or, TAB and CR, hide one). */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A formula start after a character a spreadsheet may split a line on, maybe after spaces and
 * quotes: `;` (the list separator of pt-BR Excel and of LibreOffice for Brazil), `,`, TAB, a line
 * break, a space (a separator both offer in their import dialog) and `|` (the usual "other"
 * separator, of pipe-delimited files). Opened with `;` as its separator, `Ana;=1+1` would be two
 * cells, the second a formula, as `Ana =1+1` would be split on spaces; an apostrophe before the
 * `=` keeps that cell text whichever of these separators the spreadsheet picks.
 */
const FORMULA_AFTER_SEPARATOR = /([;,| \t\r\n][\s"']*)([=+\-@])/g;

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  // Only text: a number from the database (a count, a value) prints as digits, never a formula.
  let text = String(value);
  if (typeof value === 'string') {
    text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
    if (FORMULA_START.test(text)) text = `'${text}`;
  }
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: Array<string | number | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
