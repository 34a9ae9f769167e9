// On PostgreSQL every statement with parameters runs as a prepared statement named by its text (issue 36,
// src/db/postgres.ts): parsed and planned once per connection. One connection here, so what it prepared can
// be read back from pg_prepared_statements, the view of that same connection.
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/postgres';
import type { Sql } from '../src/db/sql';
import { tempDatabase } from './helpers';

let sql: Sql | null = null;
afterAll(async () => {
  await sql?.close();
});

describe('prepared statements on PostgreSQL', () => {
  it('prepares a statement with parameters once and reuses it; one without runs as it came', async () => {
    sql = openPostgres(tempDatabase().databaseUrl!, 1);
    await sql.script('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    await sql.run('INSERT INTO notes (id, body) VALUES (?, ?), (?, ?)', [1, 'one', 2, 'two']);
    const byId = 'SELECT body FROM notes WHERE id = @id';
    expect(await sql.value(byId, { id: 1 })).toBe('one');
    expect(await sql.value(byId, { id: 2 })).toBe('two');
    const prepared = await sql.column<string>(
      'SELECT statement FROM pg_prepared_statements WHERE statement NOT LIKE $1 ORDER BY statement',
      ['%pg_prepared_statements%'],
    );
    expect(prepared).toEqual([
      'INSERT INTO notes (id, body) VALUES ($1, $2), ($3, $4)',
      'SELECT body FROM notes WHERE id = $1',
    ]);
  });

  it('prepares a statement again when the table under it changed its columns (a restore, a migration)', async () => {
    const all = 'SELECT * FROM notes WHERE id > ? ORDER BY id';
    expect(await sql!.all(all, [0])).toEqual([
      { id: 1, body: 'one' },
      { id: 2, body: 'two' },
    ]);
    // PostgreSQL refuses a prepared plan whose result columns changed ("cached plan must not change result
    // type"): the client prepares it afresh and the caller sees the new columns, not an error.
    await sql!.script("ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT 'x'");
    expect(await sql!.all(all, [1])).toEqual([{ id: 2, body: 'two', tag: 'x' }]);
    expect(await sql!.all(all, [0])).toHaveLength(2);
  });
});
