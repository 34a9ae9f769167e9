import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import type { Sql } from '../src/db/sql';
import { startServer } from '../src/server';
import { testConfig } from './helpers';

/**
 * Upgrading a database made by an older API, on whichever engine the suite runs (issue 49: every migration
 * tested on both): the database is migrated part of the way through `Sql`, given rows in that version's
 * shape, and the server's start applies the rest.
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

/** A config of its own database, and that database migrated up to and including `version`. */
async function olderDatabase(version: number, overrides: Parameters<typeof testConfig>[0] = {}) {
  const config = testConfig(overrides);
  const old = openDatabase(config);
  await migrate(
    old,
    MIGRATIONS.filter((m) => m.version <= version),
  );
  return { config, old };
}

/** `olderDatabase`, holding the member of VETERAN and the published post of OLD_POST; closed again. */
async function olderDatabaseWithPost(version: number, overrides: Parameters<typeof testConfig>[0] = {}) {
  const { config, old } = await olderDatabase(version, overrides);
  await insertVeteran(old);
  await old.run(OLD_POST);
  await old.close();
  return config;
}

async function started(config: ReturnType<typeof testConfig>) {
  const server = await startServer(config);
  cleanups.push(() => server.close());
  return server;
}

const VETERAN = `INSERT INTO users (id, username, email, password_hash, first_name, last_name, created_at, is_active)
  VALUES (1, 'veteran', 'veteran@example.com', 'x', 'Vera', 'Veteran', '2020-01-01T00:00:00.000Z', 1)`;
const OLD_POST = `INSERT INTO posts (slug, title, content, status, visibility, content_type, author_id, published_at,
    created_at, updated_at)
  VALUES ('old-post', 'Old post', 'Body', 'published', 'public', 'osint', 1, '2020-01-02T00:00:00.000Z',
    '2020-01-02T00:00:00.000Z', '2020-01-02T00:00:00.000Z')`;

/** VETERAN's member, id 1; on PostgreSQL the id sequence moves past it, as an older API's inserts did. */
async function insertVeteran(sql: Sql) {
  await sql.run(VETERAN);
  if (sql.dialect === 'postgres')
    await sql.value("SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT MAX(id) FROM users))");
}

const indexNamed = (sql: Sql, name: string) =>
  sql.value(
    sql.dialect === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?"
      : 'SELECT indexname FROM pg_indexes WHERE indexname = ?',
    [name],
  );

