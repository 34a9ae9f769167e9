import type { LikeResult } from '@app/contracts';
import type { Sql } from '../db/sql';

/** The like tables: what is liked, and by which column (fixed names, never from a request). */
const LIKE_TABLES = {
  post: { table: 'post_likes', column: 'post_id' },
  comment: { table: 'comment_likes', column: 'comment_id' },
} as const;

/**
 * Likes or unlikes for this user in one write transaction: a like that exists is removed, otherwise one is
 * added; answers the new state and count.
 */
export function toggleLike(
  sql: Sql,
  kind: keyof typeof LIKE_TABLES,
  id: number,
  userId: number,
): Promise<LikeResult> {
  const { table, column } = LIKE_TABLES[kind];
  return sql.transaction(async (tx) => {
    // One member's toggles of one thing take turns (a double click reaching two instances): each sees the
    // last one's row, so two toggles are a like and an unlike. Everyone else's likes go on in parallel.
    await tx.lock('like', kind, id, userId);
    const removed = await tx.run(`DELETE FROM ${table} WHERE ${column} = ? AND user_id = ?`, [id, userId]);
    if (removed === 0) await tx.run(`INSERT INTO ${table} (${column}, user_id) VALUES (?, ?)`, [id, userId]);
    const likes = (await tx.value<number>(`SELECT COUNT(*) FROM ${table} WHERE ${column} = ?`, [id])) ?? 0;
    return { liked: removed === 0, likes };
  });
}
