import { canPublishAs, type LikeResult, type Post, publishRefusal, type Visibility } from '@app/contracts';
import { type Clock, isoAt } from '../clock';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { Caller } from './accounts';
import { makeExcerpt } from './excerpt';
import { toggleLike } from './likes';
import type { PostWrite } from './post-model';
import type { PostReader } from './post-reads';
import { insertUnderFreeSlug, slugify } from './slug';

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
  constructor(
    private readonly sql: Sql,
    private readonly reader: PostReader,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return isoAt(this.clock);
  }

  /** Posts whose excerpt is NULL (new rows of an older writer, or migration 5) get one now, in one go. */
  async fillExcerpts(): Promise<void> {
    const stale = await this.sql.all<{ id: number; summary: string; content: string }>(
      'SELECT id, summary, content FROM posts WHERE excerpt IS NULL',
    );
    if (stale.length === 0) return;
    await this.sql.transaction(async (tx) => {
      for (const row of stale) {
        await tx.run('UPDATE posts SET excerpt = ? WHERE id = ?', [
          makeExcerpt(row.summary || row.content),
          row.id,
        ]);
      }
    });
  }

  /** Inside the write transaction `tx`: the post's tags or categories become `names`. */
  private async setTerms(tx: Sql, postId: number, kind: 'tag' | 'category', names: string[]) {
    const unique = [...new Set(names)];
    await tx.run('DELETE FROM post_terms WHERE post_id = ? AND kind = ?', [postId, kind]);
    for (const name of unique) {
      await tx.run('INSERT INTO post_terms (post_id, kind, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [
        postId,
        kind,
        name,
      ]);
    }
    const column = kind === 'tag' ? 'tags_json' : 'categories_json';
    await tx.run(`UPDATE posts SET ${column} = ? WHERE id = ?`, [JSON.stringify(unique), postId]);
  }

  async create(authorId: number, input: Required<PostWrite>, at: string = this.now()): Promise<Post> {
    const id = await this.sql.transaction(async (tx) => {
      const postId = await insertUnderFreeSlug(
        slugify(input.title),
        async (s) => (await tx.value('SELECT 1 FROM posts WHERE slug = ?', [s])) !== undefined,
        (slug) =>
          tx.value<number>(
            `INSERT INTO posts (slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
              published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (slug) DO NOTHING RETURNING id`,
            [
              slug,
              input.title,
              input.summary,
              input.content,
              makeExcerpt(input.summary || input.content),
              input.status,
              input.visibility,
              input.content_type,
              authorId,
              input.status === 'published' ? at : null,
              at,
              at,
            ],
          ),
      );
      await this.setTerms(tx, postId, 'tag', input.tags);
      await this.setTerms(tx, postId, 'category', input.categories);
      return postId;
    });
    return this.reader.byId(id, authorId);
  }

  async update(caller: Caller, idOrSlug: string, input: PostWrite): Promise<Post> {
    const row = await this.reader.writable(caller, idOrSlug);
    if (input.visibility) assertPublishable(caller, input.visibility, row.visibility);
    await this.sql.transaction(async (tx) => {
      const next = {
        title: input.title ?? row.title,
        summary: input.summary ?? row.summary,
        content: input.content ?? row.content,
        status: input.status ?? row.status,
        visibility: input.visibility ?? row.visibility,
        content_type: input.content_type ?? row.content_type,
      };
      const publishedAt = next.status === 'published' ? (row.published_at ?? this.now()) : null;
      await tx.run(
        `UPDATE posts SET title = ?, summary = ?, content = ?, excerpt = ?, status = ?, visibility = ?,
          content_type = ?, published_at = ?, updated_at = ? WHERE id = ?`,
        [
          next.title,
          next.summary,
          next.content,
          makeExcerpt(next.summary || next.content),
          next.status,
          next.visibility,
          next.content_type,
          publishedAt,
          this.now(),
          row.id,
        ],
      );
      if (input.tags) await this.setTerms(tx, row.id, 'tag', input.tags);
      if (input.categories) await this.setTerms(tx, row.id, 'category', input.categories);
    });
    return this.reader.reload(caller, row.id);
  }

  async remove(caller: Caller, idOrSlug: string): Promise<void> {
    const row = await this.reader.writable(caller, idOrSlug);
    await this.sql.transaction((tx) => tx.run('DELETE FROM posts WHERE id = ?', [row.id]));
  }

  async publish(caller: Caller, idOrSlug: string): Promise<Post> {
    const row = await this.reader.writable(caller, idOrSlug);
    await this.sql.transaction((tx) =>
      tx.run(
        `UPDATE posts SET status = 'published', published_at = COALESCE(published_at, ?), updated_at = ? WHERE id = ?`,
        [this.now(), this.now(), row.id],
      ),
    );
    return this.reader.reload(caller, row.id);
  }

  async setVisibility(caller: Caller, idOrSlug: string, visibility: Visibility): Promise<Post> {
    const row = await this.reader.writable(caller, idOrSlug);
    assertPublishable(caller, visibility, row.visibility);
    await this.sql.transaction((tx) =>
      tx.run('UPDATE posts SET visibility = ?, updated_at = ? WHERE id = ?', [
        visibility,
        this.now(),
        row.id,
      ]),
    );
    return this.reader.reload(caller, row.id);
  }

  async toggleLike(caller: Caller, idOrSlug: string): Promise<LikeResult> {
    const row = await this.reader.readable(caller, idOrSlug);
    return toggleLike(this.sql, 'post', row.id, caller.userId);
  }
}
