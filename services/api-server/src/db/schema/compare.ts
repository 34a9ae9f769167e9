import type { Engine } from './engines';
import { EXPRESSION, type FoundColumn, type FoundSchema, referenceText } from './introspect';
import type { Column, Schema } from './types';

/**
 * How a database's catalog (introspect.ts) differs from the schema's description on one engine: one line per
 * difference, none when they agree. What the engine has alone (engines.ts) is expected and not listed; the
 * columns' case-insensitive collation on SQLite and CHECK constraints are not read from the catalog.
 */
export function schemaDifferences(found: FoundSchema, schema: Schema, engine: Engine): string[] {
  const out: string[] = [];
  const ownTable = (name: string) =>
    Object.keys(engine.own.tables).some((own) => name === own || name.startsWith(`${own}_`));
  for (const [name, table] of Object.entries(schema.tables)) {
    const there = found.tables[name];
    if (!there) {
      out.push(`table ${name} is missing`);
      continue;
    }
    const key = table.primaryKey ?? ['id'];
    if (there.primaryKey.join(',') !== key.join(','))
      out.push(`${name}: key (${there.primaryKey}) where the description says (${key})`);
    for (const [columnName, column] of Object.entries(table.columns)) {
      const c = there.columns[columnName];
      if (!c) out.push(`column ${name}.${columnName} is missing`);
      else out.push(...columnDifferences(`${name}.${columnName}`, column, c, engine));
    }
    for (const columnName of Object.keys(there.columns)) {
      if (!(columnName in table.columns) && !(`${name}.${columnName}` in engine.own.columns))
        out.push(`column ${name}.${columnName} is not described`);
    }
  }
  for (const name of Object.keys(found.tables)) {
    if (!(name in schema.tables) && !ownTable(name)) out.push(`table ${name} is not described`);
  }
  for (const [name, index] of Object.entries(schema.indexes)) {
    const there = found.indexes[name];
    if (!there) {
      out.push(`index ${name} is missing`);
      continue;
    }
    const said = {
      table: index.table,
      columns: index.columns.map(keyName).join(', '),
      unique: index.unique ?? false,
      partial: index.where !== undefined,
    };
    const is = { ...there, columns: there.columns.join(', ') };
    if (JSON.stringify(is) !== JSON.stringify(said))
      out.push(`index ${name} is ${JSON.stringify(is)} where the description says ${JSON.stringify(said)}`);
  }
  for (const name of Object.keys(found.indexes)) {
    if (!(name in schema.indexes) && !(name in engine.own.indexes))
      out.push(`index ${name} is not described`);
  }
  out.push(...triggerDifferences(found, schema, engine));
  if (engine.watch) {
    const said = Object.keys(schema.tables)
      .filter((name) => schema.tables[name]?.watched)
      .sort();
    if (found.watched.join(',') !== said.join(','))
      out.push(`the change counter watches (${found.watched}) where the description says (${said})`);
  }
  return out;
}

function columnDifferences(name: string, column: Column, c: FoundColumn, engine: Engine) {
  const out: string[] = [];
  const type = engine.reported[column.kind];
  if (c.type !== type) out.push(`${name} is ${c.type} where a ${column.kind} column is ${type}`);
  if (c.nullable !== column.nullable)
    out.push(`${name} is ${c.nullable ? '' : 'NOT '}NULL, described otherwise`);
  // An id's value comes from the database (SQLite's rowid, PostgreSQL's identity), not a default.
  if (column.kind !== 'id' && c.hasDefault !== (column.default !== undefined))
    out.push(`${name} ${c.hasDefault ? 'has' : 'has no'} default, described otherwise`);
  if (c.unique !== (column.unique ?? false))
    out.push(`${name} is ${c.unique ? '' : 'not '}unique, described otherwise`);
  const { references: r } = column;
  const references = r ? referenceText(r.table, r.column, r.onDelete) : null;
  if (c.references !== references)
    out.push(`${name} references ${c.references} where the description says ${references}`);
  return out;
}

/** Every derived column's rule is kept by its triggers on this engine, and no trigger is unaccounted for. */
function triggerDifferences(found: FoundSchema, schema: Schema, engine: Engine): string[] {
  const out: string[] = [];
  const rules = new Set(
    Object.values(schema.tables).flatMap((t) =>
      Object.values(t.columns).flatMap((c) => (c.derived ? [c.derived] : [])),
    ),
  );
  for (const rule of rules) {
    const triggers = engine.rules[rule];
    if (!triggers) out.push(`no trigger keeps "${rule}" on ${engine.dialect}`);
    for (const t of triggers ?? [])
      if (!found.triggers.includes(t)) out.push(`trigger ${t} ("${rule}") is missing`);
  }
  const known = new Set([...Object.values(engine.rules).flat(), ...engine.ownTriggers]);
  for (const t of found.triggers) if (!known.has(t)) out.push(`trigger ${t} keeps no described rule`);
  return out;
}

/** An index key as the catalog names it: its column, or that it is an expression; order and collation aside. */
function keyName(key: string): string {
  if (key.includes('(')) return EXPRESSION;
  return key
    .replace(/\s+(asc|desc)$/i, '')
    .replace(/\s+collate\s+\w+$/i, '')
    .trim();
}
