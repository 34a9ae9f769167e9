import { dialectSql } from '../db/dialect';
import { accessSql, filtersSql, lockedSql, type QueryShape, teaserSql, visibleSql } from './access-sql';
import { RANK_WINDOW, RANKED_PAGE, type SearchSql, searchWords } from './search';

/**
 * Full-text search on PostgreSQL (issue 12): migration 6's weighted tsvector (title A, summary B, content
 * D) and its GIN index, with the rules of the FTS5 search in search.ts: every word must match, the last
 * also as a prefix; a teaser matches and ranks on its title and summary only (the `:AB` weight labels);
 * only posts with @min <= id <= @max are ranked, so paging by position neither repeats nor skips.
 */

/** ts_rank's weights for D, C, B, A: content 1, summary 4, title 10, as search.ts WEIGHTS. */
const WEIGHTS = "'{0.1, 0, 0.4, 1.0}'";
/** The same without the content, for a teaser. */
const TEASER_WEIGHTS = "'{0, 0, 0.4, 1.0}'";

/**
 * The visitor's words as to_tsquery text: each a quoted lexeme (the words hold only letters, digits and
 * marks, so nothing in them is tsquery syntax), joined by AND, the last with `:*`; `labels` restricts every
 * word to those weights.
 */
function tsQueryText(words: string[], labels = ''): string {
  const last = words.length - 1;
  return words
    .map(
      (w, i) =>
        `'${w.replaceAll("'", "''")}'${i === last || labels ? ':' : ''}${i === last ? '*' : ''}${labels}`,
    )
    .join(' & ');
}

function query(text: string) {
  const words = searchWords(text);
  if (words.length === 0) return null;
  return { all: tsQueryText(words), titleSummary: tsQueryText(words, 'AB') };
}

const TSQUERY = (param: string) => `to_tsquery('simple', unaccent(@${param}))`;

const RANK_FLOOR = `SELECT COALESCE(
  (SELECT id FROM posts WHERE search_vector @@ ${TSQUERY('match')} AND id <= @max
   ORDER BY id DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}), 0)`;

/** The ranked query, as search.ts searchSql; the score is negated so that lower is better, as bm25's. */
function sql(mode: 'list' | 'search', shape: QueryShape): string {
  const visible = visibleSql(shape, { adminSeesAll: mode === 'list' });
  const status = mode === 'list' ? 'p.status = @status AND' : '';
  const teasers = teaserSql(shape, visible) !== null;
  const score = teasers
    ? `-CASE WHEN ${visible} THEN ts_rank(${WEIGHTS}, p.search_vector, q.all_words)
        ELSE ts_rank(${TEASER_WEIGHTS}, p.search_vector, q.all_words) END`
    : `-ts_rank(${WEIGHTS}, p.search_vector, q.all_words)`;
  const teaserMatch = teasers ? `AND (${visible} OR p.search_vector @@ q.title_summary)` : '';
  return `WITH q AS (SELECT ${TSQUERY('match')} AS all_words, ${TSQUERY('match_ts')} AS title_summary),
  ranked AS (
    SELECT p.id AS id, ${lockedSql(shape, visible)} AS locked, ${score} AS score
    FROM posts p, q
    WHERE p.search_vector @@ q.all_words AND p.id BETWEEN @min AND @max AND ${status}
      ${accessSql(shape, visible, dialectSql('postgres'))}
      ${teaserMatch}
      ${filtersSql(shape)}
    ORDER BY score, p.id DESC LIMIT @limit OFFSET @offset
  )
  ${RANKED_PAGE}`;
}

export const POSTGRES_SEARCH: SearchSql = { query, rankFloor: RANK_FLOOR, sql };
