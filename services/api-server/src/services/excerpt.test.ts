import { describe, expect, it } from 'vitest';
import { makeExcerpt, plainText } from './excerpt';

describe('plainText keeps the words a reader sees', () => {
  it('keeps ranges and compounds intact', () => {
    expect(plainText('Shrinkage costs 3-10% of revenue across a 12-store chain with on-site audits.')).toBe(
      'Shrinkage costs 3-10% of revenue across a 12-store chain with on-site audits.',
    );
    expect(plainText('Lead times of 2–4 weeks — longer for self-hosted, well-known vendors')).toBe(
      'Lead times of 2–4 weeks — longer for self-hosted, well-known vendors',
    );
  });

  it('drops heading markers, emphasis and blockquote markers, not the words', () => {
    expect(
      plainText('## Key findings\n\nThis is **very** _important_ and ~~old~~ news.\n\n> A quoted-line'),
    ).toBe('Key findings. This is very important and old news. A quoted-line');
  });

  it('reads list items as words, without their markers', () => {
    expect(
      plainText('- first-tier suppliers\n- second item\n\n1. step one\n2. step two\n\n- [x] done-ish'),
    ).toBe('first-tier suppliers second item step one step two done-ish');
  });

  it('keeps link text, drops link targets and images', () => {
    expect(plainText('See [the 2024 report](https://example.com/a-b) and ![chart](x.png "t") here.')).toBe(
      'See the 2024 report and here.',
    );
    expect(plainText('Auto <https://example.com> link')).toBe('Auto https://example.com link');
  });

  it('keeps code spans as text and skips code blocks', () => {
    expect(
      plainText('Run `npm run build-all` first.\n\n```sh\nrm -rf /\n```\n\n    indented code\n\nAfter.'),
    ).toBe('Run npm run build-all first. After.');
  });

  it('strips HTML tags, scripts and comments, never showing markup', () => {
    expect(plainText('<img src=x onerror=alert(1)>Hello <b>bold</b> world')).toBe('Hello bold world');
    expect(
      plainText('<div>Block <i>text</i></div>\n\n<script>alert(1)</script>\n\n<!-- note -->\n\nEnd'),
    ).toBe('Block text End');
    expect(plainText('<img src=x onerror=alert(1)>')).toBe('');
    // Inline, a script is three tokens (open tag, text, close tag): its text is still not a word of the post.
    expect(
      plainText(
        'Before <script>window.__pwned = "x"; alert(1)</script> <style>p{}</style>\n\n<a href="javascript:x">html link</a> After',
      ),
    ).toBe('Before html link After');
  });

  it('decodes entities and Markdown escapes to the characters they stand for', () => {
    expect(plainText('Tom &amp; Jerry &lt;3 \\*not emphasis\\* &#8211; done')).toBe(
      'Tom & Jerry <3 *not emphasis* – done',
    );
  });

  it('reads tables cell by cell', () => {
    expect(plainText('| Region | Change |\n|---|---|\n| EU | +3-5% |')).toBe('Region Change EU +3-5%');
  });
});

describe('makeExcerpt', () => {
  it('returns short text whole', () => {
    expect(makeExcerpt('# Title\n\nShort *text*.')).toBe('Title. Short text.');
  });

  it('cuts at a word boundary within 120 characters and marks the cut', () => {
    const words = 'mid-market on-site 3-10% supply-chain '.repeat(10);
    const excerpt = makeExcerpt(words);
    expect(excerpt.length).toBeLessThanOrEqual(120);
    expect(excerpt.endsWith('…')).toBe(true);
    const body = excerpt.slice(0, -1);
    expect(words.startsWith(body)).toBe(true);
    expect(words[body.length]).toBe(' ');
  });

  it('keeps a word that ends exactly at the limit', () => {
    const text = `${'x'.repeat(114)} word tail`;
    expect(makeExcerpt(text)).toBe(`${'x'.repeat(114)} word…`);
    expect(makeExcerpt(`${'x'.repeat(114)} words tail`)).toBe(`${'x'.repeat(114)}…`);
  });
});
