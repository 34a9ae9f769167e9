import type { Post, PostCard } from '@app/contracts';

export const EXCERPT_LENGTH = 160;

/** Markdown punctuation a reader should not see in a one-paragraph preview. */
function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * SPEC §2 Home: "title plus summary or content". The API's excerpt is exactly that, as plain text (made on the
 * server from the summary, else the content, with Markdown and HTML removed), so it comes first; an API
 * without excerpts falls back to the summary, else the content's start.
 */
export function postExcerpt(
  post: Pick<PostCard, 'summary' | 'excerpt'> & Partial<Pick<Post, 'content'>>,
): string {
  const summary = post.excerpt?.trim() || plainText(post.summary);
  if (summary) return summary;
  // Lists send cards (no content, issue 17); only an API without excerpts reaches this.
  const text = plainText(post.content ?? '');
  if (text.length <= EXCERPT_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_LENGTH);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > EXCERPT_LENGTH * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
