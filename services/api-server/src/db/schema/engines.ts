import type { ColumnDefinitionBuilder } from 'kysely';
import type { Dialect } from '../sql';
import type { Kind } from './types';

/**
 * What differs between the engines, named once per engine with why (issue 49). The schema itself
 * (tables-*.ts, indexes.ts, and later migrations' changes) is written once; an engine adds:
 * - `declared`: the type a column of each kind is declared with, and `reported`: what its catalog says back;
 * - `own`: what only it has: its full-text search (SQLite's FTS5 tables, PostgreSQL's tsvector column and GIN
 *   and trigram indexes), PostgreSQL's change counter (data_version: SQLite's `PRAGMA data_version` needs no
 *   table), SQLite's covering index for search's access checks;
 * - `rules`: the triggers that keep each derived column (the card, the counts, the author's name), as they
 *   are spelled in its migrations (SQLite: one trigger per event, UPDATE statements; PostgreSQL: a PL/pgSQL
 *   function, BEFORE triggers that assign NEW).
 */
export interface Engine {
  dialect: Dialect;
  declared: Record<Kind, string>;
  /** An `id` column: the table's key, its values given by the database. */
  identity(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  reported: Record<Kind, string>;
  own: { tables: Record<string, string>; columns: Record<string, string>; indexes: Record<string, string> };
  rules: Record<string, string[]>;
  /** Triggers that keep only what this engine has (its search, its change counter). */
  ownTriggers: string[];
  /** The SQL that puts a `watched` table under the change counter; null where every write counts. */
  watch: ((table: string) => string) | null;
}

const SQLITE: Engine = {
  dialect: 'sqlite',
  // SQLite's INTEGER holds 64 bits whatever the size; a flag is 0 or 1 (it has no boolean), a time the ISO text
  // (it has no time type: text sorts as time when written by toISOString), JSON is text read with json_*().
  // An INTEGER PRIMARY KEY is the rowid: the database gives it.
  declared: {
    id: 'INTEGER',
    int: 'INTEGER',
    bigint: 'INTEGER',
    real: 'REAL',
    text: 'TEXT',
    nocase: 'TEXT COLLATE NOCASE',
    bool: 'INTEGER',
    time: 'TEXT',
    json: 'TEXT',
  },
  identity: (c) => c.primaryKey(),
  reported: {
    id: 'integer',
    int: 'integer',
    bigint: 'integer',
    real: 'real',
    text: 'text',
    nocase: 'text',
    bool: 'integer',
    time: 'text',
    json: 'text',
  },
  own: {
    tables: {
      posts_fts: 'search of posts: an FTS5 table over title, summary and content (migration 6)',
      users_search: "the members list's substring search: an FTS5 trigram table (migration 21)",
    },
    columns: {},
    indexes: {
      idx_posts_access:
        "search's access checks from a covering index, not the posts' rows (SQLite's planner has no statistics)",
    },
  },
  rules: {
    'post card': ['posts_card_ins', 'posts_card_upd'],
    'like count': ['post_likes_ins', 'post_likes_del'],
    'comment count': ['comments_ins', 'comments_del'],
    'author name': ['posts_author_upd', 'users_name_posts', 'users_gone_posts'],
    'post counts': ['post_counts_ins', 'post_counts_del', 'post_counts_upd'],
    'term counts': [
      'term_counts_term_ins',
      'term_counts_term_del',
      'term_counts_post_upd',
      'term_counts_post_del',
    ],
    'lead counts': ['lead_counts_ins', 'lead_counts_del', 'lead_counts_upd'],
  },
  ownTriggers: [
    'posts_fts_ins',
    'posts_fts_upd',
    'posts_fts_del',
    'users_search_ins',
    'users_search_upd',
    'users_search_del',
  ],
  watch: null,
};

const POSTGRES: Engine = {
  dialect: 'postgres',
  // PostgreSQL's own types (migration 28, decision 0046); `nocase` is citext. An id is an identity column.
  declared: {
    id: 'bigint',
    int: 'integer',
    bigint: 'bigint',
    real: 'double precision',
    text: 'text',
    nocase: 'citext',
    bool: 'boolean',
    time: 'timestamptz',
    json: 'jsonb',
  },
  identity: (c) => c.generatedByDefaultAsIdentity().primaryKey(),
  reported: {
    id: 'int8',
    int: 'int4',
    bigint: 'int8',
    real: 'float8',
    text: 'text',
    nocase: 'citext',
    bool: 'bool',
    time: 'timestamptz',
    json: 'jsonb',
  },
  own: {
    tables: {
      data_epoch: "the change counter's epoch: a restore starts a new one (caches keyed on it)",
      data_version: 'the change counter, in 16 shards: what a cache compares to know a write happened',
    },
    columns: {
      'posts.search_vector': 'search of posts: a weighted tsvector (title A, summary B, content D)',
    },
    indexes: {
      idx_posts_search: 'the GIN index of posts.search_vector',
      idx_users_search: "the members list's substring search: a trigram GIN index",
    },
  },
  rules: {
    'post card': ['posts_card'],
    'like count': ['post_likes_count'],
    'comment count': ['comments_count'],
    'author name': ['posts_author_name', 'users_name_posts'],
    'post counts': ['post_counts_ins_del', 'post_counts_upd'],
    'term counts': ['term_counts_term', 'term_counts_post_upd', 'term_counts_post_del'],
    'lead counts': ['lead_counts_ins_del', 'lead_counts_upd'],
  },
  ownTriggers: ['posts_search_vector', 'data_version_bump'],
  // The counter is bumped once per transaction, at commit (migration 1's data_version_bump()).
  watch: (table) =>
    `CREATE CONSTRAINT TRIGGER data_version_bump AFTER INSERT OR UPDATE OR DELETE ON "${table}"
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION data_version_bump()`,
};

export const engineOf = (dialect: Dialect): Engine => (dialect === 'sqlite' ? SQLITE : POSTGRES);
