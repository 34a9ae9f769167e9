import type { Post, PostOrTeaser } from '@app/contracts';
import { canOpen } from '@app/contracts';
import type { DB } from '../db/database';
import { HttpError } from '../errors';
import type { Caller } from './accounts';
import {
  isAdmin,
  LIST_SQL,
  type ListQuery,
  LOCKED_MESSAGE,
  likePattern,
  POST_COLUMNS,
  POST_NOT_FOUND,
  type PostRow,
  SEARCH_SQL,
  toListItems,
  toPosts,
  toTeaser,
  who,
} from './post-model';

/** Post queries and the read/write access checks every other part of the post service goes through. */
export class PostReader {
  private stmts;

  constructor(db: DB) {
    this.stmts = {
      list: db.prepare(LIST_SQL),
      search: db.prepare(SEARCH_SQL),
      byId: db.prepare(
        `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.author_id WHERE p.id = @id`,
      ),
      bySlug: db.prepare(
        `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.author_id WHERE p.slug = @slug`,
      ),
      mine: db.prepare(
        `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.author_id
         WHERE p.author_id = @uid ORDER BY p.created_at DESC, p.id DESC LIMIT @limit OFFSET @offset`,
      ),
      countView: db.prepare('UPDATE posts SET views = views + 1 WHERE id = ? RETURNING views').pluck(),
      termCounts: db.prepare(
        `SELECT t.name AS name, COUNT(*) AS count FROM post_terms t JOIN posts p ON p.id = t.post_id
         WHERE t.kind = @kind AND p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))
         GROUP BY t.name ORDER BY count DESC, t.name`,
      ),
    };
  }

  /** Posts the caller may open, plus (with `q.teasers`) teasers of those above their tier. */
  list(caller: Caller | null, q: ListQuery): PostOrTeaser[] {
    const w = who(caller);
    const rows = this.stmts.list.all({
      uid: w.uid,
      admin: w.admin,
      open: w.open,
      teasers: q.teasers ? 1 : 0,
      status: q.status,
      vis: q.visibility ? JSON.stringify(q.visibility) : null,
      content_type: q.contentType,
      tag: q.tag,
      category: q.category,
      q: q.q ? likePattern(q.q) : null,
      limit: q.limit,
      offset: q.offset,
    }) as PostRow[];
    return toListItems(rows);
  }

  search(caller: Caller | null, q: Omit<ListQuery, 'status'> & { q: string }): PostOrTeaser[] {
    const w = who(caller);
    const rows = this.stmts.search.all({
      uid: w.uid,
      open: w.open,
      teasers: q.teasers ? 1 : 0,
      vis: q.visibility ? JSON.stringify(q.visibility) : null,
      content_type: q.contentType,
      tag: q.tag,
      category: q.category,
      q: likePattern(q.q),
      limit: q.limit,
      offset: q.offset,
    }) as PostRow[];
    return toListItems(rows);
  }

  mine(caller: Caller, limit: number, offset: number): Post[] {
    return toPosts(this.stmts.mine.all({ uid: caller.userId, limit, offset }) as PostRow[]);
  }

  private row(idOrSlug: string | number, uid: number): PostRow | undefined {
    const s = String(idOrSlug);
    if (/^\d+$/.test(s)) {
      const id = Number(s);
      if (!Number.isSafeInteger(id)) return undefined;
      return this.stmts.byId.get({ id, uid }) as PostRow | undefined;
    }
    return this.stmts.bySlug.get({ slug: s, uid }) as PostRow | undefined;
  }

  /**
   * The one access rule for a single post. Drafts of others and admin-only posts are 404 (their existence
   * is not disclosed); a published post above the caller's tier is `locked` (its teaser may be shown).
   */
  private access(caller: Caller | null, idOrSlug: string | number): { row: PostRow; locked: boolean } {
    const w = who(caller);
    const row = this.row(idOrSlug, w.uid);
    if (!row) throw new HttpError(404, POST_NOT_FOUND);
    if (w.admin === 1 || (caller && row.author_id === caller.userId)) return { row, locked: false };
    if (row.status !== 'published') throw new HttpError(404, POST_NOT_FOUND);
    if (!canOpen(row.visibility, w.roles)) {
      if (row.visibility === 'private') throw new HttpError(404, POST_NOT_FOUND);
      return { row, locked: true };
    }
    return { row, locked: false };
  }

  /** The read check for comments, likes and writes: a locked post is 403 with no content. */
  readable(caller: Caller | null, idOrSlug: string | number): PostRow {
    const { row, locked } = this.access(caller, idOrSlug);
    if (locked) throw new HttpError(403, LOCKED_MESSAGE);
    return row;
  }

  /** Single read: the post, counting a view; or, above the caller's tier, its teaser (no view counted). */
  read(caller: Caller | null, idOrSlug: string): PostOrTeaser {
    const { row, locked } = this.access(caller, idOrSlug);
    if (locked) return toTeaser(row);
    row.views = this.stmts.countView.get(row.id) as number;
    return toPosts([row])[0]!;
  }

  /** For writes: the post must be visible to the caller (else 404) and theirs, or the caller an admin (else 403). */
  writable(caller: Caller, idOrSlug: string): PostRow {
    const row = this.readable(caller, idOrSlug);
    if (row.author_id !== caller.userId && !isAdmin(caller.roles)) {
      throw new HttpError(403, 'Only the author or an administrator can change this research');
    }
    return row;
  }

  /** The post by id as seen by user uid (-1 for a guest), without any access check. */
  byId(id: number, uid: number): Post {
    return toPosts([this.stmts.byId.get({ id, uid }) as PostRow])[0]!;
  }

  reload(caller: Caller | null, id: number): Post {
    return this.byId(id, caller?.userId ?? -1);
  }

  termCounts(caller: Caller | null, kind: 'tag' | 'category'): { name: string; count: number }[] {
    return this.stmts.termCounts.all({ kind, open: who(caller).open }) as { name: string; count: number }[];
  }
}
