import type {
  Comment,
  ContentType,
  LikeResult,
  Post,
  PostStatus,
  Report,
  Roles,
  Stats,
  Visibility,
} from '@app/contracts';
import { CONTENT_TYPES, canOpen, openableVisibilities, VISIBILITIES } from '@app/contracts';
import type { DB } from '../db/database';
import { HttpError } from '../errors';
import type { Caller } from './accounts';
import { makeExcerpt, slugify, uniqueSlug } from './slug';

export const LOCKED_MESSAGE = 'This research requires a higher subscription tier';
export const POST_NOT_FOUND = 'Post not found';

interface PostRow {
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

interface CommentRow {
  id: number;
  post_id: number;
  author_id: number | null;
  content: string;
  created_at: string;
  updated_at: string;
  author_name: string | null;
  likes: number;
  liked: number;
}

const AUTHOR_NAME = `CASE WHEN u.id IS NULL THEN NULL
  WHEN trim(u.first_name || ' ' || u.last_name) = '' THEN u.username
  ELSE trim(u.first_name || ' ' || u.last_name) END`;

const POST_COLUMNS = `p.id, p.slug, p.title, p.summary, p.content, p.excerpt, p.status, p.visibility, p.content_type,
  p.author_id, p.published_at, p.created_at, p.updated_at, p.views, p.like_count AS likes, p.comment_count, p.tags_json, p.categories_json,
  ${AUTHOR_NAME} AS author_name,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = @uid) AS liked`;

/** A caller may see a post when they wrote it, administer the site, or it is published at an openable tier. */
const VISIBLE = `(@admin = 1 OR p.author_id = @uid
  OR (p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))))`;

const FILTERS = `
  AND (@vis IS NULL OR p.visibility IN (SELECT value FROM json_each(@vis)))
  AND (@content_type IS NULL OR p.content_type = @content_type)
  AND (@tag IS NULL OR EXISTS (SELECT 1 FROM post_terms t WHERE t.post_id = p.id AND t.kind = 'tag' AND t.name = @tag))
  AND (@category IS NULL OR EXISTS (SELECT 1 FROM post_terms t
        WHERE t.post_id = p.id AND t.kind = 'category' AND t.name = @category))
  AND (@q IS NULL OR p.title LIKE @q ESCAPE '\\' OR p.summary LIKE @q ESCAPE '\\' OR p.content LIKE @q ESCAPE '\\')`;

export const LIST_SQL = `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE p.status = @status AND ${VISIBLE} ${FILTERS}
  ORDER BY p.published_at DESC, p.id DESC LIMIT @limit OFFSET @offset`;

const SEARCH_SQL = `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN users u ON u.id = p.author_id
  WHERE (p.author_id = @uid OR (p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))))
  ${FILTERS}
  ORDER BY p.published_at IS NULL, p.published_at DESC, p.id DESC LIMIT @limit OFFSET @offset`;

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
const now = () => new Date().toISOString();
const isAdmin = (roles: Roles) => roles?.includes('admin') ?? false;

function who(caller: Caller | null) {
  const roles: Roles = caller ? caller.roles : null;
  return {
    uid: caller?.userId ?? -1,
    admin: isAdmin(roles) ? 1 : 0,
    open: JSON.stringify(openableVisibilities(roles)),
    roles,
  };
}

export class PostService {
  private stmts;

  constructor(private readonly db: DB) {
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
      slugTaken: db.prepare('SELECT 1 FROM posts WHERE slug = ?').pluck(),
      countView: db.prepare('UPDATE posts SET views = views + 1 WHERE id = ? RETURNING views').pluck(),
      termCounts: db.prepare(
        `SELECT t.name AS name, COUNT(*) AS count FROM post_terms t JOIN posts p ON p.id = t.post_id
         WHERE t.kind = @kind AND p.status = 'published' AND p.visibility IN (SELECT value FROM json_each(@open))
         GROUP BY t.name ORDER BY count DESC, t.name`,
      ),
    };
  }