describe('migrations', () => {
  it('upgrades an older database and keeps its data', async () => {
    const config = await olderDatabaseWithPost(1, { seedDemo: true });

    const server = await started(config);
    const sql = server.ctx.sql;
    expect(await sql.column<number>('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
      MIGRATIONS.map((m) => m.version),
    );
    const res = await fetch(`${server.url}/api/posts/old-post`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: 'Old post', author: { name: 'Vera Veteran' } });
    // A database with content is not seeded with demo posts.
    expect(Number(await sql.value('SELECT COUNT(*) FROM posts'))).toBe(1);
    expect(await indexNamed(sql, 'idx_posts_status_published')).toBe('idx_posts_status_published');
  });

  // From each version an older API may have left behind: its rows survive every later migration, and the
  // upgraded database answers as a new one does (the post's card, counts and author).
  it.each(MIGRATIONS.slice(0, -1).map((m) => m.version))(
    'upgrades a database of version %i',
    async (version) => {
      const config = await olderDatabaseWithPost(version);

      const server = await started(config);
      expect(Number(await server.ctx.sql.value('SELECT MAX(version) FROM schema_migrations'))).toBe(
        MIGRATIONS.at(-1)!.version,
      );
      const read = await (await fetch(`${server.url}/api/posts/old-post`)).json();
      expect(read).toMatchObject({
        title: 'Old post',
        content: 'Body',
        likes: 0,
        comment_count: 0,
        author: { id: 1, name: 'Vera Veteran' },
      });
      const list = (await (await fetch(`${server.url}/api/posts`)).json()) as { slug: string }[];
      expect(list.map((p) => p.slug)).toEqual(['old-post']);
    },
  );

  it('a restart applies nothing and seeds nothing twice', async () => {
    const config = testConfig({ seedDemo: true });
    const first = await startServer(config);
    const posts = Number(await first.ctx.sql.value('SELECT COUNT(*) FROM posts'));
    expect(posts).toBeGreaterThan(12);
    await first.close();
    const db = openDatabase(config);
    expect(await migrate(db)).toEqual([]);
    await db.close();
    const second = await started(config);
    expect(Number(await second.ctx.sql.value('SELECT COUNT(*) FROM posts'))).toBe(posts);
    if (second.ctx.sql.sqlite)
      expect(second.ctx.sql.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});

describe('stored cards (migrations 9 and 18)', () => {
  it('stores the card of every post written before it', async () => {
    const { config, old } = await olderDatabase(8);
    await insertVeteran(old);
    await old.run(`INSERT INTO posts (slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
        published_at, created_at, updated_at, views, tags_json, categories_json)
      VALUES ('old-card', 'Old "quoted" card', 'Old summary', 'Body', 'Old summary', 'published', 'public',
        'osint', 1, '2020-01-02T00:00:00.000Z', '2020-01-02T00:00:00.000Z', '2020-01-03T00:00:00.000Z', 7,
        '["legacy"]', '["Markets"]')`);
    // A like and a comment: migration 18 moves their counts into the stored card.
    await old.run(
      `INSERT INTO post_likes (post_id, user_id) SELECT id, 1 FROM posts WHERE slug = 'old-card'`,
    );
    await old.run(`INSERT INTO comments (post_id, author_id, content, created_at, updated_at)
      SELECT id, 1, 'Old comment', '2020-01-04T00:00:00.000Z', '2020-01-04T00:00:00.000Z' FROM posts
      WHERE slug = 'old-card'`);
    await old.close();

    const server = await started(config);
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
    const { config, old } = await olderDatabase(20);
    const token = `${'T'.repeat(20)}_-abcdefghijklmnopqrstu`; // 43 characters, as every token was
    const hash = createHash('sha256').update(token).digest('hex');
    const at = Date.now() - 60_000;
    await insertVeteran(old);
    await old.run(
      'INSERT INTO password_resets (user_id, token_hash, created_at, expires_at) VALUES (1, ?, ?, ?)',
      [hash, at, at + 30 * 60_000],
    );
    const link = `http://site.test/reset-password?token=${token}`;
    const text = `Hello Vera,\n\nThe link:\n\n${link}\n\nIf you did not ask for this, ignore this mail.`;
    const html = `<p>Hello</p>\n<p><a href="${link}">Choose a new password</a></p>\n<p>Ignore it otherwise.</p>`;
    const insert = (...values: unknown[]) =>
      old.run(
        `INSERT INTO outbox (kind, to_address, subject, text_body, html_body, created_at, status, attempts, next_attempt_at, sent_at)
         VALUES (?, 'veteran@example.com', 'Reset your password', ?, ?, ?, ?, 0, ?, ?)`,
        values,
      );
    await insert('password-reset', text, html, at, 'pending', at, null);
    await insert('password-reset', text, html, at, 'sent', at, at);
    await insert('assessment-received', 'Thank you', '<p>Thank you</p>', at, 'pending', at, null);
    await old.close();

    const server = await started(config);
    const db = server.ctx.sql;
    expect(Number(await db.value('SELECT used_at FROM password_resets'))).toBeGreaterThan(0);
    const reset = await fetch(`${server.url}/api/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Valid123x' }),
    });
    expect(reset.status).toBe(400);
    const rows = await db.all<Record<string, string | null>>(
      'SELECT kind, status, text_body, html_body, sealed_secret, last_error FROM outbox ORDER BY id',
    );
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
