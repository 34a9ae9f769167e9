import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openSqliteConnection, sqliteOver } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import { startServer } from '../src/server';
import { testConfig } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('migrations', () => {
  it('upgrades an older database and keeps its data', async () => {
    const config = testConfig({ seedDemo: true });
    const old = openSqliteConnection(config.dbPath);
    expect(await migrate(sqliteOver(old), MIGRATIONS.slice(0, 1))).toEqual([1]);
    old
      .prepare(
        `INSERT INTO users (username, email, password_hash, first_name, created_at, is_active)
         VALUES ('veteran', 'veteran@example.com', 'x', 'Vera', '2020-01-01T00:00:00.000Z', 1)`,
      )
      .run();
    old
      .prepare(
        `INSERT INTO posts (slug, title, content, status, visibility, content_type, author_id, published_at, created_at, updated_at)
         VALUES ('old-post', 'Old post', 'Body', 'published', 'public', 'osint', 1, '2020-01-02T00:00:00.000Z',
           '2020-01-02T00:00:00.000Z', '2020-01-02T00:00:00.000Z')`,
      )
      .run();
    old.close();

    const server = await startServer(config);
    cleanups.push(() => server.close());
    const versions = server.ctx.sql
      .sqlite!.prepare('SELECT version FROM schema_migrations ORDER BY version')
      .pluck()
      .all();
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    const res = await fetch(`${server.url}/api/posts/old-post`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: 'Old post', author: { name: 'Vera' } });
    // A database with content is not seeded with demo posts.
    expect(server.ctx.sql.sqlite!.prepare('SELECT COUNT(*) FROM posts').pluck().get()).toBe(1);
    const indexes = server.ctx.sql
      .sqlite!.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'idx_posts_status_published'",
      )
      .pluck()
      .all();
    expect(indexes).toHaveLength(1);
  });

  it('a restart applies nothing and seeds nothing twice', async () => {
    const config = testConfig({ seedDemo: true });
    const first = await startServer(config);
    const posts = first.ctx.sql.sqlite!.prepare('SELECT COUNT(*) FROM posts').pluck().get() as number;
    expect(posts).toBeGreaterThan(12);
    await first.close();
    const db = openSqliteConnection(config.dbPath);
    expect(await migrate(sqliteOver(db))).toEqual([]);
    db.close();
    const second = await startServer(config);
    cleanups.push(() => second.close());
    expect(second.ctx.sql.sqlite!.prepare('SELECT COUNT(*) FROM posts').pluck().get()).toBe(posts);
    expect(second.ctx.sql.sqlite!.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});

describe('stored cards (migrations 9 and 18)', () => {
  it('stores the card of every post written before it', async () => {
    const config = testConfig();
    const old = openSqliteConnection(config.dbPath);
    await migrate(
      sqliteOver(old),
      MIGRATIONS.filter((m) => m.version < 9),
    );
    old.exec(`INSERT INTO users (id, username, email, password_hash, first_name, last_name, created_at, is_active)
      VALUES (1, 'veteran', 'veteran@example.com', 'x', 'Vera', 'Veteran', '2020-01-01T00:00:00.000Z', 1)`);
    old.exec(`INSERT INTO posts (slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
        published_at, created_at, updated_at, views, tags_json, categories_json)
      VALUES ('old-card', 'Old "quoted" card', 'Old summary', 'Body', 'Old summary', 'published', 'public',
        'osint', 1, '2020-01-02T00:00:00.000Z', '2020-01-02T00:00:00.000Z', '2020-01-03T00:00:00.000Z', 7,
        '["legacy"]', '["Markets"]')`);
    // A like and a comment: migration 18 moves their counts into the stored card.
    old.exec(`INSERT INTO post_likes (post_id, user_id) SELECT id, 1 FROM posts WHERE slug = 'old-card'`);
    old.exec(`INSERT INTO comments (post_id, author_id, content, created_at, updated_at)
      SELECT id, 1, 'Old comment', '2020-01-04T00:00:00.000Z', '2020-01-04T00:00:00.000Z' FROM posts
      WHERE slug = 'old-card'`);
    old.close();

    const server = await startServer(config);
    cleanups.push(() => server.close());
    const list = (await (await fetch(`${server.url}/api/posts`)).json()) as Record<string, unknown>[];
    const read = (await (
      await fetch(`${server.url}/api/posts/old-card`, { headers: { 'Sec-Purpose': 'prefetch' } })
    ).json()) as Record<string, unknown>;
    const { content, ...card } = read;
    expect(content).toBe('Body');
    expect(list).toEqual([card]);
    expect(card).toMatchObject({
      title: 'Old "quoted" card',
      updated_at: '2020-01-03T00:00:00.000Z',
      views: 7,
      tags: ['legacy'],
      categories: ['Markets'],
      likes: 1,
      comment_count: 1,
      author: { id: 1, name: 'Vera Veteran' },
    });
  });
});
