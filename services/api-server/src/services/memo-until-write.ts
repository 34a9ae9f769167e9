import { createWriteMark } from '../db/change-watch';
import type { Sql } from '../db/sql';

/**
 * Answers computed from the database, kept until its next write by anyone (the database's own write mark,
 * db/change-watch.ts: any commit through any instance or the CLI, this connection's own writes included).
 * The mark is read before the data it guards, so an answer computed while a write landed is dropped at the
 * next lookup, never served as current. At most `maxEntries` answers; past that it starts again.
 */
export class MemoUntilWrite<V> {
  private readonly entries = new Map<string, V>();
  private seen: string | null = null;
  private readonly mark: () => Promise<string>;

  constructor(
    sql: Sql,
    private readonly maxEntries = 200,
  ) {
    this.mark = createWriteMark(sql);
  }

  async get(key: string, compute: () => Promise<V>): Promise<V> {
    const mark = await this.mark();
    if (mark !== this.seen) {
      this.entries.clear();
      this.seen = mark;
    }
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const value = await compute();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    // Kept under the mark read before computing: a write meanwhile moves the mark, and the next get drops it.
    if (this.seen === mark) this.entries.set(key, value);
    return value;
  }
}
