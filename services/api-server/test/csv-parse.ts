/**
 * A strict RFC 4180 reader for the tests: records end in CRLF only, quoted fields may hold anything with
 * quotes doubled, and anything else (a bare quote, a lone CR or LF outside quotes) throws, so a test
 * fails on a malformed export instead of reading something plausible out of it.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`CSV: ${why} at ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`);
  };
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('quote inside an unquoted field');
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      i += 2;
      records.push(record);
      record = [];
      continue;
    }
    fail('expected a comma or CRLF');
  }
  if (record.length > 0) fail('last record without CRLF');
  return records;
}
