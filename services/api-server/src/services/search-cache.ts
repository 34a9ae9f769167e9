import { POSTGRES_MARK } from '../db/change-watch';
import type { Sql } from '../db/sql';
import type { Page } from './cursor';
import { MemoUntilWrite } from './memo-until-write';
import type { JsonText } from './post-model';

/** Whether a caller's answers are theirs alone: they wrote a post (found as their own) or liked one (`liked`). */
const PERSONAL = `EXISTS (SELECT 1 FROM posts WHERE author_id = @uid)
  OR EXISTS (SELECT 1 FROM post_likes WHERE user_id = @uid)`;

/**
 * Search answers kept per query and visibility set until the next write (issue 36,
 * docs/decisions/0032-api-floor.md). A word in most posts costs a bm25 pass over its whole ranking window
 * (~13 ms of a worker at 100,000 posts) and people search the same few words: the answer is the same for
 * every caller who may open the same tiers, asks the same text, filters and page, and has neither written
 * nor liked a post (a search also finds the caller's own posts and says which ones they liked, so such a
 * caller's answers are kept as theirs alone).
 *
 * "Until the next write" is the database's own write mark (`createWriteMark`: SQLite's data_version and
 * this connection's total_changes, PostgreSQL's data_version), read before every lookup: any committed
 * write by anyone, through any instance or the CLI, empties the cache; an answer computed while a write
 * landed is not kept. So an answer is exactly what the search would answer now, ranking included. The same
 * search asked while it is being computed waits for that computation (after a write, 50 callers of a
 * common word cost one ranking, not 50).
 */
export class SearchCache {
  /** Kept answers, by the caller's key, until the write mark moves. */
  private readonly memo: MemoUntilWrite<Page<JsonText<unknown>>>;
  /** Answers being computed, by write mark and key: the same search asked meanwhile waits for that one. */
  private readonly computing = new Map<string, Promise<Page<JsonText<unknown>>>>();

  constructor(
    private readonly sql: Sql,
    private readonly maxEntries: number,
  ) {
    this.memo = new MemoUntilWrite(sql, maxEntries);
  }

  /**
   * The write mark, and whether the caller's answers are theirs alone. On PostgreSQL one round trip for
   * both (each would be a round trip of its own); on SQLite two statement steps.
   */
  private async look(uid: number): Promise<{ mark: string; personal: boolean }> {
    if (this.sql.dialect === 'postgres') {
      // A boolean reads as 1 or 0 on both engines (db/postgres.ts).
      const row = await this.sql.get<{ mark: string; personal: number }>(
        `SELECT ${POSTGRES_MARK} AS mark, ${uid > 0 ? PERSONAL : 'FALSE'} AS personal`,
        uid > 0 ? { uid } : [],
      );
      return { mark: row?.mark ?? '', personal: row?.personal === 1 };
    }
    const mark = await this.memo.mark();
    const personal = uid > 0 && (await this.sql.value<number>(`SELECT ${PERSONAL}`, { uid })) === 1;
    return { mark, personal };
  }

  /**
   * The answer of `key` (the statement and its parameters, the caller's id left out) for caller `uid`, from
   * the cache or computed.
   */
  async get<T>(uid: number, key: string, compute: () => Promise<Page<JsonText<T>>>) {
    if (this.maxEntries <= 0) return compute();
    const { mark, personal } = await this.look(uid);
    const full = personal ? `${uid}|${key}` : key;
    const hit = this.memo.lookup(mark, full) ?? this.computing.get(`${mark}\n${full}`);
    if (hit) return hit as Promise<Page<JsonText<T>>> | Page<JsonText<T>>;
    const computing = compute();
    this.computing.set(`${mark}\n${full}`, computing);
    try {
      const page = await computing;
      // Kept only when no write landed while it was computed (the mark read again says so).
      if ((await this.memo.mark()) === mark) this.memo.keep(mark, full, page);
      return page;
    } finally {
      this.computing.delete(`${mark}\n${full}`);
    }
  }
}
