/**
 * The schema written once (issue 49): what a table, a column and an index are, in terms that mean the same on
 * SQLite and PostgreSQL. Each engine's spelling of a kind of column is in engines.ts; what only one engine has
 * (its full-text search, its change counter) is named there too.
 */

/**
 * What a column holds. Each engine stores it in its own type (engines.ts):
 * - `id`: the table's own integer key, given by the database;
 * - `int`: a count or a small number; `bigint`: a number past 2^31 (ids of other rows, millisecond times);
 * - `real`: a measurement;
 * - `text`; `nocase`: text compared without case (a username, an assessment's email);
 * - `bool`: a flag;
 * - `time`: an instant written as the API writes it (`toISOString()`);
 * - `json`: a JSON document the server stores and reads whole.
 */
export type Kind = 'id' | 'int' | 'bigint' | 'real' | 'text' | 'nocase' | 'bool' | 'time' | 'json';

export interface Column {
  kind: Kind;
  /** NULL allowed (a key column never is). */
  nullable: boolean;
  /** The value a row gets when an insert leaves the column out: a literal, written the same on both engines. */
  default?: string | number | boolean;
  unique?: boolean;
  /** A foreign key to `table`'s `column`, and what a deleted parent does to this row. */
  references?: { table: string; column: string; onDelete: 'cascade' | 'set null' };
  /** A column kept by the database itself from other columns or tables: the rule that keeps it. */
  derived?: string;
}

export interface Table {
  columns: Record<string, Column>;
  /** The key's columns, in order (an `id` column is the key on its own when this is left out). */
  primaryKey?: string[];
  /**
   * Its writes change what the API's caches hold (db/change-watch.ts): PostgreSQL's change counter has its
   * trigger on the table (engines.ts); SQLite's `PRAGMA data_version` counts every write anyway.
   */
  watched?: boolean;
}

export interface Index {
  table: string;
  /** Column names, or an expression in parentheses (`(lower(to_address))`). */
  columns: string[];
  unique?: boolean;
  /** A partial index's condition, in SQL both engines read (`is_active = FALSE`). */
  where?: string;
}

export interface Schema {
  tables: Record<string, Table>;
  indexes: Record<string, Index>;
}

type Modifier = Partial<Omit<Column, 'kind' | 'nullable'>>;

/** Column builders for descriptions: `text()`, `time({ nullable })`… NOT NULL unless said otherwise. */
const column =
  (kind: Kind) =>
  (over: Modifier & { nullable?: boolean } = {}): Column => ({ kind, nullable: false, ...over });

export const id = column('id');
export const int = column('int');
export const bigint = column('bigint');
export const real = column('real');
export const text = column('text');
export const nocase = column('nocase');
export const bool = column('bool');
export const time = column('time');
export const json = column('json');

/** The same column, NULL allowed. */
export const nullable = (c: Column): Column => ({ ...c, nullable: true });

/** A foreign key (see Column.references). */
export const ref = (table: string, onDelete: 'cascade' | 'set null' = 'cascade', column = 'id') => ({
  references: { table, column, onDelete },
});
