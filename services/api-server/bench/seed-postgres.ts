/**
 * The scale database on PostgreSQL (issue 36): the very rows of seed-scale.ts (same generator, same order),
 * written through the real PostgreSQL migrations, so every trigger (cards, search vectors, counts) fills
 * what it fills in production. Rows go in batches of multi-row INSERTs, one transaction per batch; the
 * identity sequences are moved past the ids given, so posts written during the benchmark get new ones.
 */
import pg from 'pg';
import { migrate } from '../src/db/database';
import { MIGRATIONS, type Migration } from '../src/db/migrations';
import { openPostgres } from '../src/db/postgres';
import { isPost, type ScaleOptions, type ScalePost, type ScaleUser, scaleRows } from './seed-scale';

const BATCH = 500;

/** `INSERT INTO table (columns) VALUES ($1, …), (…)` for rows of `width` values. */
function insert(table: string, columns: string, width: number, rows: number, tail = ''): string {
  const values = Array.from(
    { length: rows },
    (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
  );
  return `INSERT INTO ${table} (${columns}) VALUES ${values.join(', ')} ${tail}`;
}

/** `migrations`: the schema to write the rows into (the current one unless a benchmark wants an older one). */
export async function seedScalePostgres(
  url: string,
  opts: ScaleOptions,
  passwordHash: string,
  migrations: Migration[] = MIGRATIONS,
) {
  const sql = openPostgres(url);
  await migrate(sql, migrations);
  await sql.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let users: ScaleUser[] = [];
    let posts: ScalePost[] = [];
    const flushUsers = async () => {
      if (users.length === 0) return;
      const cols = 'id, username, email, password_hash, first_name, last_name, is_active, created_at';
      await client.query(
        insert('users', cols, 8, users.length),
        users.flatMap((u) => [u.id, u.username, u.email, passwordHash, 'User', `${u.id}`, 1, u.createdAt]),
      );
      const roles = users.filter((u) => u.role);
      if (roles.length > 0) {
        await client.query(
          insert('user_roles', 'user_id, role', 2, roles.length),
          roles.flatMap((u) => [u.id, u.role]),
        );
      }
      users = [];
    };
    const flushPosts = async () => {
      if (posts.length === 0) return;
      const cols = `id, slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
        published_at, created_at, updated_at, views, tags_json, categories_json`;
      await client.query('BEGIN');
      await client.query(
        insert('posts', cols, 16, posts.length),
        posts.flatMap((p) => [
          p.id,
          p.slug,
          p.title,
          p.summary,
          p.content,
          p.excerpt,
          p.status,
          p.visibility,
          p.contentType,
          p.authorId,
          p.publishedAt,
          p.at,
          p.at,
          p.views,
          JSON.stringify(p.tags),
          JSON.stringify(p.categories),
        ]),
      );
      const terms = posts.flatMap((p) => [
        ...p.tags.map((t) => [p.id, 'tag', t]),
        ...p.categories.map((c) => [p.id, 'category', c]),
      ]);
      await client.query(
        insert('post_terms', 'post_id, kind, name', 3, terms.length, 'ON CONFLICT DO NOTHING'),
        terms.flat(),
      );
      await client.query('COMMIT');
      posts = [];
    };
    for (const row of scaleRows(opts)) {
      if (isPost(row)) {
        await flushUsers();
        posts.push(row);
        if (posts.length >= BATCH) await flushPosts();
      } else {
        users.push(row);
        if (users.length >= BATCH) await flushUsers();
      }
    }
    await flushUsers();
    await flushPosts();
    for (const table of ['users', 'posts']) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT MAX(id) FROM ${table}))`,
      );
    }
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
