import { MIGRATIONS, type Migration } from '../migrations';
import { applyChanges } from './changes';
import { INDEXES_28 } from './indexes';
import { TABLES_ACCOUNTS } from './tables-accounts';
import { TABLES_CONTENT } from './tables-content';
import { TABLES_DELIVERY } from './tables-delivery';
import { int, type Schema, text } from './types';

/**
 * The schema written once (issue 49, docs/decisions/0047-one-schema.md): the description of every table,
 * column, key, foreign key, index and derived column as migrations 1 to 28 left them on both engines, then
 * each later migration's changes on top. test/schema.test.ts migrates a database from nothing on each engine
 * and compares its catalog with `currentSchema()`.
 */
export const SCHEMA_28: Schema = {
  tables: {
    ...TABLES_ACCOUNTS,
    ...TABLES_CONTENT,
    ...TABLES_DELIVERY,
    // Made by migrate() itself (database.ts), the same text on both engines.
    schema_migrations: {
      primaryKey: ['version'],
      columns: { version: int(), name: text(), applied_at: text() },
    },
  },
  indexes: INDEXES_28,
};

/** The last migration described by SCHEMA_28: later ones are written as changes. */
export const BASE_VERSION = 28;

/** The schema after every migration of `migrations` (the API's own list unless a test adds to it). */
export function currentSchema(migrations: readonly Migration[] = MIGRATIONS): Schema {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  // Checked here, where the schema test (test/schema.test.ts) asks for the schema: a migration after the
  // description that says no changes would leave it behind the databases.
  for (const m of ordered) {
    if (m.version <= BASE_VERSION && m.changes)
      throw new Error(
        `migration ${m.version} predates the description (${BASE_VERSION}): it cannot have changes`,
      );
    if (m.version > BASE_VERSION && !m.changes)
      throw new Error(
        `migration ${m.version} (${m.name}) must say its changes to the schema (changes: [] if none)`,
      );
  }
  return applyChanges(
    SCHEMA_28,
    ordered.flatMap((m) => m.changes ?? []),
  );
}
