import type { Sql } from '../sql';

/**
 * A database's schema as its own catalog reports it, in one shape for both engines, so that it can be
 * compared with what the description says it should be (compare.ts, against current.ts): tables and their columns (the type
 * the engine reports, NULL or not, a default or not), keys, single-column unique constraints, foreign keys,
 * and the indexes made with CREATE INDEX (an expression in an index is `(expression)`, a partial index says
 * only that it is).
 */
export interface FoundColumn {
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  unique: boolean;
  /** `table.column on delete <action>`. */
  references: string | null;
}

export interface FoundTable {
  columns: Record<string, FoundColumn>;
  primaryKey: string[];
}

export interface FoundIndex {
  table: string;
  columns: string[];
  unique: boolean;
  partial: boolean;
}

export interface FoundSchema {
  tables: Record<string, FoundTable>;
  indexes: Record<string, FoundIndex>;
  triggers: string[];
  /** The tables under PostgreSQL's change counter (its data_version_bump trigger); none on SQLite. */
  watched: string[];
}

/** An expression in an index: its text is each engine's own, what compares is that it is one. */
export const EXPRESSION = '(expression)';

export function introspect(sql: Sql): Promise<FoundSchema> {
  return sql.dialect === 'sqlite' ? introspectSqlite(sql) : introspectPostgres(sql);
}

/** A foreign key as introspection and the comparison both spell it: `table.column on delete <action>`. */
export const referenceText = (table: string, column: string, onDelete: string) =>
  `${table}.${column} on delete ${ON_DELETE[onDelete] ?? onDelete}`;

const ON_DELETE: Record<string, string> = {
  CASCADE: 'cascade',
  'SET NULL': 'set null',
  c: 'cascade',
  n: 'set null',
};

/** A row of SQLite's `PRAGMA index_list`: origin 'u' is a UNIQUE constraint's, 'c' a CREATE INDEX. */
interface IndexListRow {
  name: string;
  origin: string;
  unique: number;
  partial: number;
}

async function introspectSqlite(sql: Sql): Promise<FoundSchema> {
  const tables: Record<string, FoundTable> = {};
  /** Each table's index list, read once: its unique constraints, then its indexes. */
  const indexLists = new Map<string, IndexListRow[]>();
  const names = await sql.column<string>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  for (const name of names) {
    const q = JSON.stringify(name);
    const info = await sql.all<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: unknown;
      pk: number;
    }>(`PRAGMA table_info(${q})`);
    const keys = await sql.all<{ from: string; table: string; to: string; on_delete: string }>(
      `PRAGMA foreign_key_list(${q})`,
    );
    const listed = await sql.all<IndexListRow>(`PRAGMA index_list(${q})`);
    indexLists.set(name, listed);
    const uniques = new Set<string>();
    for (const index of listed) {
      if (index.origin !== 'u') continue;
      const cols = await sql.column<string>(`SELECT name FROM pragma_index_info(?)`, [index.name]);
      const [only] = cols;
      if (cols.length === 1 && only) uniques.add(only);
    }
    const primaryKey = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    tables[name] = {
      primaryKey: primaryKey.map((c) => c.name),
      columns: Object.fromEntries(
        info.map((c) => {
          const key = keys.find((k) => k.from === c.name);
          return [
            c.name,
            {
              type: c.type.toLowerCase(),
              // SQLite lets a key column other than an INTEGER PRIMARY KEY hold NULL unless it says NOT NULL; no
              // row of ours does, and PostgreSQL makes every key column NOT NULL: compared as NOT NULL.
              nullable: c.notnull === 0 && c.pk === 0,
              hasDefault: c.dflt_value !== null,
              unique: uniques.has(c.name),
              references: key ? referenceText(key.table, key.to, key.on_delete) : null,
            },
          ];
        }),
      ),
    };
  }
  const indexes: Record<string, FoundIndex> = {};
  const made = await sql.all<{ name: string; tbl_name: string }>(
    "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
  );
  for (const index of made) {
    const listed = indexLists.get(index.tbl_name)?.find((i) => i.name === index.name);
    if (!listed) continue;
    const keyColumns = await sql.all<{ name: string | null; key: number }>(
      'SELECT name, key FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno',
      [index.name],
    );
    indexes[index.name] = {
      table: index.tbl_name,
      columns: keyColumns.map((c) => c.name ?? EXPRESSION),
      unique: listed.unique === 1,
      partial: listed.partial === 1,
    };
  }
  const triggers = await sql.column<string>(
    "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
  );
  return { tables, indexes, triggers, watched: [] };
}

async function introspectPostgres(sql: Sql): Promise<FoundSchema> {
  const tables: Record<string, FoundTable> = {};
  const columns = await sql.all<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
  }>(
    `SELECT table_name, column_name, udt_name, is_nullable, column_default, is_identity
     FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  for (const c of columns) {
    const table = tables[c.table_name] ?? { columns: {}, primaryKey: [] };
    tables[c.table_name] = table;
    table.columns[c.column_name] = {
      type: c.udt_name,
      nullable: c.is_nullable === 'YES',
      // An identity column is the table's own key: its value comes from the identity, not a default.
      hasDefault: c.column_default !== null,
      unique: false,
      references: null,
    };
  }
  // Keys, unique constraints and foreign keys, each with its columns in order.
  const constraints = await sql.all<{
    table_name: string;
    contype: string;
    columns: string;
    ref_table: string | null;
    ref_columns: string | null;
    confdeltype: string;
  }>(
    `SELECT t.relname AS table_name, c.contype, c.confdeltype,
       (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY k(att, n)
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.att) AS columns,
       r.relname AS ref_table,
       (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY k(att, n)
          JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.att) AS ref_columns
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid LEFT JOIN pg_class r ON r.oid = c.confrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u', 'f')`,
  );
  for (const c of constraints) {
    const table = tables[c.table_name];
    if (!table) continue;
    const cols = c.columns.split(',');
    // A single-column constraint is the column's own (unique, a foreign key); the description has no other.
    const column = cols.length === 1 ? table.columns[cols[0] ?? ''] : undefined;
    if (c.contype === 'p') table.primaryKey = cols;
    if (c.contype === 'u' && column) column.unique = true;
    if (c.contype === 'f' && column)
      column.references = referenceText(c.ref_table ?? '', c.ref_columns ?? '', c.confdeltype);
  }
  const indexes: Record<string, FoundIndex> = {};
  const made = await sql.all<{
    name: string;
    table_name: string;
    unique: boolean;
    partial: boolean;
    keys: string;
  }>(
    `SELECT i.relname AS name, t.relname AS table_name, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
       (SELECT string_agg(CASE WHEN x.indkey[k - 1] = 0 THEN '${EXPRESSION}'
          ELSE pg_get_indexdef(x.indexrelid, k, true) END, E'\\n' ORDER BY k)
        FROM generate_series(1, x.indnkeyatts) k) AS keys
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     WHERE t.relnamespace = current_schema()::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
  );
  for (const index of made) {
    indexes[index.name] = {
      table: index.table_name,
      columns: index.keys.split('\n'),
      unique: Boolean(index.unique),
      partial: Boolean(index.partial),
    };
  }
  const triggers = await sql.column<string>(
    `SELECT DISTINCT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY tgname`,
  );
  const watched = await sql.column<string>(
    `SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE t.tgname = 'data_version_bump' AND c.relnamespace = current_schema()::regnamespace ORDER BY c.relname`,
  );
  return { tables, indexes, triggers, watched };
}
