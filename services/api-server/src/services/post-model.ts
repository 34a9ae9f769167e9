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
import { openableVisibilities, VISIBILITY_MIN_TIER } from '@app/contracts';
import { AUTHOR_NAME_OF } from '../db/author-name';
import { EXPLORE_SHAPE, filtersSql, type ListShape, listAccess } from './access-sql';
import type { Caller } from './accounts';

/** Post rows, the shared SQL fragments and the row -> Post mapping used by every part of the post service. */

export const LOCKED_MESSAGE = 'This research requires a higher subscription tier';
export const POST_NOT_FOUND = 'Post not found';

/**
 * A list row: the stored card (card_json: everything that changes only with a write, its counts of likes
 * and comments and its author included since migration 18) and what changes without one: the views
 * (counted by reads) and whether the caller likes it, never the content. Only these columns: every further
 * one costs SQLite a column and JavaScript a value per row, 51 rows a page (issue 36). What a teaser or a
 * cursor needs besides is read from card_json.
 */
export interface CardRow {
  card_json: string;
  views: number;
  liked: number;
  /** Lists only: 1 when the row is a teaser (asked with `teasers`, published, above the caller's tier). */
  locked?: number;
}

/** The stored card's fields a teaser, an access check or a cursor reads. */
export type StoredCard = Pick<
  PostCard,
  | 'id'
  | 'slug'
  | 'title'
  | 'summary'
  | 'status'
  | 'visibility'
  | 'content_type'
  | 'published_at'
  | 'created_at'
  | 'author'
>;

export const storedCard = (r: CardRow) => JSON.parse(r.card_json) as StoredCard;

/** A single read's row: the card, the columns access checks and writers read, and the content. */
export interface PostRow extends CardRow, Omit<StoredCard, 'author'> {
  author_id: number | null;
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

/** The author's name from a users row `u` (comments); posts carry theirs in p.author_name (migration 17). */
export const AUTHOR_NAME = AUTHOR_NAME_OF('u');

/**
 * What a card shows (PostCardSchema): never p.content, so a list never reads a body it would drop. A guest
 * likes nothing: their lists leave out the per-row look into post_likes.
 */
const cardColumns = (guest: boolean) => `p.card_json, p.views,
  ${guest ? '0' : 'CASE WHEN EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = @uid) THEN 1 ELSE 0 END'}
    AS liked`;
export const CARD_COLUMNS = cardColumns(false);

export const POST_COLUMNS = `p.content, p.id, p.slug, p.title, p.summary, p.status, p.visibility, p.content_type,
  p.published_at, p.created_at, p.author_id, ${CARD_COLUMNS}`;

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
/**
 * A page's size as a literal (1 to 101 rows: validated), and no OFFSET on a page that skips nothing: with
 * `LIMIT @limit OFFSET @offset` Explore's statement cost ~30 µs more at 100,000 posts (issue 36).
 */
export function pageLimit(rows: number, offset: boolean): string {
  if (!Number.isInteger(rows) || rows < 1 || rows > 101) throw new Error(`not a page size: ${rows}`);
  return `LIMIT ${rows}${offset ? ' OFFSET @offset' : ''}`;
}

export function listSql(keyset: ListKeyset, shape: ListShape, rows = 51, offset = false): string {
  const { where, locked } = listAccess(shape);
  return `SELECT ${cardColumns(shape.guest)}, ${locked} AS locked
  FROM posts p
  WHERE p.status = @status AND ${where} ${filtersSql(shape)} ${LIST_KEYSETS[keyset]}
  ORDER BY p.published_at DESC, p.id DESC ${pageLimit(rows, offset)}`;
}

/** The first page of a published list, as Explore asks it (the benchmark prints its plan). */
export const LIST_SQL = listSql('first', EXPLORE_SHAPE);

/** My Research: the caller's own posts in any status, newest created first, served by idx_posts_author. */
export const mineSql = (after: boolean) => `SELECT ${CARD_COLUMNS} FROM posts p
  WHERE p.author_id = @uid ${after ? 'AND (p.created_at, p.id) < (@c_at, @c_id)' : ''}
  ORDER BY p.created_at DESC, p.id DESC LIMIT @limit OFFSET @offset`;

export function who(caller: Caller | null) {
  const roles: Roles = caller ? caller.roles : null;
  return {
    uid: caller?.userId ?? -1,
    open: JSON.stringify(openableVisibilities(roles)),
    roles,
  };
}

/** Only what a teaser may carry: picked field by field, so a new card field never leaks by default. */
export function toTeaser(r: CardRow): PostTeaser {
  const card = storedCard(r);
  if (card.status !== 'published' || card.visibility === 'public' || card.visibility === 'private') {
    throw new Error(`post ${card.id} cannot be teased`); // the SQL never selects these: a bug, not a 4xx
  }
  const requiredTier = VISIBILITY_MIN_TIER[card.visibility];
  if (requiredTier === 'guest' || requiredTier === 'admin')
    throw new Error(`post ${card.id} cannot be teased`);
  return {
    id: card.id,
    _id: String(card.id),
    slug: card.slug,
    title: card.title,
    summary: card.summary,
    status: 'published',
    visibility: card.visibility,
    content_type: card.content_type,
    published_at: card.published_at,
    created_at: card.created_at,
    author: { id: card.author.id, name: card.author.name },
    locked: true,
    required_tier: requiredTier,
  };
}

/**
 * A card as JSON text: the stored card with the views and the caller's like appended. Built as text
 * because a list is 50 of these and parsing the stored part only to serialise it again doubles the cost of
 * a list (the stored JSON always ends with its closing brace).
 */
export function cardText(r: CardRow): JsonText<PostCard> {
  return `${r.card_json.slice(0, -1)},"views":${r.views},"liked":${r.liked === 1}}`;
}

/**
 * Teasers' text by post id, with the stored card it was made from: a teaser is a pure function of the
 * stored card, so an entry is used only while the card is exactly what the row says (no invalidation
 * needed). Parsing a 600-byte card to pick ten fields and serialising them cost ~5 µs a teaser, ~14 of
 * Explore's 50.
 */
const teaserTexts = new Map<number, { card: string; text: string }>();
const TEASER_MEMO_SIZE = 2000;

function teaserText(r: CardRow, id: number): string {
  const hit = teaserTexts.get(id);
  if (hit && hit.card === r.card_json) return hit.text;
  const text = JSON.stringify(toTeaser(r));
  if (teaserTexts.size >= TEASER_MEMO_SIZE) teaserTexts.clear();
  teaserTexts.set(id, { card: r.card_json, text });
  return text;
}

/** A list row from `Sql.rows`: the columns of CARD_COLUMNS and `locked`, in that order. */
export const cardRow = (c: unknown[]): CardRow => ({
  card_json: c[0] as string,
  views: c[1] as number,
  liked: c[2] as number,
  locked: c[3] as number,
});

/** The post id at the head of a stored card (migration 9 writes it first on both databases), or NaN. */
const CARD_ID = /^\{\s*"id"\s*:\s*(\d{1,15})\s*,/;
const cardId = (cardJson: string) => Number(CARD_ID.exec(cardJson)?.[1] ?? Number.NaN);

/** List rows as JSON text: locked rows become teasers, the others cards. */
export function listItemTexts(rows: CardRow[]): JsonText<PostCardOrTeaser>[] {
  return rows.map((r) => {
    if (r.locked !== 1) return cardText(r);
    const id = cardId(r.card_json);
    return Number.isSafeInteger(id) ? teaserText(r, id) : JSON.stringify(toTeaser(r));
  });
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
