import { dialectSql } from '../db/dialect';
import {
  accessSql,
  EXPLORE_SHAPE,
  filtersSql,
  lockedSql,
  type QueryShape,
  teaserSql,
  visibleSql,
} from './access-sql';
import { CARD_COLUMNS } from './post-model';

/**
 * Full-text search over posts_fts (migration 6; docs/decisions/0013-post-lists-and-search.md).
 *
 * What a visitor types is never FTS5 syntax: it is cut into words (letters, digits and their marks), each
 * word becomes a quoted string, so `"`, `*`, `-`, `NEAR`, `OR`, `(` and emoji are separators or plain
 * words, never operators. All words must match (AND); the last one also matches as a prefix, so results
 * follow the typing.
 */

/** More words add nothing a reader can use and make each query dearer. */
export const MAX_SEARCH_WORDS = 16;
/**
 * A search ranks at most the newest RANK_WINDOW posts that match (issue 17). bm25 costs per match: a word
 * in nearly every one of 100,000 posts took ~80 ms of CPU a query and stalled the pool. FTS5 walks its
 * matches newest first and cheaply, so the lowest id among the newest RANK_WINDOW matches bounds the
 * ranking (`@min`); a rarer word has fewer matches and is ranked whole. Older matches of a very common word
 * are reached through the lists and filters, not through page 100 of a one-word search.
 */
export const RANK_WINDOW = 2000;

/** The lowest post id a search for `@match` ranks (0: every match). See RANK_WINDOW. */
export const RANK_FLOOR_SQL = `SELECT IFNULL(
  (SELECT rowid FROM posts_fts WHERE posts_fts MATCH @match AND rowid <= @max
   ORDER BY rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}), 0)`;

/** bm25 weights of title, summary and content: a word in the title counts most. */
const WEIGHTS = { title: 10, summary: 4, content: 1 };

export interface FtsQuery {
  /** Matches title, summary and content. */
  all: string;
  /** The same words in title and summary only: what may match a post above the caller's tier. */
  titleSummary: string;
}

/** The words of a visitor's text (letters, digits and their marks), at most MAX_SEARCH_WORDS. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, MAX_SEARCH_WORDS);
}

/**
 * Full-text search in one database's terms: the match parameters for a visitor's text (null when it holds
 * no word: then nothing matches), the ranking floor (RANK_WINDOW) and the ranked query of a mode and shape.
 * The parameters and the order of rows are the same for both; only the text differs.
 */
export interface SearchSql {
  query(text: string): FtsQuery | null;
  readonly rankFloor: string;
  sql(mode: 'list' | 'search', shape: QueryShape): string;
}

/** The FTS5 query for a visitor's text, or null when it holds no word at all (then nothing matches). */
export function ftsQuery(text: string): FtsQuery | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  const last = words.length - 1;
  // The prefix indexes (migration 6) serve prefixes of 1 to 3 characters; longer ones read few terms.
  const terms = words.map((w, i) => `"${w}"${i === last ? '*' : ''}`);
  const all = terms.join(' ');
  return { all, titleSummary: `{title summary} : (${all})` };
}

/**
 * The search SQL. `list` mode is GET /api/posts?q= (the list's access rule and status); `search` mode is
 * /api/posts/search (own posts in any status, others' published at an openable tier). Visibility is part
 * of the same query. A post above the caller's tier (a teaser) matches on its title and summary only, and
 * its rank ignores the content too, so neither membership nor order says anything about words it hides.
 * Only posts with @min <= id <= @max (those that existed when the first page was asked, and among the
 * newest RANK_WINDOW matches) are ranked, so paging by position neither repeats nor skips when posts are
 * written in between. The bounds are on posts_fts.rowid, so FTS5 reads only that range.
 */
export function searchSql(mode: 'list' | 'search', shape: QueryShape): string {
  const visible = visibleSql(shape, { adminSeesAll: mode === 'list' });
  const status = mode === 'list' ? 'p.status = @status AND' : '';
  const { title, summary, content } = WEIGHTS;
  const teasers = teaserSql(shape, visible) !== null;
  // A teaser matches and ranks on its title and summary only; with no teasers asked, every row is visible.
  const score = teasers
    ? `CASE WHEN ${visible} THEN bm25(posts_fts, ${title}, ${summary}, ${content})
        ELSE bm25(posts_fts, ${title}, ${summary}, 0) END`
    : `bm25(posts_fts, ${title}, ${summary}, ${content})`;
  const teaserMatch = teasers
    ? `AND (${visible} OR posts_fts.rowid IN (SELECT rowid FROM posts_fts
        WHERE posts_fts MATCH @match_ts AND rowid BETWEEN @min AND @max))`
    : '';
  // Ranking reads only posts_fts and idx_posts_access (covering: no row, no body is read per match; named,
  // since without ANALYZE statistics the planner picks the table); the card columns are read for the page.
  return `WITH ranked AS (
    SELECT p.id AS id, ${lockedSql(shape, visible)} AS locked, ${score} AS score
    FROM posts_fts JOIN posts p INDEXED BY idx_posts_access ON p.id = posts_fts.rowid
    WHERE posts_fts MATCH @match AND posts_fts.rowid BETWEEN @min AND @max AND ${status} ${accessSql(shape, visible, dialectSql('sqlite'))}
      ${teaserMatch}
      ${filtersSql(shape)}
    ORDER BY score, p.id DESC LIMIT @limit OFFSET @offset
  )
  ${RANKED_PAGE}`;
}

/**
 * After a `ranked` CTE of one page (id, locked, score: lower is better), the page's cards in that order:
 * only the page's rows are read for their card columns. Both databases' searches end so.
 */
export const RANKED_PAGE = `SELECT ${CARD_COLUMNS}, r.locked AS locked
  FROM ranked r JOIN posts p ON p.id = r.id
  ORDER BY r.score, r.id DESC`;

/** The search of /api/posts/search as Explore's search box sends it (the benchmark prints its plan). */
export const SEARCH_SQL = searchSql('search', EXPLORE_SHAPE);

/** Search on SQLite: FTS5 (search-postgres.ts is the same on PostgreSQL). */
export const SQLITE_SEARCH: SearchSql = { query: ftsQuery, rankFloor: RANK_FLOOR_SQL, sql: searchSql };
