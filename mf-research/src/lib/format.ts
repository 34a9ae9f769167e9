import { formatCount, LIMITS, MESSAGES, type Post } from '@app/contracts';

/**
 * SPEC §2: the post's excerpt, which the server cuts from the content (plain text, at most 120 characters)
 * when the post is written; lists carry no content (issue 17). A post without one shows its summary, cut
 * to the same length.
 */
export function excerptOf(post: Pick<Post, 'excerpt' | 'summary'>): string {
  if (post.excerpt && post.excerpt.trim() !== '') return post.excerpt;
  return post.summary.slice(0, LIMITS.excerptLength);
}

export function titleOf(post: Pick<Post, 'title'>): string {
  return post.title.trim() === '' ? MESSAGES.research.untitled : post.title;
}

export function authorOf(post: Pick<Post, 'author'>): string {
  const name = post.author.name?.trim();
  return name ? name : MESSAGES.research.anonymous;
}

export function viewsText(views: number): string {
  return `${formatCount(views)} ${views === 1 ? 'view' : 'views'}`;
}

/** 'a, b ,, c' → ['a', 'b', 'c'] without duplicates: how tag and category inputs are read. */
export function splitList(value: string): string[] {
  const seen = new Set<string>();
  for (const part of value.split(',')) {
    const item = part.trim();
    if (item) seen.add(item);
  }
  return [...seen];
}
