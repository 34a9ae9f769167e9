import { LIMITS } from '@app/contracts';
import { Lexer, type Token, type Tokens } from 'marked';

/**
 * The plain-text preview of a post that list cards show (SPEC §2: the excerpt, 120 characters). Authors
 * write Markdown with inline HTML; a card shows text, so the source is parsed by the same Markdown parser
 * the post page uses (marked, GFM) and only the words a reader would see are kept. Regex stripping of
 * Markdown punctuation cannot tell a list marker from a hyphen in "3-10%" or "on-site", so it is not used.
 */

/** Tokens whose content a reader never sees as prose in a preview. */
const SKIPPED = new Set(['code', 'image', 'hr', 'def', 'checkbox', 'space']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** The text inside a raw HTML block; script, style and comments say nothing to a reader. */
function htmlText(html: string): string {
  return html
    .replace(/<(script|style|template|noscript|iframe|textarea|title)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
    .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
    .replace(/<\/?[a-z][^>]*(>|$)/gi, ' ');
}

/** Elements whose inside is code or hidden, never words: `<script>` written inline arrives as three tokens. */
const HIDDEN_OPEN = /^<(script|style|template|noscript|iframe|textarea|title)\b/i;

/** Depth-first text of a token list; stops early once `enough` characters are collected. */
function collect(tokens: readonly Token[], out: string[], enough: number, size = { n: 0 }): void {
  let hiddenUntil: string | null = null;
  for (const token of tokens) {
    if (size.n >= enough) return;
    if (hiddenUntil !== null) {
      if (token.type === 'html' && token.text.toLowerCase().startsWith(`</${hiddenUntil}`))
        hiddenUntil = null;
      continue;
    }
    if (token.type === 'html' && !token.block) {
      const tag = HIDDEN_OPEN.exec(token.text)?.[1]?.toLowerCase();
      if (tag && !token.text.toLowerCase().includes(`</${tag}`)) {
        hiddenUntil = tag;
        continue;
      }
    }
    if (SKIPPED.has(token.type)) continue;
    let piece: string | null = null;
    if (token.type === 'html') {
      // An inline tag (<b>, </b>) sits inside a word run; a block's tags separate its words.
      piece = token.block ? ` ${htmlText(token.text)} ` : htmlText(token.text).trim() === '' ? '' : ' ';
    } else if (token.type === 'list') {
      for (const item of (token as Tokens.List).items) {
        collect(item.tokens, out, enough, size);
        out.push(' ');
      }
      continue;
    } else if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const row of [table.header, ...table.rows]) {
        for (const cell of row) {
          collect(cell.tokens, out, enough, size);
          out.push(' ');
        }
      }
      continue;
    } else if (token.type === 'br') {
      piece = ' ';
    } else if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0) {
      collect(token.tokens, out, enough, size);
      // A heading runs into the next sentence in one line of text: end it like one ("Findings. Costs rose").
      if (token.type === 'heading' && /[\p{L}\p{N})]$/u.test(out.join('').trimEnd())) out.push('.');
      // Blocks (paragraphs, headings, quotes) end a sentence run; inline containers do not.
      if (token.type === 'paragraph' || token.type === 'heading' || token.type === 'blockquote')
        out.push(' ');
      continue;
    } else if ('text' in token && typeof token.text === 'string') {
      piece = token.type === 'escape' ? token.text : decodeEntities(token.text);
    }
    if (piece) {
      out.push(piece);
      size.n += piece.length;
    }
  }
}

/** Markdown (with HTML) to one line of plain text. */
export function plainText(markdown: string, enough = Number.POSITIVE_INFINITY): string {
  const out: string[] = [];
  collect(Lexer.lex(markdown, { gfm: true }), out, enough);
  return out.join('').replace(/\s+/g, ' ').trim();
}

/** At most `length` characters, cut at a word boundary with an ellipsis; never half a word. */
export function makeExcerpt(markdown: string, length: number = LIMITS.excerptLength): string {
  // A little beyond the limit is enough to know where the last whole word ends.
  const text = plainText(markdown, length * 2);
  if (text.length <= length) return text;
  // Room for the ellipsis: the head is at most length - 1 characters and ends where a word ends.
  const cut = text.slice(0, length - 1);
  const lastSpace = cut.lastIndexOf(' ');
  const head = text[length - 1] === ' ' || lastSpace <= 0 ? cut : cut.slice(0, lastSpace);
  return `${head.replace(/[\s,;:.–—-]+$/, '')}…`;
}
