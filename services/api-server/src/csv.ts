/**
 * CSV as RFC 4180 writes it, for exports opened in spreadsheets (issue 34's lead export). Hand-written:
 * the workspace has no CSV library, and writing (never parsing) is these few lines, where a dependency
 * would bring a parser and options we would not use.
 *
 * - Records end in CRLF; a field holding a comma, a quote, CR or LF is quoted, its quotes doubled.
 * - Formula injection (OWASP "CSV Injection"): a text cell that begins with =, +, -, @, a tab or CR would be
 *   run as a formula by Excel, LibreOffice or Sheets (`=cmd|' /C calc'!A0`). Such a cell gets a leading
 *   single quote, which the spreadsheet shows as text and does not evaluate. It happens before quoting, so
 *   the quote sits inside the quoted field. Numbers are ours (ids), never user text, and stay as they are.
 * - UTF-8 throughout; the file starts with a byte order mark, without which Excel reads it as the
 *   machine's ANSI code page and garbles every non-ASCII character (ä, é, emoji).
 */
export type CsvValue = string | number | boolean | null | undefined;

export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised when it could start a formula, quoted when RFC 4180 requires it. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
