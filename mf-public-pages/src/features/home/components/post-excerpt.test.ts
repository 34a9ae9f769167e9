import { EXCERPT_LENGTH, postExcerpt } from './post-excerpt';

describe('postExcerpt', () => {
  it("prefers the API's plain-text excerpt, then the summary", () => {
    expect(
      postExcerpt({ summary: 'A *well-known* risk', excerpt: 'A well-known risk', content: 'Body' }),
    ).toBe('A well-known risk');
    expect(postExcerpt({ summary: 'The summary', excerpt: null, content: 'Body' })).toBe('The summary');
    expect(postExcerpt({ summary: '  ', excerpt: null, content: 'Body' })).toBe('Body');
  });

  it('falls back to the content as plain text, without markdown punctuation', () => {
    const content = '## Heading\n\nSome **bold** and a [link](https://example.com).\n\n- item one';
    expect(postExcerpt({ summary: '', excerpt: null, content })).toBe(
      'Heading Some bold and a link. item one',
    );
  });

  it('cuts long content at a word boundary with an ellipsis', () => {
    const content = 'word '.repeat(100);
    const excerpt = postExcerpt({ summary: '', excerpt: null, content });
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LENGTH + 1);
    expect(excerpt.endsWith('word…')).toBe(true);
  });
});
