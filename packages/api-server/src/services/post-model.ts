import type {
  ContentType,
  Post,
  PostOrTeaser,
  PostStatus,
  PostTeaser,
  Roles,
  Visibility,
} from '@app/contracts';
import { openableVisibilities, VISIBILITY_MIN_TIER } from '@app/contracts';
import type { Caller } from './accounts';

/** Post rows, the shared SQL fragments and the row -> Post mapping used by every part of the post service. */

export const LOCKED_MESSAGE = 'This research requires a higher subscription tier';
export const POST_NOT_FOUND = 'Post not found';

export interface PostRow {
  id: number;
  slug: string;
  title: string;
  summary: string;
  content: string;
  excerpt: string | null;
  status: PostStatus;
  visibility: Visibility;
  content_type: ContentType;
  author_id: number | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  views: number;
  author_name: string | null;
  likes: number;
  liked: number;
  comment_count: number;
  tags_json: string;
  categories_json: string;
  /** Lists only: 1 when the row is a teaser (asked with `teasers`, published, above the caller's tier). */
  locked?: number;
}

export interface ListQuery {
  status: PostStatus;
  visibility: Visibility[] | null;
  limit: number;
  offset: number;
  tag: string | null;
  category: string | null;
  contentType: ContentType | null;
  q: string | null;
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

export const POST_COLUMNS = `p.id, p.slug, p.title, p.summary, p.content, p.excerpt, p.status, p.visibility, p.content_type,
  p.author_id, p.published_at, p.created_at, p.updated_at, p.views, p.like_count AS likes, p.comment_count, p.tags_json, p.categories_json,
  ${AUTHOR_NAME} AS author_name,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = @uid) AS liked`;

/**
 * A caller may see a post when they wrote it, administer the site, or it is published at an openable tier.
 * Always 0 or 1 (never NULL, also for a post whose author is gone), because a teaser is NOT VISIBLE.
 */
const VISIBLE = `(@admin = 1 OR IFNULL(p.author_id = @uid, 0)
  OR (p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))))`;

/** Search's rule: own posts in any status, others' only published at an openable tier (no admin bypass). */
const SEARCHABLE = `(IFNULL(p.author_id = @uid, 0)
  OR (p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))))`;

/**
 * A teaser: asked for, published, above the caller's tier, never private. The visibility filter chooses
 * among the posts the caller may open (SPEC §6's Explore request stays as it is); teasers come on top.
 */
const teaser = (open: string) => `(@teasers = 1 AND p.status = 'published' AND p.visibility <> 'private'
  AND NOT ${open})`;

/**
 * Filters. The search text matches a locked post's title and summary only: matching its content would
 * let a guest probe what the content says.
 */
const filters = (open: string) => `
  AND (@content_type IS NULL OR p.content_type = @content_type)
  AND (@tag IS NULL OR EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'tag' AND t.name = @tag))
  AND (@category IS NULL OR EXISTS (SELECT 1 FROM post_terms t
        WHERE t.post_id = p.id AND t.kind = 'category' AND t.name = @category))
  AND (@q IS NULL OR p.title LIKE @q ESCAPE '\\' OR p.summary LIKE @q ESCAPE '\\'
       OR (${open} AND p.content LIKE @q ESCAPE '\\'))`;

const VIS_FILTER = `(@vis IS NULL OR p.visibility IN (SELECT value FROM json_each(@vis)))`;

const listSql = (open: string, where: string, order: string) => `SELECT ${POST_COLUMNS}, NOT ${open} AS locked
  FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE ${where} AND ((${open} AND ${VIS_FILTER}) OR ${teaser(open)}) ${filters(open)}
  ORDER BY ${order} LIMIT @limit OFFSET @offset`;

export const LIST_SQL = listSql(VISIBLE, 'p.status = @status', 'p.published_at DESC, p.id DESC');

export const SEARCH_SQL = listSql(
  SEARCHABLE,
  '1 = 1',
  'p.published_at IS NULL, p.published_at DESC, p.id DESC',
);

export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
export const now = () => new Date().toISOString();
export const isAdmin = (roles: Roles) => roles?.includes('admin') ?? false;

export function who(caller: Caller | null) {
  const roles: Roles = caller ? caller.roles : null;
  return {
    uid: caller?.userId ?? -1,
    admin: isAdmin(roles) ? 1 : 0,
    open: JSON.stringify(openableVisibilities(roles)),
    roles,
  };
}

/** Only what a teaser may carry: picked field by field, so a new column never leaks by default. */
export function toTeaser(r: PostRow): PostTeaser {
  if (r.status !== 'published' || r.visibility === 'public' || r.visibility === 'private') {
    throw new Error(`post ${r.id} cannot be teased`); // the SQL never selects these: a bug, not a 4xx
  }
  const requiredTier = VISIBILITY_MIN_TIER[r.visibility];
  if (requiredTier === 'guest' || requiredTier === 'admin') throw new Error(`post ${r.id} cannot be teased`);
  return {
    id: r.id,
    _id: String(r.id),
    slug: r.slug,
    title: r.title,
    summary: r.summary,
    status: 'published',
    visibility: r.visibility,
    content_type: r.content_type,
    published_at: r.published_at,
    created_at: r.created_at,
    author: { id: r.author_id, name: r.author_name },
    locked: true,
    required_tier: requiredTier,
  };
}

/** List rows: locked rows become teasers, the others full posts. */
export function toListItems(rows: PostRow[]): PostOrTeaser[] {
  return rows.map((r) => (r.locked === 1 ? toTeaser(r) : toPosts([r])[0]!));
}

export function toPosts(rows: PostRow[]): Post[] {
  return rows.map((r) => ({
    id: r.id,
    _id: String(r.id),
    title: r.title,
    summary: r.summary,
    content: r.content,
    excerpt: r.excerpt,
    status: r.status,
    visibility: r.visibility,
    content_type: r.content_type,
    published_at: r.published_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    views: r.views,
    likes: r.likes,
    liked: r.liked === 1,
    comment_count: r.comment_count,
    author: { id: r.author_id, name: r.author_name },
    slug: r.slug,
    tags: JSON.parse(r.tags_json) as string[],
    categories: JSON.parse(r.categories_json) as string[],
  }));
}
