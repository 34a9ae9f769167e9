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

  it('writes records that read back to the same values, emoji and non-ASCII as they are', () => {
    const values = ['Zoë 🚀', 'a,b', '"quoted"', 'multi\r\nline', "'already", 'naïve — ok', ''];
    const text = csvRow(values) + csvRow(['x', 'y']);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([values, ['x', 'y']]);
    expect(CSV_BOM).toBe('\uFEFF');
  });
});
