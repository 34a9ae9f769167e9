import { authorOf, excerptOf, splitList, titleOf, viewsText } from './format';

describe('excerptOf', () => {
  it('prefers the excerpt (lists carry no content)', () => {
    expect(excerptOf({ excerpt: 'Short excerpt', summary: 'A summary' })).toBe('Short excerpt');
  });
  it('falls back to the first 120 characters of the summary', () => {
    const summary = `${'x'.repeat(119)}yztail`;
    expect(excerptOf({ excerpt: null, summary })).toBe(`${'x'.repeat(119)}y`);
    expect(excerptOf({ excerpt: '  ', summary: 'brief' })).toBe('brief');
  });
});

describe('card texts', () => {
  it("uses 'Untitled Research' and 'Anonymous' for missing values", () => {
    expect(titleOf({ title: '  ' })).toBe('Untitled Research');
    expect(titleOf({ title: 'Supply risk' })).toBe('Supply risk');
    expect(authorOf({ author: { name: null } })).toBe('Anonymous');
    expect(authorOf({ author: { name: 'Ada L' } })).toBe('Ada L');
  });
  it('counts views', () => {
    expect(viewsText(1)).toBe('1 view');
    expect(viewsText(1200)).toBe('1,200 views');
  });
  it('splits comma-separated lists, trimmed and without duplicates', () => {
    expect(splitList(' risk, supply chain,,risk , ')).toEqual(['risk', 'supply chain']);
    expect(splitList('')).toEqual([]);
  });
});
