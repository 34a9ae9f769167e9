import type { Post, PostCard, PostCardOrTeaser, PostOrTeaser } from '@app/contracts';
import { can, canOpen } from '@app/contracts';
import type { ReadPool } from '../db/read-pool';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { type QueryShape, queryShape, shapeKey } from './access-sql';
import { type Caller, viewerOf } from './accounts';
import { decodeCursor, encodeCursor, type Page } from './cursor';
import {
  type CardRow,
  cardRow,
  cardText,
  type JsonText,
  type ListKeyset,
  type ListQuery,
  LOCKED_MESSAGE,
  listItemTexts,
  listSql,
  mineSql,
  POST_COLUMNS,
  POST_NOT_FOUND,
  type PostRow,
  type StoredCard,
  storedCard,
  toPosts,
  toTeaser,
  who,
} from './post-model';
import { type SearchSql, SQLITE_SEARCH } from './search';
import { SearchCache } from './search-cache';
import { POSTGRES_SEARCH } from './search-postgres';

const BY_ID = `SELECT ${POST_COLUMNS} FROM posts p WHERE p.id = @id`;
const BY_SLUG = `SELECT ${POST_COLUMNS} FROM posts p WHERE p.slug = @slug`;
const MAX_ID = 'SELECT COALESCE(MAX(id), 0) FROM posts';
/**
 * One statement, not a write transaction: it locks only the post's row and fires no trigger that locks
 * another (the count triggers watch other columns), so it cannot deadlock with the writers that take turns.
 */
const COUNT_VIEW = 'UPDATE posts SET views = views + 1 WHERE id = ? RETURNING views';

/** Post queries and the read/write access checks every other part of the post service goes through. */
export class PostReader {
  /** List, search and My Research SQL texts by keyset or mode, and shape (services/access-sql.ts), written once each. */
  private texts = new Map<string, string>();
  private readonly fts: SearchSql;

  /** Ranked answers per query and visibility set until the next write (search-cache.ts). */
  private readonly cache: SearchCache;

  constructor(
    private readonly sql: Sql,
    private readonly pool: ReadPool | null = null,
    searchCacheSize = 0,
  ) {
    this.cache = new SearchCache(sql, searchCacheSize);
    this.fts = sql.dialect === 'sqlite' ? SQLITE_SEARCH : POSTGRES_SEARCH;
  }

