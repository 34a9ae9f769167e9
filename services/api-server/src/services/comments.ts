import { type Comment, canComment, type LikeResult } from '@app/contracts';
import { type Clock, isoAt } from '../clock';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { type Caller, viewerOf } from './accounts';
import { toggleLike } from './likes';
import { AUTHOR_NAME } from './post-model';
import type { PostReader } from './post-reads';

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

const COMMENT_SELECT = `SELECT c.*, ${AUTHOR_NAME} AS author_name,
  (SELECT COUNT(*) FROM comment_likes l WHERE l.comment_id = c.id) AS likes,
  CASE WHEN EXISTS (SELECT 1 FROM comment_likes l WHERE l.comment_id = c.id AND l.user_id = @uid)
    THEN 1 ELSE 0 END AS liked
  FROM comments c LEFT JOIN users u ON u.id = c.author_id`;

/** Comments on posts and their likes; a comment is reachable only while its post is readable. */
export class CommentService {
  constructor(
    private readonly sql: Sql,
    private readonly reader: PostReader,
    private readonly clock: Clock,
  ) {}

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

  async comments(caller: Caller | null, idOrSlug: string): Promise<Comment[]> {
    const post = await this.reader.readable(caller, idOrSlug);
    const rows = await this.sql.all<CommentRow>(
      `${COMMENT_SELECT} WHERE c.post_id = @postId ORDER BY c.created_at, c.id`,
      { postId: post.id, uid: caller?.userId ?? -1 },
    );
    return rows.map((r) => this.toComment(r));
  }

  private async comment(id: number, uid: number): Promise<Comment> {
    const row = await this.sql.get<CommentRow>(`${COMMENT_SELECT} WHERE c.id = @id`, { id, uid });
    return this.toComment(row!);
  }

  async addComment(caller: Caller, idOrSlug: string, content: string): Promise<Comment> {
    const post = await this.reader.readable(caller, idOrSlug);
    const t = isoAt(this.clock);
    const id = await this.sql.transaction((tx) =>
      tx.value<number>(
        'INSERT INTO comments (post_id, author_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
        [post.id, caller.userId, content, t, t],
      ),
    );
    return this.comment(id!, caller.userId);
  }

  /** The comment, if its post is readable by the caller (else the post's 403/404). */
  private async commentFor(
    caller: Caller,
    commentId: string,
  ): Promise<{ id: number; author_id: number | null }> {
    const id = /^\d+$/.test(commentId) ? Number(commentId) : Number.NaN;
    const row = Number.isSafeInteger(id)
      ? await this.sql.get<{ id: number; post_id: number; author_id: number | null }>(
          'SELECT id, post_id, author_id FROM comments WHERE id = ?',
          [id],
        )
      : undefined;
    if (!row) throw new HttpError(404, 'Comment not found');
    await this.reader.readable(caller, row.post_id);
    return row;
  }

  async editComment(caller: Caller, commentId: string, content: string): Promise<Comment> {
    const row = await this.commentFor(caller, commentId);
    if (!canComment(viewerOf(caller), 'edit', row)) {
      throw new HttpError(403, 'Only the author can edit this comment');
    }
    await this.sql.transaction((tx) =>
      tx.run('UPDATE comments SET content = ?, updated_at = ? WHERE id = ?', [
        content,
        isoAt(this.clock),
        row.id,
      ]),
    );
    return this.comment(row.id, caller.userId);
  }

  async deleteComment(caller: Caller, commentId: string): Promise<void> {
    const row = await this.commentFor(caller, commentId);
    if (!canComment(viewerOf(caller), 'delete', row)) {
      throw new HttpError(403, 'Only the author or an administrator can delete this comment');
    }
    await this.sql.transaction((tx) => tx.run('DELETE FROM comments WHERE id = ?', [row.id]));
  }

  async toggleCommentLike(caller: Caller, commentId: string): Promise<LikeResult> {
    const row = await this.commentFor(caller, commentId);
    return toggleLike(this.sql, 'comment', row.id, caller.userId);
  }
}
