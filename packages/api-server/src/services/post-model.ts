import type {
  ContentType,
  Post,
  PostCard,
  PostCardOrTeaser,
  PostStatus,
  PostTeaser,
  Roles,
  Visibility,
} from '@app/contracts';
import { isAdmin, openableVisibilities, VISIBILITY_MIN_TIER } from '@app/contracts';
import type { Caller } from './accounts';

/** Post rows, the shared SQL fragments and the row -> Post mapping used by every part of the post service. */

export const LOCKED_MESSAGE = 'This research requires a higher subscription tier';
export const POST_NOT_FOUND = 'Post not found';

/**
 * A list row: the stored card (migration 9's card_json: what changes only when the post is written) and
 * what changes without that (views, likes, liked, comments, the author's name), never the content. id,
 * status, visibility, author_id and the dates are there for access checks and cursors.
 */
export interface CardRow {
  card_json: string;
  id: number;
  status: PostStatus;
  visibility: Visibility;
  author_id: number | null;
  published_at: string | null;
  created_at: string;
  views: number;
  author_name: string | null;
  likes: number;
  liked: number;
  comment_count: number;
  /** Lists only: 1 when the row is a teaser (asked with `teasers`, published, above the caller's tier). */
  locked?: number;
}

/** A single read's row: the card plus what the writers read (services/post-writes.ts) and the content. */
export interface PostRow extends CardRow {
  slug: string;
  title: string;
  summary: string;
  content_type: ContentType;
  content: string;
}

/** JSON text of a T, as sent: list items are built as text and joined, never parsed and re-serialised. */
export type JsonText<T> = string & { readonly __json?: T };

export interface ListQuery {
  status: PostStatus;
  visibility: Visibility[] | null;
  limit: number;
  offset: number;
  tag: string | null;
  category: string | null;
  contentType: ContentType | null;
  q: string | null;
  /** The opaque cursor of the page to answer (services/cursor.ts); null for the first page. */
  cursor: string | null;
  /** Also list published posts above the caller's tier (never private), as teasers. */
  teasers?: boolean;
}

export interface PostWrite {
  title?: string;
  summary?: string;
  content?: string;
  content_type?: ContentType;
  visibility?: Visibility;
  status?: PostStatus;
  tags?: string[];
  categories?: string[];
}

export const AUTHOR_NAME = `CASE WHEN u.id IS NULL THEN NULL
  WHEN trim(u.first_name || ' ' || u.last_name) = '' THEN u.username
  ELSE trim(u.first_name || ' ' || u.last_name) END`;

/** What a card shows (PostCardSchema): never p.content, so a list never reads a body it would drop. */
export const CARD_COLUMNS = `p.card_json, p.id, p.status, p.visibility, p.author_id, p.published_at, p.created_at,
  p.views, p.like_count AS likes, p.comment_count, ${AUTHOR_NAME} AS author_name,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = @uid) AS liked`;

export const POST_COLUMNS = `p.content, p.slug, p.title, p.summary, p.content_type, ${CARD_COLUMNS}`;

/**
 * A caller may see a post when they wrote it, administer the site, or it is published at an openable tier.
 * Always 0 or 1 (never NULL, also for a post whose author is gone), because a teaser is NOT VISIBLE.
 */
export const VISIBLE = `(@admin = 1 OR IFNULL(p.author_id = @uid, 0)
  OR (p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))))`;

/** Search's rule: own posts in any status, others' only published at an openable tier (no admin bypass). */
export const SEARCHABLE = `(IFNULL(p.author_id = @uid, 0)
  OR (p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))))`;

/**
 * A teaser: asked for, published, above the caller's tier, never private. The visibility filter chooses
 * among the posts the caller may open (SPEC §6's Explore request stays as it is); teasers come on top.
 */
export const teaser = (
  open: string,
) => `(@teasers = 1 AND p.status = 'published' AND p.visibility <> 'private'
  AND NOT ${open})`;

/** Filters shared by lists and search (the search text itself is matched by FTS5, services/search.ts). */
export const FILTERS = `
  AND (@content_type IS NULL OR p.content_type = @content_type)
  AND (@tag IS NULL OR EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'tag' AND t.name = @tag))
  AND (@category IS NULL OR EXISTS (SELECT 1 FROM post_terms t
        WHERE t.post_id = p.id AND t.kind = 'category' AND t.name = @category))`;

export const VIS_FILTER = `(@vis IS NULL OR p.visibility IN (SELECT value FROM json_each(@vis)))`;