  private text(key: string, write: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = write();
      this.texts.set(key, text);
    }
    return text;
  }

  /**
   * One page of posts the caller may open, plus (with `q.teasers`) teasers of those above their tier, newest
   * first, as cards. With search text it is a ranked search under the list's access rule.
   */
  async list(caller: Caller | null, q: ListQuery): Promise<Page<JsonText<PostCardOrTeaser>>> {
    if (q.q) return this.ranked('list', caller, { ...q, q: q.q });
    const w = who(caller);
    const kind = q.status === 'published' ? 'p' : 'd';
    const after = q.cursor ? decodeCursor(q.cursor, kind) : null;
    const keyset: ListKeyset = after === null ? 'first' : kind === 'p' ? 'published' : 'draft';
    const shape = { ...queryShape(caller, q), status: q.status, visibility: q.visibility };
    const skip = after ? 0 : q.offset;
    const text = this.text(`list:${keyset}:${q.limit}:${skip > 0}:${shapeKey(shape)}`, () =>
      listSql(keyset, shape, q.limit + 1, skip > 0),
    );
    const columns = await this.sql.rows(text, {
      ...this.filterParams(q),
      uid: w.uid,
      status: q.status,
      c_at: after && 'at' in after ? after.at : null,
      c_id: after?.id ?? null,
      offset: skip,
    });
    return this.page(columns.map(cardRow), q.limit, (last) =>
      kind === 'p' ? { k: 'p', at: last.published_at ?? '', id: last.id } : { k: 'd', id: last.id },
    );
  }

  /** /api/posts/search: ranked, on a worker thread when the server has a read pool (read-pool.ts). */
  async search(
    caller: Caller | null,
    q: Omit<ListQuery, 'status'> & { q: string },
  ): Promise<Page<JsonText<PostCardOrTeaser>>> {
    const plan = await this.rankedPlan(caller, { ...q, status: 'published' });
    if (!plan) return { items: [], next: null };
    const sql = this.searchText('search', plan.shape);
    const { uid, ...shared } = plan.params;
    return this.cache.get(uid, `${sql}\n${JSON.stringify(shared)}`, async () => {
      await this.fillMax(plan);
      if (!this.pool) return this.rankHere(sql, plan);
      // The ranking floor is a read of the full-text index too (3-5 ms for a common word at 100,000 posts):
      // the worker finds it before the search, so neither runs on the event loop.
      const { rows, filled } = await this.pool.query(sql, plan.params, { min: this.fts.rankFloor });
      return plan.page(rows as CardRow[], (plan.params.min ?? filled.min) as number);
    });
  }

  /** Ranked by bm25 under the list's access rule (GET /api/posts?q=), on the main thread. */
  private async ranked(
    mode: 'list' | 'search',
    caller: Caller | null,
    q: ListQuery & { q: string },
  ): Promise<Page<JsonText<PostCardOrTeaser>>> {
    const plan = await this.rankedPlan(caller, q);
    if (!plan) return { items: [], next: null };
    const sql = this.searchText(mode, plan.shape);
    const { uid, ...shared } = plan.params;
    return this.cache.get(uid, `${sql}\n${JSON.stringify(shared)}`, async () => {
      await this.fillMax(plan);
      return this.rankHere(sql, plan);
    });
  }

  /**
   * A first page ranks the posts that exist now (`max`, kept in its cursor). Read only when the search runs:
   * a cached answer needs none, since no post can be added without a write, which empties the cache.
   */
  private async fillMax(plan: RankedPlan) {
    plan.params.max ??= (await this.sql.value<number>(MAX_ID))!;
  }

  /** A ranked query on this thread: its ranking floor first (unless the cursor carries it), then the rows. */
  private async rankHere(sql: string, plan: RankedPlan) {
    const min = plan.params.min ?? (await this.sql.value<number>(this.fts.rankFloor, plan.params))!;
    return plan.page(await this.sql.all<CardRow>(sql, { ...plan.params, min }), min);
  }

  /** The search SQL of a mode and shape, written once per shape (the pool's workers key theirs by text). */
  private searchText(mode: 'list' | 'search', shape: QueryShape): string {
    return this.text(`search:${mode}:${shapeKey(shape)}`, () => this.fts.sql(mode, shape));
  }

  /**
   * The parameters of a ranked query and how its rows become a page. Pages by position among the posts
   * that existed at the first page (services/search.ts). Null when the text holds no word.
   */
  private async rankedPlan(caller: Caller | null, q: ListQuery & { q: string }) {
    const at = q.cursor ? decodeCursor(q.cursor, 's') : null;
    const match = this.fts.query(q.q);
    if (match === null) return null;
    const max: number | null = at?.max ?? null;
    // The ranking floor (services/search.ts RANK_WINDOW) comes with a later page's cursor; for a first page
    // it is found where the search runs (rankHere, or the read pool's worker).
    const min = at?.min ?? null;
    const pos = at?.pos ?? q.offset;
    const params = {
      ...this.filterParams(q),
      uid: who(caller).uid,
      status: q.status,
      match: match.all,
      match_ts: match.titleSummary,
      max,
      min,
      limit: q.limit + 1,
      offset: pos,
    };
    const page = (rows: CardRow[], floor: number): Page<JsonText<PostCardOrTeaser>> => {
      const more = rows.length > q.limit;
      const items = listItemTexts(more ? rows.slice(0, q.limit) : rows);
      const next = more ? encodeCursor({ k: 's', max: params.max!, min: floor, pos: pos + q.limit }) : null;
      return { items, next };
    };
    return { params, page, shape: queryShape(caller, q) };
  }

  /** My Research: the caller's own posts in any status, as cards, newest created first. */
  async mine(
    caller: Caller,
    q: Pick<ListQuery, 'limit' | 'offset' | 'cursor'>,
  ): Promise<Page<JsonText<PostCard>>> {
    const after = q.cursor ? decodeCursor(q.cursor, 'm') : null;
    const text = this.text(`mine:${after !== null}`, () => mineSql(after !== null));
    const rows = await this.sql.all<CardRow>(text, {
      uid: caller.userId,
      c_at: after?.at ?? null,
      c_id: after?.id ?? null,
      limit: q.limit + 1,
      offset: after ? 0 : q.offset,
    });
    const more = rows.length > q.limit;
    const kept = more ? rows.slice(0, q.limit) : rows;
    const last = more ? storedCard(kept.at(-1)!) : null;
    return {
      items: kept.map(cardText),
      next: last ? encodeCursor({ k: 'm', at: last.created_at, id: last.id }) : null,
    };
  }

  private filterParams(q: Pick<ListQuery, 'visibility' | 'contentType' | 'tag' | 'category' | 'teasers'>) {
    return {
      vis: q.visibility ? JSON.stringify(q.visibility) : null,
      content_type: q.contentType,
      tag: q.tag,
      category: q.category,
    };
  }

  /** The first `limit` rows, and a cursor after the last of them when a further row was found. */
  private page(
    rows: CardRow[],
    limit: number,
    cursorAfter: (last: StoredCard) => Parameters<typeof encodeCursor>[0],
  ): Page<JsonText<PostCardOrTeaser>> {
    const more = rows.length > limit;
    const kept = more ? rows.slice(0, limit) : rows;
    // The cursor's fields are in the last row's stored card, read only when there is a next page.
    const next = more ? encodeCursor(cursorAfter(storedCard(kept.at(-1)!))) : null;
    return { items: listItemTexts(kept), next };
  }

  private async row(idOrSlug: string | number, uid: number): Promise<PostRow | undefined> {
    const s = String(idOrSlug);
    if (/^\d+$/.test(s)) {
      const id = Number(s);
      if (!Number.isSafeInteger(id)) return undefined;
      return this.sql.get<PostRow>(BY_ID, { id, uid });
    }
    return this.sql.get<PostRow>(BY_SLUG, { slug: s, uid });
  }

  /**
   * The one access rule for a single post. Drafts of others and admin-only posts are 404 (their existence
   * is not disclosed); a published post above the caller's tier is `locked` (its teaser may be shown).
   */
  private async access(
    caller: Caller | null,
    idOrSlug: string | number,
  ): Promise<{ row: PostRow; locked: boolean }> {
    const w = who(caller);
    const row = await this.row(idOrSlug, w.uid);
    if (!row) throw new HttpError(404, POST_NOT_FOUND);
    // Whoever may edit the post (its author, an admin) sees it whatever its status or visibility.
    if (caller && can(viewerOf(caller), 'edit', row)) return { row, locked: false };
    if (row.status !== 'published') throw new HttpError(404, POST_NOT_FOUND);
    if (!canOpen(row.visibility, w.roles)) {
      if (row.visibility === 'private') throw new HttpError(404, POST_NOT_FOUND);
      return { row, locked: true };
    }
    return { row, locked: false };
  }

  /** The read check for comments, likes and writes: a locked post is 403 with no content. */
  async readable(caller: Caller | null, idOrSlug: string | number): Promise<PostRow> {
    const { row, locked } = await this.access(caller, idOrSlug);
    if (locked) throw new HttpError(403, LOCKED_MESSAGE);
    return row;
  }

  /**
   * Single read: the post, counting a view unless `countView` is false (a prefetch: no one has seen it yet);
   * or, above the caller's tier, its teaser (no view counted).
   */
  async read(caller: Caller | null, idOrSlug: string, { countView = true } = {}): Promise<PostOrTeaser> {
    const { row, locked } = await this.access(caller, idOrSlug);
    if (locked) return toTeaser(row);
    if (countView) row.views = (await this.sql.value<number>(COUNT_VIEW, [row.id]))!;
    return toPosts([row])[0]!;
  }

  /** For writes: the post must be visible to the caller (else 404) and theirs, or the caller an admin (else 403). */
  async writable(caller: Caller, idOrSlug: string): Promise<PostRow> {
    const row = await this.readable(caller, idOrSlug);
    if (!can(viewerOf(caller), 'edit', row)) {
      throw new HttpError(403, 'Only the author or an administrator can change this research');
    }
    return row;
  }

  /** The post by id as seen by user uid (-1 for a guest), without any access check. */
  async byId(id: number, uid: number): Promise<Post> {
    return toPosts([(await this.sql.get<PostRow>(BY_ID, { id, uid }))!])[0]!;
  }

  reload(caller: Caller | null, id: number): Promise<Post> {
    return this.byId(id, caller?.userId ?? -1);
  }
}

type RankedPlan = NonNullable<Awaited<ReturnType<PostReader['rankedPlan']>>>;
