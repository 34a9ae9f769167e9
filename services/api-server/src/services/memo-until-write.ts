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
  /** The database's write mark, read before every lookup. */
  readonly mark: () => Promise<string>;

  constructor(
    sql: Sql,
    private readonly maxEntries = 200,
  ) {
    this.mark = createWriteMark(sql);
  }

  async get(key: string, compute: () => Promise<V>): Promise<V> {
    const mark = await this.mark();
    const hit = this.lookup(mark, key);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.keep(mark, key, value);
    return value;
  }

  /**
   * The answer kept for `key` as of write mark `mark` (read by the caller before the data; the answers of
   * an older mark are dropped first). For callers that read the mark themselves (search-cache.ts).
   */
  lookup(mark: string, key: string): V | undefined {
    if (mark !== this.seen) {
      this.entries.clear();
      this.seen = mark;
    }
    return this.entries.get(key);
  }

  /** Keeps `value`, computed under `mark`, unless a write has moved the mark since: then the next lookup drops it. */
  keep(mark: string, key: string, value: V): void {
    if (this.seen !== mark) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
  }
}
