// RFC 4180 CSV: fields separated by commas, records ended by CRLF, and a field that holds a comma,
// a double quote, CR or LF enclosed in double quotes with inner quotes doubled. null is an empty
// field. Values are written exactly as stored: no spreadsheet-formula escaping, which would change
// the data an auditor compares against the database (see README, Exports).

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: Array<string | number | null>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
