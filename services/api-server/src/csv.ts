/**
 * CSV as RFC 4180 writes it, for exports opened in spreadsheets (issue 34's lead export). Hand-written:
 * the workspace has no CSV library, and writing (never parsing) is these few lines, where a dependency
 * would bring a parser and options we would not use.
 *
 * - Records end in CRLF; a field holding a comma, a semicolon, a quote, CR or LF is quoted, its quotes
 *   doubled. The semicolon is no separator in RFC 4180, but it is the one a spreadsheet in a German, French
 *   or Dutch locale splits on (issue 46): quoted, the cell stays one cell in every locale.
 * - Formula injection (OWASP "CSV Injection", ASVS 5.0 V1): a cell that begins with =, +, -, @, a tab, CR
 *   or NUL, also after leading spaces (which Excel and LibreOffice skip before reading a formula), would be
 *   run as a formula (`=cmd|' /C calc'!A0`). Such a cell gets a leading single quote, which the
 *   spreadsheet shows as text and does not evaluate. It happens before quoting, so the quote sits inside the
 *   quoted field. Every cell goes through it, whatever its column; numbers (ids) and booleans are ours and
 *   cannot start a formula.
 * - UTF-8 throughout; the file starts with a byte order mark, without which Excel reads it as the
 *   machine's ANSI code page and garbles every non-ASCII character (ä, é, emoji).
 */
export type CsvValue = string | number | boolean | null | undefined;

export const CSV_BOM = '\uFEFF';
/** Any run of spaces (any Unicode space, no-break and ideographic included), then a formula's first character. */
const FORMULA_START = /^[\p{Zs}]*[=+\-@\t\r\0]/u;
const NEEDS_QUOTES = /[",;\r\n]/;

/** One field: neutralised when it could start a formula, quoted when it holds a separator, quote or newline. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
    return String(value);
  const raw = String(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF. */
export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
