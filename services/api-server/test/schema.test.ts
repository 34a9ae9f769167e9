import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/db/database';
import { compiled, MIGRATIONS, type Migration } from '../src/db/migrations';
import { addColumn, applyChanges, createIndex, createTable, dropIndex } from '../src/db/schema/changes';
import { schemaDifferences } from '../src/db/schema/compare';
import { BASE_VERSION, currentSchema, SCHEMA_28 } from '../src/db/schema/current';
import { engineOf } from '../src/db/schema/engines';
import { introspect } from '../src/db/schema/introspect';
import { bigint, bool, id, int, nocase, nullable, ref, text, time } from '../src/db/schema/types';
import type { Sql } from '../src/db/sql';
import { postInput, startTestServer, testConfig } from './helpers';

/**
 * The schema written once (issue 49, docs/decisions/0047-one-schema.md), on whichever engine the suite runs:
 * a database migrated from nothing is what the description says, and a migration written once as changes
 * reaches this engine, on a database with rows, as the description says it does.
 */
const open: Sql[] = [];
afterAll(async () => {
  for (const sql of open) await sql.close();
});

async function migrated(migrations: Migration[] = MIGRATIONS) {
  const config = testConfig();
  const sql = openDatabase(config);
  open.push(sql);
  await migrate(sql, migrations);
  return { sql, config };
}

/** A later migration, as a team would add one: a column on two tables, a new table and its indexes. */
const READING_LIST: Migration = compiled({
  version: BASE_VERSION + 1000,
  name: 'reading lists (a test of the schema written once)',
  sql: '',
  changes: [
    addColumn('posts', 'reading_minutes', int({ default: 0 })),
    addColumn('users', 'nickname', nullable(nocase())),
    createTable('reading_list', {
      watched: true,
      columns: {
        id: id(),
        user_id: bigint(ref('users')),
        post_id: nullable(bigint(ref('posts', 'set null'))),
        added_at: time(),
        shared: bool({ default: false }),
        note: text({ default: "it's ''quoted''" }),
      },
    }),
    createIndex('idx_reading_list_user', { table: 'reading_list', columns: ['user_id', 'added_at DESC'] }),
    createIndex('idx_reading_list_shared', {
      table: 'reading_list',
      columns: ['post_id'],
      unique: true,
      where: 'shared = TRUE',
    }),
    createIndex('idx_posts_reading', { table: 'posts', columns: ['reading_minutes'] }),
    dropIndex('idx_posts_reading'),
  ],
});

describe('the schema written once', () => {
  it('a database migrated from nothing is exactly what the description says', async () => {
    const { sql } = await migrated();
    const found = await introspect(sql);
    expect(schemaDifferences(found, currentSchema(), engineOf(sql.dialect))).toEqual([]);
    // The comparison sees what it claims to: a table, a column, a type and an index the description lacks or
    // says otherwise are each named.
    const wrong = structuredClone(currentSchema());
    delete wrong.tables.dashboards;
    wrong.tables.users!.columns.is_active = text({ default: '' });
    delete wrong.tables.posts!.columns.views;
    wrong.indexes.idx_sessions_user = { table: 'sessions', columns: ['user_id', 'created_at'] };
    wrong.tables.deployments!.watched = true;
    expect(schemaDifferences(found, wrong, engineOf(sql.dialect))).toEqual([
      expect.stringMatching(/^users\.is_active is (integer|bool) where a text column is text$/),
      'column posts.views is not described',
      'table dashboards is not described',
      expect.stringMatching(/^index idx_sessions_user is /),
      // Only PostgreSQL keeps a change counter by table.
      ...(sql.dialect === 'postgres'
        ? [expect.stringMatching(/^the change counter watches \(.*dashboards/)]
        : []),
    ]);
  });

  it('a migration written once as changes reaches this engine, on a database that has rows', async () => {
    const { sql, config } = await migrated();
    const api = await startTestServer(config);
    const member = await api.user([], 'reader');
    const post = await api.post('/api/posts', postInput({ status: 'published' }), member.token);
    expect(post.status).toBe(201);
    await api.close();

    await migrate(sql, [...MIGRATIONS, READING_LIST]);
    const expected = currentSchema([...MIGRATIONS, READING_LIST]);
    expect(schemaDifferences(await introspect(sql), expected, engineOf(sql.dialect))).toEqual([]);
    expect(expected.tables.posts!.columns.reading_minutes).toEqual(int({ default: 0 }));
    expect(expected.indexes.idx_posts_reading).toBeUndefined();

    // The rows already there get the defaults; a new row takes the engine's own types and reads back as written.
    expect(await sql.value('SELECT reading_minutes FROM posts WHERE id = ?', [post.body.id])).toBe(0);
    expect(await sql.value('SELECT nickname FROM users WHERE id = ?', [member.id])).toBeNull();
    await sql.run('UPDATE users SET nickname = ? WHERE id = ?', ['Reader', member.id]);
    expect(await sql.value('SELECT COUNT(*) FROM users WHERE nickname = ?', ['READER'])).toBe(1);
    const at = '2026-11-29T12:00:00.000Z';
    await sql.run('INSERT INTO reading_list (user_id, post_id, added_at, shared) VALUES (?, ?, ?, TRUE)', [
      member.id,
      post.body.id,
      at,
    ]);
    expect(await sql.get('SELECT added_at, shared, note FROM reading_list')).toEqual({
      added_at: at,
      shared: 1,
      note: "it's ''quoted''",
    });
    // The partial unique index holds: the post is shared once per list.
    await expect(
      sql.run('INSERT INTO reading_list (user_id, post_id, added_at, shared) VALUES (?, ?, ?, TRUE)', [
        member.id,
        post.body.id,
        at,
      ]),
    ).rejects.toThrow(/unique/i);
    // The foreign keys act as described: a deleted post leaves the entry, without it.
    await sql.run('DELETE FROM posts WHERE id = ?', [post.body.id]);
    expect(await sql.value('SELECT COUNT(*) FROM reading_list WHERE post_id IS NULL')).toBe(1);
  });

  it('refuses, before any database sees it, a change that cannot apply on both engines', () => {
    const schema = currentSchema();
    expect(() => applyChanges(schema, [addColumn('posts', 'rank', int())])).toThrow(
      'posts.rank: a NOT NULL column added to a table with rows needs a default',
    );
    expect(() =>
      applyChanges(schema, [addColumn('posts', 'code', text({ unique: true, default: '' }))]),
    ).toThrow(/add a unique index instead/);
    expect(() => applyChanges(schema, [addColumn('nothing', 'x', nullable(text()))])).toThrow(
      'no table nothing for column x',
    );
    expect(() => applyChanges(schema, [addColumn('posts', 'views', int({ default: 0 }))])).toThrow(
      'column posts.views exists already',
    );
    expect(() =>
      currentSchema([...MIGRATIONS, { version: BASE_VERSION + 1, name: 'plain SQL', sql: 'SELECT 1' }]),
    ).toThrow(/must say its changes/);
    expect(() => compiled({ version: BASE_VERSION + 1, name: 'half', sql: 'SELECT 1', changes: [] })).toThrow(
      /has SQLite's own SQL and not PostgreSQL's/,
    );
    // The description of 1 to 28 is not changed by a later migration's changes.
    expect(SCHEMA_28.tables.posts!.columns.reading_minutes).toBeUndefined();
  });
});