/** Who sees a row: `open` rows in full (narrowed by the visibility filter), teasers on top when asked. */
export const ACCESS = (open: string) => `((${open} AND ${VIS_FILTER}) OR ${teaser(open)})`;

/**
 * Where the next page starts. Published posts always have a published_at (the writers set it), drafts never:
 * so a published list pages by (published_at, id) and a draft list by id, both as index ranges.
 */
const LIST_KEYSETS = {
  first: '',
  published: 'AND (p.published_at, p.id) < (@c_at, @c_id)',
  draft: 'AND p.published_at IS NULL AND p.id < @c_id',
} as const;
export type ListKeyset = keyof typeof LIST_KEYSETS;

/** A list page: cards (never the content), newest first, served by idx_posts_status_published. */
export const listSql = (keyset: ListKeyset) => `SELECT ${CARD_COLUMNS}, NOT ${VISIBLE} AS locked
  FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE p.status = @status AND ${ACCESS(VISIBLE)} ${FILTERS} ${LIST_KEYSETS[keyset]}
  ORDER BY p.published_at DESC, p.id DESC LIMIT @limit OFFSET @offset`;

/** The first page of a published list, as Home and Explore ask it (the benchmark prints its plan). */
export const LIST_SQL = listSql('first');

/** My Research: the caller's own posts in any status, newest created first, served by idx_posts_author. */
export const mineSql = (
  after: boolean,
) => `SELECT ${CARD_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE p.author_id = @uid ${after ? 'AND (p.created_at, p.id) < (@c_at, @c_id)' : ''}
  ORDER BY p.created_at DESC, p.id DESC LIMIT @limit OFFSET @offset`;

export const now = () => new Date().toISOString();

export function who(caller: Caller | null) {
  const roles: Roles = caller ? caller.roles : null;
  return {
    uid: caller?.userId ?? -1,
    admin: isAdmin(roles) ? 1 : 0,
    open: JSON.stringify(openableVisibilities(roles)),
    roles,
  };
}

/** Only what a teaser may carry: picked field by field, so a new card field never leaks by default. */
export function toTeaser(r: CardRow): PostTeaser {
  if (r.status !== 'published' || r.visibility === 'public' || r.visibility === 'private') {
    throw new Error(`post ${r.id} cannot be teased`); // the SQL never selects these: a bug, not a 4xx
  }
  const requiredTier = VISIBILITY_MIN_TIER[r.visibility];
  if (requiredTier === 'guest' || requiredTier === 'admin') throw new Error(`post ${r.id} cannot be teased`);
  const stored = JSON.parse(r.card_json) as Pick<PostCard, 'slug' | 'title' | 'summary' | 'content_type'>;
  return {
    id: r.id,
    _id: String(r.id),
    slug: stored.slug,
    title: stored.title,
    summary: stored.summary,
    status: 'published',
    visibility: r.visibility,
    content_type: stored.content_type,
    published_at: r.published_at,
    created_at: r.created_at,
    author: { id: r.author_id, name: r.author_name },
    locked: true,
    required_tier: requiredTier,
  };
}

/**
 * A card as JSON text: the stored part with what changes without a write of the post appended. Built as
 * text because a list is 50 of these and parsing the stored part only to serialise it again doubles the
 * cost of a list (the stored JSON always ends with its closing brace).
 */
export function cardText(r: CardRow): JsonText<PostCard> {
  const author = JSON.stringify({ id: r.author_id, name: r.author_name });
  return `${r.card_json.slice(0, -1)},"views":${r.views},"likes":${r.likes},"liked":${r.liked === 1},"comment_count":${r.comment_count},"author":${author}}`;
}

/** List rows as JSON text: locked rows become teasers, the others cards. */
export function listItemTexts(rows: CardRow[]): JsonText<PostCardOrTeaser>[] {
  return rows.map((r) => (r.locked === 1 ? JSON.stringify(toTeaser(r)) : cardText(r)));
}

/** A list answer's body: the items' JSON text as one array. */
export function listBody<T>(items: JsonText<T>[]): JsonText<T[]> {
  return `[${items.join(',')}]`;
}

/** A card as an object (single reads): the same text as a list shows, parsed. */
export function toCard(r: CardRow): PostCard {
  return JSON.parse(cardText(r)) as PostCard;
}

export function toPosts(rows: PostRow[]): Post[] {
  return rows.map((r) => ({ ...toCard(r), content: r.content }));
}