  private toPosts(rows: PostRow[]): Post[] {
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

  list(caller: Caller | null, q: ListQuery): Post[] {
    const w = who(caller);
    const rows = this.stmts.list.all({
      uid: w.uid,
      admin: w.admin,
      open: w.open,
      status: q.status,
      vis: q.visibility ? JSON.stringify(q.visibility) : null,
      content_type: q.contentType,
      tag: q.tag,
      category: q.category,
      q: q.q ? likePattern(q.q) : null,
      limit: q.limit,
      offset: q.offset,
    }) as PostRow[];
    return this.toPosts(rows);
  }

  search(caller: Caller | null, q: Omit<ListQuery, 'status'> & { q: string }): Post[] {
    const w = who(caller);
    const rows = this.stmts.search.all({
      uid: w.uid,
      open: w.open,
      vis: q.visibility ? JSON.stringify(q.visibility) : null,
      content_type: q.contentType,
      tag: q.tag,
      category: q.category,
      q: likePattern(q.q),
      limit: q.limit,
      offset: q.offset,
    }) as PostRow[];
    return this.toPosts(rows);
  }

  mine(caller: Caller, limit: number, offset: number): Post[] {
    return this.toPosts(this.stmts.mine.all({ uid: caller.userId, limit, offset }) as PostRow[]);
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
   * The one read check, used by single reads, comments and likes. Drafts of others and admin-only posts are
   * 404 (their existence is not disclosed); a published post above the caller's tier is 403 with no content.
   */
  private readable(caller: Caller | null, idOrSlug: string | number): PostRow {
    const w = who(caller);
    const row = this.row(idOrSlug, w.uid);
    if (!row) throw new HttpError(404, POST_NOT_FOUND);
    if (w.admin === 1 || (caller && row.author_id === caller.userId)) return row;
    if (row.status !== 'published') throw new HttpError(404, POST_NOT_FOUND);
    if (!canOpen(row.visibility, w.roles)) {
      if (row.visibility === 'private') throw new HttpError(404, POST_NOT_FOUND);
      throw new HttpError(403, LOCKED_MESSAGE);
    }
    return row;
  }

  /** Single read: counts a view. */
  read(caller: Caller | null, idOrSlug: string): Post {
    const row = this.readable(caller, idOrSlug);
    row.views = this.stmts.countView.get(row.id) as number;
    return this.toPosts([row])[0]!;
  }

  /** For writes: the post must be visible to the caller (else 404) and theirs, or the caller an admin (else 403). */
  private writable(caller: Caller, idOrSlug: string): PostRow {
    const row = this.readable(caller, idOrSlug);
    if (row.author_id !== caller.userId && !isAdmin(caller.roles)) {
      throw new HttpError(403, 'Only the author or an administrator can change this research');
    }
    return row;
  }

  private reload(caller: Caller | null, id: number): Post {
    return this.toPosts([this.stmts.byId.get({ id, uid: caller?.userId ?? -1 }) as PostRow])[0]!;
  }

  private setTerms(postId: number, kind: 'tag' | 'category', names: string[]) {
    const unique = [...new Set(names)];
    this.db.prepare('DELETE FROM post_terms WHERE post_id = ? AND kind = ?').run(postId, kind);
    const insert = this.db.prepare('INSERT OR IGNORE INTO post_terms (post_id, kind, name) VALUES (?, ?, ?)');
    for (const name of unique) insert.run(postId, kind, name);
    const column = kind === 'tag' ? 'tags_json' : 'categories_json';
    this.db.prepare(`UPDATE posts SET ${column} = ? WHERE id = ?`).run(JSON.stringify(unique), postId);
  }

  create(authorId: number, input: Required<PostWrite>, at: string = now()): Post {
    const id = this.db.transaction(() => {
      const slug = uniqueSlug(slugify(input.title), (s) => this.stmts.slugTaken.get(s) !== undefined);
      const t = at;
      const info = this.db
        .prepare(
          `INSERT INTO posts (slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
            published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          slug,
          input.title,
          input.summary,
          input.content,
          makeExcerpt(input.summary || input.content),
          input.status,
          input.visibility,
          input.content_type,
          authorId,
          input.status === 'published' ? t : null,
          t,
          t,
        );
      const postId = Number(info.lastInsertRowid);
      this.setTerms(postId, 'tag', input.tags);
      this.setTerms(postId, 'category', input.categories);
      return postId;
    })();
    return this.toPosts([this.stmts.byId.get({ id, uid: authorId }) as PostRow])[0]!;
  }

  update(caller: Caller, idOrSlug: string, input: PostWrite): Post {
    const row = this.writable(caller, idOrSlug);
    this.db.transaction(() => {
      const next = {
        title: input.title ?? row.title,
        summary: input.summary ?? row.summary,
        content: input.content ?? row.content,
        status: input.status ?? row.status,
        visibility: input.visibility ?? row.visibility,
        content_type: input.content_type ?? row.content_type,
      };
      const publishedAt = next.status === 'published' ? (row.published_at ?? now()) : null;
      this.db
        .prepare(
          `UPDATE posts SET title = ?, summary = ?, content = ?, excerpt = ?, status = ?, visibility = ?,
            content_type = ?, published_at = ?, updated_at = ? WHERE id = ?`,
        )
        .run(
          next.title,
          next.summary,
          next.content,
          makeExcerpt(next.summary || next.content),
          next.status,
          next.visibility,
          next.content_type,
          publishedAt,
          now(),
          row.id,
        );
      if (input.tags) this.setTerms(row.id, 'tag', input.tags);
      if (input.categories) this.setTerms(row.id, 'category', input.categories);
    })();
    return this.reload(caller, row.id);
  }

  remove(caller: Caller, idOrSlug: string) {
    const row = this.writable(caller, idOrSlug);
    this.db.prepare('DELETE FROM posts WHERE id = ?').run(row.id);
  }

  publish(caller: Caller, idOrSlug: string): Post {
    const row = this.writable(caller, idOrSlug);
    this.db
      .prepare(
        `UPDATE posts SET status = 'published', published_at = COALESCE(published_at, ?), updated_at = ? WHERE id = ?`,
      )
      .run(now(), now(), row.id);
    return this.reload(caller, row.id);
  }

  setVisibility(caller: Caller, idOrSlug: string, visibility: Visibility): Post {
    const row = this.writable(caller, idOrSlug);
    this.db
      .prepare('UPDATE posts SET visibility = ?, updated_at = ? WHERE id = ?')
      .run(visibility, now(), row.id);
    return this.reload(caller, row.id);
  }

  toggleLike(caller: Caller, idOrSlug: string): LikeResult {
    const row = this.readable(caller, idOrSlug);
    return this.db.transaction(() => {
      const del = this.db
        .prepare('DELETE FROM post_likes WHERE post_id = ? AND user_id = ?')
        .run(row.id, caller.userId);
      if (del.changes === 0) {
        this.db.prepare('INSERT INTO post_likes (post_id, user_id) VALUES (?, ?)').run(row.id, caller.userId);
      }
      const likes = this.db
        .prepare('SELECT COUNT(*) FROM post_likes WHERE post_id = ?')
        .pluck()
        .get(row.id) as number;
      return { liked: del.changes === 0, likes };
    })();
  }

  termCounts(caller: Caller | null, kind: 'tag' | 'category'): { name: string; count: number }[] {
    return this.stmts.termCounts.all({ kind, open: who(caller).open }) as { name: string; count: number }[];
  }

  stats(caller: Caller): Stats {
    const rows = this.db
      .prepare(
        `SELECT content_type, status, COUNT(*) AS n, SUM(views) AS views FROM posts WHERE author_id = ?
         GROUP BY content_type, status`,
      )
      .all(caller.userId) as { content_type: string; status: PostStatus; n: number; views: number }[];
    const stats: Stats = {
      total: 0,
      published: 0,
      drafts: 0,
      views: 0,
      by_content_type: Object.fromEntries(CONTENT_TYPES.values.map((t) => [t, 0])),
    };
    for (const r of rows) {
      stats.total += r.n;
      stats.views += r.views;
      if (r.status === 'published') stats.published += r.n;
      else stats.drafts += r.n;
      stats.by_content_type[r.content_type] = (stats.by_content_type[r.content_type] ?? 0) + r.n;
    }
    return stats;
  }

  report(caller: Caller | null): Report {
    const open = who(caller).open;
    const rows = this.db
      .prepare(
        `SELECT content_type, visibility, COUNT(*) AS n FROM posts
         WHERE status = 'published' AND visibility IN (SELECT value FROM json_each(?)) GROUP BY content_type, visibility`,
      )
      .all(open) as { content_type: string; visibility: string; n: number }[];
    const report: Report = {
      generated_at: now(),
      published: 0,
      by_content_type: Object.fromEntries(CONTENT_TYPES.values.map((t) => [t, 0])),
      by_visibility: Object.fromEntries(
        VISIBILITIES.values.filter((vis) => open.includes(`"${vis}"`)).map((vis) => [vis, 0]),
      ),
      top_posts: this.db
        .prepare(
          `SELECT id, title, views FROM posts WHERE status = 'published'
           AND visibility IN (SELECT value FROM json_each(?)) ORDER BY views DESC, id LIMIT 5`,
        )
        .all(open) as { id: number; title: string; views: number }[],
    };
    for (const r of rows) {
      report.published += r.n;
      report.by_content_type[r.content_type] = (report.by_content_type[r.content_type] ?? 0) + r.n;
      report.by_visibility[r.visibility] = (report.by_visibility[r.visibility] ?? 0) + r.n;
    }
    return report;
  }

  // --- comments ---

  private commentRows(postId: number, uid: number): CommentRow[] {
    return this.db
      .prepare(
        `SELECT c.*, ${AUTHOR_NAME} AS author_name,
          (SELECT COUNT(*) FROM comment_likes l WHERE l.comment_id = c.id) AS likes,
          EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = @uid) AS liked
         FROM comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.post_id = @postId
         ORDER BY c.created_at, c.id`,
      )
      .all({ postId, uid }) as CommentRow[];
  }

  private toComment(r: CommentRow): Comment {
    return {
      id: r.id,
      post_id: r.post_id,
      content: r.content,
      author: { id: r.author_id, name: r.author_name },
      created_at: r.created_at,
      updated_at: r.updated_at,
      likes: r.likes,
      liked: r.liked === 1,
    };
  }

  comments(caller: Caller | null, idOrSlug: string): Comment[] {
    const post = this.readable(caller, idOrSlug);
    return this.commentRows(post.id, caller?.userId ?? -1).map((r) => this.toComment(r));
  }

  private comment(id: number, uid: number): Comment {
    const row = this.db
      .prepare(
        `SELECT c.*, ${AUTHOR_NAME} AS author_name,
          (SELECT COUNT(*) FROM comment_likes l WHERE l.comment_id = c.id) AS likes,
          EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = @uid) AS liked
         FROM comments c LEFT JOIN users u ON u.id = c.author_id WHERE c.id = @id`,
      )
      .get({ id, uid }) as CommentRow;
    return this.toComment(row);
  }

  addComment(caller: Caller, idOrSlug: string, content: string): Comment {
    const post = this.readable(caller, idOrSlug);
    const t = now();
    const info = this.db
      .prepare(
        'INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(post.id, caller.userId, content, t, t);
    return this.comment(Number(info.lastInsertRowid), caller.userId);
  }

  /** The comment, if its post is readable by the caller (else the post's 403/404). */
  private commentFor(caller: Caller, commentId: string): { id: number; author_id: number | null } {
    const id = /^\d+$/.test(commentId) ? Number(commentId) : Number.NaN;
    const row = Number.isSafeInteger(id)
      ? (this.db.prepare('SELECT id, post_id, author_id FROM comments WHERE id = ?').get(id) as
          | { id: number; post_id: number; author_id: number | null }
          | undefined)
      : undefined;
    if (!row) throw new HttpError(404, 'Comment not found');
    this.readable(caller, row.post_id);
    return row;
  }

  editComment(caller: Caller, commentId: string, content: string): Comment {
    const row = this.commentFor(caller, commentId);
    if (row.author_id !== caller.userId) throw new HttpError(403, 'Only the author can edit this comment');
    this.db
      .prepare('UPDATE comments SET content = ?, updated_at = ? WHERE id = ?')
      .run(content, now(), row.id);
    return this.comment(row.id, caller.userId);
  }

  deleteComment(caller: Caller, commentId: string) {
    const row = this.commentFor(caller, commentId);
    if (row.author_id !== caller.userId && !isAdmin(caller.roles)) {
      throw new HttpError(403, 'Only the author or an administrator can delete this comment');
    }
    this.db.prepare('DELETE FROM comments WHERE id = ?').run(row.id);
  }

  toggleCommentLike(caller: Caller, commentId: string): LikeResult {
    const row = this.commentFor(caller, commentId);
    return this.db.transaction(() => {
      const del = this.db
        .prepare('DELETE FROM comment_likes WHERE comment_id = ? AND user_id = ?')
        .run(row.id, caller.userId);
      if (del.changes === 0) {
        this.db
          .prepare('INSERT INTO comment_likes (comment_id, user_id) VALUES (?, ?)')
          .run(row.id, caller.userId);
      }
      const likes = this.db
        .prepare('SELECT COUNT(*) FROM comment_likes WHERE comment_id = ?')
        .pluck()
        .get(row.id) as number;
      return { liked: del.changes === 0, likes };
    })();
  }
}
