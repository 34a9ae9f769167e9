import { canPublishAs, type LikeResult, type Post, publishRefusal, type Visibility } from '@app/contracts';
import { type DB, writeTransaction } from '../db/database';
import { HttpError } from '../errors';
import type { Caller } from './accounts';
import { makeExcerpt } from './excerpt';
import { toggleLike } from './likes';
import { now, type PostWrite } from './post-model';
import type { PostReader } from './post-reads';
import { slugify, uniqueSlug } from './slug';

/**
 * Decision 0011: an author gives a post only a visibility their role may publish. Keeping a visibility the
 * post already has is allowed, so an author whose tier changed can still edit the text of an older post.
 */
export function assertPublishable(caller: Caller, visibility: Visibility, current?: Visibility): void {
  if (visibility === current || canPublishAs(visibility, caller.roles)) return;
  throw new HttpError(403, publishRefusal(visibility, caller.roles));
}

/** Creating, changing, publishing, deleting and liking posts. */
export class PostWriter {
  private stmts;

  constructor(
    private readonly db: DB,
    private readonly reader: PostReader,
  ) {
    this.stmts = {
      slugTaken: db.prepare('SELECT 1 FROM posts WHERE slug = ?').pluck(),
    };
    this.fillExcerpts();
  }

  /** Posts whose excerpt is NULL (new rows of an older writer, or migration 5) get one now, in one go. */
  private fillExcerpts() {
    const stale = this.db.prepare('SELECT id, summary, content FROM posts WHERE excerpt IS NULL').all() as {
      id: number;
      summary: string;
      content: string;
    }[];
    if (stale.length === 0) return;
    const set = this.db.prepare('UPDATE posts SET excerpt = ? WHERE id = ?');
    writeTransaction(this.db, () => {
      for (const row of stale) set.run(makeExcerpt(row.summary || row.content), row.id);
    });
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
    const id = writeTransaction(this.db, () => {
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
    });
    return this.reader.byId(id, authorId);
  }

  update(caller: Caller, idOrSlug: string, input: PostWrite): Post {
    const row = this.reader.writable(caller, idOrSlug);
    if (input.visibility) assertPublishable(caller, input.visibility, row.visibility);
    writeTransaction(this.db, () => {
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
    });
    return this.reader.reload(caller, row.id);
  }

  remove(caller: Caller, idOrSlug: string) {
    const row = this.reader.writable(caller, idOrSlug);
    this.db.prepare('DELETE FROM posts WHERE id = ?').run(row.id);
  }

  publish(caller: Caller, idOrSlug: string): Post {
    const row = this.reader.writable(caller, idOrSlug);
    this.db
      .prepare(
        `UPDATE posts SET status = 'published', published_at = COALESCE(published_at, ?), updated_at = ? WHERE id = ?`,
      )
      .run(now(), now(), row.id);
    return this.reader.reload(caller, row.id);
  }

  setVisibility(caller: Caller, idOrSlug: string, visibility: Visibility): Post {
    const row = this.reader.writable(caller, idOrSlug);
    assertPublishable(caller, visibility, row.visibility);
    this.db
      .prepare('UPDATE posts SET visibility = ?, updated_at = ? WHERE id = ?')
      .run(visibility, now(), row.id);
    return this.reader.reload(caller, row.id);
  }

  toggleLike(caller: Caller, idOrSlug: string): LikeResult {
    const row = this.reader.readable(caller, idOrSlug);
    return toggleLike(this.db, 'post', row.id, caller.userId);
  }
}
