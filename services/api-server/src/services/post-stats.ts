import type { PostStatus, Report, Stats } from '@app/contracts';
import { CONTENT_TYPES, VISIBILITIES } from '@app/contracts';
import { type Clock, isoAt } from '../clock';
import { type DialectSql, dialectSql } from '../db/dialect';
import type { Sql } from '../db/sql';
import type { Caller } from './accounts';
import { MemoUntilWrite } from './memo-until-write';
import { who } from './post-model';

/**
 * Tag or category counts over the published posts the caller may open: a lookup in term_counts (kept by
 * migration 7's triggers in the same transaction as each write), summed over the openable visibilities.
 */
export const termCountsSql = (d: DialectSql) => `SELECT name, SUM(n) AS count FROM term_counts
  WHERE kind = @kind AND visibility ${d.inJsonArray('open')}
  GROUP BY name HAVING SUM(n) > 0 ORDER BY count DESC, name`;

/** The report's counts per type and visibility, from post_counts (kept the same way). */
export const reportCountsSql = (d: DialectSql) => `SELECT content_type, visibility, n FROM post_counts
  WHERE visibility ${d.inJsonArray('open')} AND n > 0`;

/** The report's most read posts, walked from the top of idx_posts_views. */
export const topPostsSql = (
  d: DialectSql,
) => `SELECT id, title, views FROM posts ${d.indexedBy('idx_posts_views')}
  WHERE status = 'published' AND visibility ${d.inJsonArray('open')}
  ORDER BY views DESC, id LIMIT 5`;

/** Aggregates: an author's own stats, tag and category counts, and the public report. */
export class PostStats {
  /**
   * The counts and the report change only with writes: answered from memory until anyone writes. Keys are a
   * kind and an openable set (a few dozen at most).
   */
  private readonly memo: MemoUntilWrite<unknown>;
  private readonly q;

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {
    this.memo = new MemoUntilWrite(sql, 64);
    const d = dialectSql(sql.dialect);
    this.q = { termCounts: termCountsSql(d), reportCounts: reportCountsSql(d), topPosts: topPostsSql(d) };
  }

  /** The value for `key` as of the database's current state: computed again after any write. */
  private fresh<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.memo.get(key, compute) as Promise<T>;
  }

  termCounts(caller: Caller | null, kind: 'tag' | 'category'): Promise<{ name: string; count: number }[]> {
    const open = who(caller).open;
    return this.fresh(`${kind}|${open}`, () =>
      this.sql.all<{ name: string; count: number }>(this.q.termCounts, { kind, open }),
    );
  }

  async stats(caller: Caller): Promise<Stats> {
    const rows = await this.sql.all<{ content_type: string; status: PostStatus; n: number; views: number }>(
      `SELECT content_type, status, COUNT(*) AS n, SUM(views) AS views FROM posts WHERE author_id = ?
       GROUP BY content_type, status`,
      [caller.userId],
    );
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

  report(caller: Caller | null): Promise<Report> {
    const open = who(caller).open;
    return this.fresh(`report|${open}`, () => this.computeReport(open));
  }

  private async computeReport(open: string): Promise<Report> {
    const rows = await this.sql.all<{ content_type: string; visibility: string; n: number }>(
      this.q.reportCounts,
      { open },
    );
    const report: Report = {
      generated_at: isoAt(this.clock),
      published: 0,
      by_content_type: Object.fromEntries(CONTENT_TYPES.values.map((t) => [t, 0])),
      by_visibility: Object.fromEntries(
        VISIBILITIES.values.filter((vis) => open.includes(`"${vis}"`)).map((vis) => [vis, 0]),
      ),
      top_posts: await this.sql.all<{ id: number; title: string; views: number }>(this.q.topPosts, { open }),
    };
    for (const r of rows) {
      report.published += r.n;
      report.by_content_type[r.content_type] = (report.by_content_type[r.content_type] ?? 0) + r.n;
      report.by_visibility[r.visibility] = (report.by_visibility[r.visibility] ?? 0) + r.n;
    }
    return report;
  }
}
