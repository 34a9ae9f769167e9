import {
  type ColumnDefinitionBuilder,
  type DatabaseIntrospector,
  type DialectAdapter,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import type { Dialect } from '../sql';
import { engineOf } from './engines';
import type { Column, Index, Schema, Table } from './types';

/**
 * A migration from 29 on is written once, as changes to the schema (issue 49, decision 0047): each change
 * updates the description (`applyChanges`) and becomes each engine's DDL through Kysely's schema builder
 * (`compileChanges`), with the column types of engines.ts. A new column is one `addColumn` in the migration
 * list; both engines get it, and the schema test (test/schema.test.ts) checks each database against the
 * description. What stays engine by engine (triggers, full-text search) is SQL beside the changes.
 */
export type SchemaChange =
  | { op: 'createTable'; table: string; definition: Table }
  | { op: 'addColumn'; table: string; column: string; definition: Column }
  | { op: 'createIndex'; name: string; definition: Index }
  | { op: 'dropIndex'; name: string };

export const createTable = (table: string, definition: Table): SchemaChange => ({
  op: 'createTable',
  table,
  definition,
});
export const addColumn = (table: string, column: string, definition: Column): SchemaChange => ({
  op: 'addColumn',
  table,
  column,
  definition,
});
export const createIndex = (name: string, definition: Index): SchemaChange => ({
  op: 'createIndex',
  name,
  definition,
});
export const dropIndex = (name: string): SchemaChange => ({ op: 'dropIndex', name });

/** The schema after `changes`, `schema` itself untouched. A change that cannot apply is an error here. */
export function applyChanges(schema: Schema, changes: readonly SchemaChange[]): Schema {
  const tables = structuredClone(schema.tables);
  const indexes = structuredClone(schema.indexes);
  for (const change of changes) {
    switch (change.op) {
      case 'createTable':
        if (tables[change.table]) throw new Error(`table ${change.table} exists already`);
        tables[change.table] = structuredClone(change.definition);
        break;
      case 'addColumn': {
        const table = tables[change.table];
        if (!table) throw new Error(`no table ${change.table} for column ${change.column}`);
        if (table.columns[change.column])
          throw new Error(`column ${change.table}.${change.column} exists already`);
        checkAddable(change.table, change.column, change.definition);
        table.columns[change.column] = structuredClone(change.definition);
        break;
      }
      case 'createIndex':
        if (indexes[change.name]) throw new Error(`index ${change.name} exists already`);
        if (!tables[change.definition.table])
          throw new Error(`no table ${change.definition.table} for ${change.name}`);
        indexes[change.name] = structuredClone(change.definition);
        break;
      case 'dropIndex':
        if (!indexes[change.name]) throw new Error(`no index ${change.name} to drop`);
        delete indexes[change.name];
        break;
    }
  }
  return { tables, indexes };
}

/**
 * What ALTER TABLE … ADD COLUMN can do on both engines, to a table that has rows: SQLite adds no key or
 * unique column, and no NOT NULL one without a default (an index is the way to a unique column).
 */
function checkAddable(table: string, column: string, c: Column) {
  const name = `${table}.${column}`;
  if (c.kind === 'id') throw new Error(`${name}: a table's id comes with the table, it cannot be added`);
  if (c.unique) throw new Error(`${name}: add a unique index instead (SQLite adds no UNIQUE column)`);
  if (!c.nullable && c.default === undefined)
    throw new Error(`${name}: a NOT NULL column added to a table with rows needs a default`);
  if (c.references && c.default !== undefined)
    throw new Error(`${name}: SQLite adds a column with a foreign key only when its default is NULL`);
}

/** A Kysely that only compiles (no connection, Kysely's DummyDriver): the engine's own spelling of each change. */
function compileOnly(
  adapter: () => DialectAdapter,
  compiler: () => QueryCompiler,
  introspector: (db: Kysely<unknown>) => DatabaseIntrospector,
): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: {
      createAdapter: adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: introspector,
      createQueryCompiler: compiler,
    },
  });
}

const builders: Record<Dialect, Kysely<unknown>> = {
  sqlite: compileOnly(
    () => new SqliteAdapter(),
    () => new SqliteQueryCompiler(),
    (db) => new SqliteIntrospector(db),
  ),
  postgres: compileOnly(
    () => new PostgresAdapter(),
    () => new PostgresQueryCompiler(),
    (db) => new PostgresIntrospector(db),
  ),
};

/** One engine's DDL for `changes`, statements separated by `;` (what a migration's text is). */
export function compileChanges(dialect: Dialect, changes: readonly SchemaChange[]): string {
  const db = builders[dialect];
  const engine = engineOf(dialect);
  const define = (c: Column) => (b: ColumnDefinitionBuilder) => {
    let col = b;
    if (c.kind === 'id') col = engine.identity(col);
    else if (!c.nullable) col = col.notNull();
    if (c.default !== undefined) col = col.defaultTo(sql.raw(literal(c.default)));
    if (c.unique) col = col.unique();
    if (c.references)
      col = col.references(`${c.references.table}.${c.references.column}`).onDelete(c.references.onDelete);
    return col;
  };
  const statement = (change: SchemaChange): string => {
    switch (change.op) {
      case 'createTable': {
        let t = db.schema.createTable(change.table);
        for (const [name, c] of Object.entries(change.definition.columns))
          t = t.addColumn(name, sql.raw(engine.declared[c.kind]), define(c));
        const key = change.definition.primaryKey;
        if (key) t = t.addPrimaryKeyConstraint(`${change.table}_pkey`, key as never);
        const watch = change.definition.watched && engine.watch ? engine.watch(change.table) : null;
        return [t.compile().sql, ...(watch ? [watch] : [])].join(';\n');
      }
      case 'addColumn':
        return db.schema
          .alterTable(change.table)
          .addColumn(
            change.column,
            sql.raw(engine.declared[change.definition.kind]),
            define(change.definition),
          )
          .compile().sql;
      case 'createIndex': {
        const ix = change.definition;
        let i = db.schema
          .createIndex(change.name)
          .on(ix.table)
          .expression(sql.raw(ix.columns.join(', ')));
        if (ix.unique) i = i.unique();
        if (ix.where) i = i.where(sql.raw<boolean>(ix.where));
        return i.compile().sql;
      }
      case 'dropIndex':
        return db.schema.dropIndex(change.name).compile().sql;
    }
  };
  return changes.map((change) => `${statement(change)};`).join('\n');
}

/** A default as SQL both engines read: a number, TRUE/FALSE, a quoted string. */
function literal(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`default ${value} is no number SQL can hold`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
