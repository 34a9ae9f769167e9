// What seeding leaves in a database, as one comparable value (test/seed.test.ts): every row of the tables the
// seed writes, each column's value as text, so the same content compares equal on SQLite and PostgreSQL. The
// demo author's password hash is left out (a random password, salted), and long texts are shown by their
// SHA-256, so the pinned file stays readable and still tells any changed byte.
import { createHash } from 'node:crypto';
import type { Sql } from '../src/db/sql';

/** The tables seeding writes, each ordered by its key; the derived ones (terms, counts) come from triggers. */
const TABLES = {
  users: 'id',
  user_roles: 'user_id, role',
  posts: 'id',
  post_terms: 'post_id, kind, name',
  term_counts: 'kind, visibility, name',
  post_counts: 'content_type, visibility',
  dashboards: 'slug',
  site_records: 'key',
} as const;

const OMITTED = new Set(['password_hash']);
/** Columns only one engine has (PostgreSQL's search vector, derived from the post by a trigger). */
const ENGINE_ONLY = new Set(['search_vector']);

const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A JSON value with every object's keys in order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((key) => [key, canonical(object[key])]),
  );
}

/**
 * A column's value as text. The JSON the triggers build (`card_json`) is compared as JSON: PostgreSQL's
 * json_build_object spaces and orders its text otherwise than SQLite's json_object, for the same card.
 */
function cell(column: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (column.endsWith('_json')) text = JSON.stringify(canonical(JSON.parse(text)));
  return text.length > 120 ? digest(text) : text;
}

export type SeedDump = Record<keyof typeof TABLES, Record<string, string | null>[]>;

export async function dumpSeeded(sql: Sql): Promise<SeedDump> {
  const dump = {} as SeedDump;
  for (const [table, order] of Object.entries(TABLES) as [keyof typeof TABLES, string][]) {
    const rows = await sql.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${order}`);
    dump[table] = rows.map((row) =>
      Object.fromEntries(
        Object.keys(row)
          .filter((column) => !OMITTED.has(column) && !ENGINE_ONLY.has(column))
          .sort()
          .map((column) => [column, cell(column, row[column])]),
      ),
    );
  }
  return dump;
}
