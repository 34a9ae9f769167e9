import type { PostStatus, Report, Stats } from '@app/contracts';
import { CONTENT_TYPES, VISIBILITIES } from '@app/contracts';
import type { DB } from '../db/database';
import type { Caller } from './accounts';
import { now, who } from './post-model';

/** Aggregates: an author's own stats and the public report. */
export class PostStats {
  constructor(private readonly db: DB) {}

  stats(caller: Caller): Stats {
    const rows = this.db
      .prepare(
        `SELECT content_type, status, COUNT(*) AS n, SUM(views) AS views FROM posts WHERE author_id = ?
         GROUP BY content_type, status`,
      )
      .all(caller.userId) as { content_type: string; status: PostStatus; n: number; views: number }[];
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

  report(caller: Caller | null): Report {
    const open = who(caller).open;
    const rows = this.db
      .prepare(
        `SELECT content_type, visibility, COUNT(*) AS n FROM posts
         WHERE status = 'published' AND visibility IN (SELECT value FROM json_each(?)) GROUP BY content_type, visibility`,
      )
      .all(open) as { content_type: string; visibility: string; n: number }[];
    const report: Report = {
      generated_at: now(),
      published: 0,
      by_content_type: Object.fromEntries(CONTENT_TYPES.values.map((t) => [t, 0])),
      by_visibility: Object.fromEntries(
        VISIBILITIES.values.filter((vis) => open.includes(`"${vis}"`)).map((vis) => [vis, 0]),
      ),
      top_posts: this.db
        .prepare(
          `SELECT id, title, views FROM posts WHERE status = 'published'
           AND visibility IN (SELECT value FROM json_each(?)) ORDER BY views DESC, id LIMIT 5`,
        )
        .all(open) as { id: number; title: string; views: number }[],
    };
    for (const r of rows) {
      report.published += r.n;
      report.by_content_type[r.content_type] = (report.by_content_type[r.content_type] ?? 0) + r.n;
      report.by_visibility[r.visibility] = (report.by_visibility[r.visibility] ?? 0) + r.n;
    }
    return report;
  }
}
