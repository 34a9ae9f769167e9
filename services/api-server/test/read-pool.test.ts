import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteConnection } from '../src/db/database';
import { ReadPool } from '../src/db/read-pool';
import { postInput, startTestServer, tempDbPath } from './helpers';

/** Search off the event loop (issue 17): worker threads with their own read-only connections. */
describe('read pool', () => {
  const file = tempDbPath();
  const db = openSqliteConnection(file);
  db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const pool = new ReadPool(file, 2);
  afterAll(async () => {
    await pool.close();
    db.close();
  });

  it('reads what the main connection committed, with named parameters', async () => {
    db.prepare('INSERT INTO notes (body) VALUES (?), (?)').run('first', 'second');
    expect(await pool.all('SELECT body FROM notes WHERE id >= @from ORDER BY id', { from: 1 })).toEqual([
      { body: 'first' },
      { body: 'second' },
    ]);
    db.prepare('INSERT INTO notes (body) VALUES (?)').run('third');
    const rows = await pool.all('SELECT COUNT(*) AS n FROM notes', {});
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('answers many queries at once, each with its own rows', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 1, 2, 3].map((id) => pool.all('SELECT body FROM notes WHERE id = @id', { id })),
    );
    expect(answers.map((rows) => (rows[0] as { body: string }).body)).toEqual([
      'first',
      'second',
      'third',
      'first',
      'second',
      'third',
    ]);
  });

  it('rejects a failing query with its message and keeps working', async () => {
    await expect(pool.all('SELECT nope FROM notes', {})).rejects.toThrow(/no such column: nope/);
    await expect(pool.all('INSERT INTO notes (body) VALUES (@b) RETURNING id', { b: 'x' })).rejects.toThrow(
      /readonly/,
    );
    expect(await pool.all('SELECT COUNT(*) AS n FROM notes', {})).toEqual([{ n: 3 }]);
  });

  it('fills a missing parameter from its query first, and leaves a given one alone', async () => {
    const sql = 'SELECT body FROM notes WHERE id >= @floor ORDER BY id';
    const fill = { floor: 'SELECT MAX(id) - @back FROM notes' };
    const found = await pool.query(sql, { floor: null, back: 1 }, fill);
    expect(found).toEqual({ rows: [{ body: 'second' }, { body: 'third' }], filled: { floor: 2 } });
    const given = await pool.query(sql, { floor: 3, back: 1 }, fill);
    expect(given).toEqual({ rows: [{ body: 'third' }], filled: {} });
    // The same text as a plain query still answers rows, not a single value.
    expect(await pool.all('SELECT MAX(id) - @back FROM notes', { back: 1 })).toEqual([
      { 'MAX(id) - @back': 2 },
    ]);
  });
});

describe('search with and without worker threads', () => {
  it('answers the same ranked page either way', async () => {
    const answers: unknown[] = [];
    for (const searchWorkers of [0, 2]) {
      const s = await startTestServer({ searchWorkers });
      try {
        const author = await s.user(['admin'], `poolauthor${searchWorkers}`);
        for (const [title, content] of [
          ['Otter logistics outlook', 'Freight costs and lanes.'],
          ['Quarterly freight review', 'Otter sightings are up in every port.'],
        ]) {
          const r = await s.post(
            '/api/posts',
            postInput({ title, content, status: 'published' }),
            author.token,
          );
          expect(r.status).toBe(201);
        }
        const r = await s.get('/api/posts/search?q=otter', author.token);
        expect(r.status).toBe(200);
        answers.push((r.body as { title: string }[]).map((p) => p.title));
      } finally {
        await s.close();
      }
    }
    // The title hit ranks above the body hit, with or without the pool.
    expect(answers).toEqual([
      ['Otter logistics outlook', 'Quarterly freight review'],
      ['Otter logistics outlook', 'Quarterly freight review'],
    ]);
  });
});
