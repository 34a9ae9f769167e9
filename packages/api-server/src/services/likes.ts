import type { LikeResult } from '@app/contracts';
import { type DB, writeTransaction } from '../db/database';

/** The like tables: what is liked, and by which column (fixed names, never from a request). */
const LIKE_TABLES = {
  post: { table: 'post_likes', column: 'post_id' },
  comment: { table: 'comment_likes', column: 'comment_id' },
} as const;

/**
 * Likes or unlikes for this user in one write transaction: a like that exists is removed, otherwise one is
 * added; answers the new state and count.
 */
export function toggleLike(db: DB, kind: keyof typeof LIKE_TABLES, id: number, userId: number): LikeResult {
  const { table, column } = LIKE_TABLES[kind];
  return writeTransaction(db, () => {
    const removed = db.prepare(`DELETE FROM ${table} WHERE ${column} = ? AND user_id = ?`).run(id, userId);
    if (removed.changes === 0) {
      db.prepare(`INSERT INTO ${table} (${column}, user_id) VALUES (?, ?)`).run(id, userId);
    }
    const likes = db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${column} = ?`).pluck().get(id) as number;
    return { liked: removed.changes === 0, likes };
  });
}
