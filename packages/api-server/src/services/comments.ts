import { type Comment, canComment, type LikeResult } from '@app/contracts';
import type { DB } from '../db/database';
import { HttpError } from '../errors';
import { type Caller, viewerOf } from './accounts';
import { toggleLike } from './likes';
import { AUTHOR_NAME, now } from './post-model';
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

/** Comments on posts and their likes; a comment is reachable only while its post is readable. */
export class CommentService {
  constructor(
    private readonly db: DB,
    private readonly reader: PostReader,
  ) {}

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
    const post = this.reader.readable(caller, idOrSlug);
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
    const post = this.reader.readable(caller, idOrSlug);
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
    this.reader.readable(caller, row.post_id);
    return row;
  }

  editComment(caller: Caller, commentId: string, content: string): Comment {
    const row = this.commentFor(caller, commentId);
    if (!canComment(viewerOf(caller), 'edit', row)) {
      throw new HttpError(403, 'Only the author can edit this comment');
    }
    this.db
      .prepare('UPDATE comments SET content = ?, updated_at = ? WHERE id = ?')
      .run(content, now(), row.id);
    return this.comment(row.id, caller.userId);
  }

  deleteComment(caller: Caller, commentId: string) {
    const row = this.commentFor(caller, commentId);
    if (!canComment(viewerOf(caller), 'delete', row)) {
      throw new HttpError(403, 'Only the author or an administrator can delete this comment');
    }
    this.db.prepare('DELETE FROM comments WHERE id = ?').run(row.id);
  }

  toggleCommentLike(caller: Caller, commentId: string): LikeResult {
    const row = this.commentFor(caller, commentId);
    return toggleLike(this.db, 'comment', row.id, caller.userId);
  }
}
