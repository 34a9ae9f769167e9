import { createHash } from 'node:crypto';
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

describe('outbox secrets (migration 21)', () => {
  it('voids every unused reset link and cuts the tokens older mail held out of its bodies', async () => {
    const config = testConfig();
    const old = openSqliteConnection(config.dbPath);
    await migrate(
      sqliteOver(old),
      MIGRATIONS.filter((m) => m.version < 21),
    );
    const token = `${'T'.repeat(20)}_-abcdefghijklmnopqrstu`; // 43 characters, as every token was
    const hash = createHash('sha256').update(token).digest('hex');
    const at = Date.now() - 60_000;
    old.exec(`INSERT INTO users (id, username, email, password_hash, first_name, last_name, created_at, is_active)
      VALUES (1, 'veteran', 'veteran@example.com', 'x', 'Vera', 'Veteran', '2020-01-01T00:00:00.000Z', 1)`);
    old
      .prepare(
        'INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES (1, ?, ?, ?)',
      )
      .run(hash, at, at + 30 * 60_000);
    const link = `http://site.test/reset-password?token=${token}`;
    const text = `Hello Vera,\n\nThe link:\n\n${link}\n\nIf you did not ask for this, ignore this mail.`;
    const html = `<p>Hello</p>\n<p><a href="${link}">Choose a new password</a></p>\n<p>Ignore it otherwise.</p>`;
    const insert = old.prepare(
      `INSERT INTO outbox (kind, to_address, subject, text_body, html_body, created_at, status, attempts, next_attempt_at, sent_at)
       VALUES (?, 'veteran@example.com', 'Reset your password', ?, ?, ?, ?, 0, ?, ?)`,
    );
    insert.run('password-reset', text, html, at, 'pending', at, null);
    insert.run('password-reset', text, html, at, 'sent', at, at);
    insert.run('assessment-received', 'Thank you', '<p>Thank you</p>', at, 'pending', at, null);
    old.close();

    const server = await startServer(config);
    cleanups.push(() => server.close());
    const db = server.ctx.sql.sqlite!;
    expect(db.prepare('SELECT used_at FROM password_resets').pluck().get()).toEqual(expect.any(Number));
    const reset = await fetch(`${server.url}/api/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Valid123x' }),
    });
    expect(reset.status).toBe(400);
    const rows = db
      .prepare('SELECT kind, status, text_body, html_body, sealed_secret, last_error FROM outbox ORDER BY id')
      .all() as Record<string, string | null>[];
    expect(JSON.stringify(rows)).not.toContain(token);
    const hidden = 'http://site.test/reset-password?token=[link hidden]';
    expect(rows[0]).toMatchObject({
      status: 'failed',
      text_body: text.replace(link, hidden),
      html_body: html.replace(link, hidden),
      sealed_secret: null,
      last_error: expect.stringMatching(/migration 21/),
    });
    // A sent one keeps its state; only its body changes. Other mail is left as it was.
    expect(rows[1]).toMatchObject({ status: 'sent', text_body: text.replace(link, hidden) });
    expect(rows[2]).toMatchObject({ status: 'pending', text_body: 'Thank you', last_error: null });
  });
});
