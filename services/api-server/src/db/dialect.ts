import type { Dialect } from './sql';

/**
 * The few SQL spellings that SQLite and PostgreSQL do not share, in one place (issue 12). Every statement of
 * the services is written once; where it needs one of these, it asks the dialect for its text. Booleans are
 * TRUE and FALSE on both (SQLite reads them as 1 and 0; PostgreSQL's flag columns are boolean since migration
 * 28, and read as 1 and 0 too: db/postgres.ts), and a boolean a row carries out is written as
 * `CASE WHEN … THEN 1 ELSE 0 END`, so both answer the integer the code compares with.
 */
export interface DialectSql {
  readonly dialect: Dialect;
  /** `IN (…)` over the values of a JSON array parameter (`["public","members_only"]`). */
  inJsonArray(param: string): string;
  /** A hint naming the index a query reads (SQLite's planner has no statistics without ANALYZE). */
  indexedBy(index: string): string;
  /** After `column = ?`: compare case-insensitively (PostgreSQL's columns that need it are citext). */
  readonly nocase: string;
}

const SQLITE: DialectSql = {
  dialect: 'sqlite',
  inJsonArray: (param) => `IN (SELECT value FROM json_each(@${param}))`,
  indexedBy: (index) => `INDEXED BY ${index}`,
  nocase: 'COLLATE NOCASE',
};

const POSTGRES: DialectSql = {
  dialect: 'postgres',
  inJsonArray: (param) => `IN (SELECT json_array_elements_text(CAST(@${param} AS json)))`,
  indexedBy: () => '',
  nocase: '',
};

export const dialectSql = (d: Dialect): DialectSql => (d === 'sqlite' ? SQLITE : POSTGRES);
