import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../src/cli';
import { CODE_SCHEMA_VERSION, type DatabaseBackups, databaseBackups } from '../src/db/backup';
import { postgresBackups } from '../src/db/backup-postgres';
import { migrate } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import { openPostgres } from '../src/db/postgres';
import type { Sql } from '../src/db/sql';
import { changeAfterBackup, fillForBackup, listedTitles } from './backup-fixtures';
import { postInput, startTestServer, type TestServer, tempDatabase, tempDbPath } from './helpers';

/**
 * Issue 12: backups of PostgreSQL that restore (pg_dump / pg_restore behind `pnpm admin backup` and
 * `restore`). Runs with `pnpm test:postgres` only (vitest.config.ts).
 */

/** Every table of our schema, every row ordered by all its columns. */
async function dump(sql: Sql): Promise<Record<string, unknown[]>> {
  const tables = await sql.column<string>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const columns = await sql.column<string>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position",
      [t],
    );
    // tsvector has no ordering of its own: order by its text.
    const order = columns.map((c) => `"${c}"::text`).join(', ');
    out[t] = await sql.all(`SELECT * FROM "${t}" ORDER BY ${order}`);
  }
  return out;
}

const tempFile = (name: string) => path.join(path.dirname(tempDbPath()), name);

describe('backup and restore of the live PostgreSQL database (issue 12)', () => {
  let s: TestServer;
  let backups: DatabaseBackups;
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: true });
    backups = databaseBackups(s.ctx.config);
  });
  afterAll(() => s.close());

  it('round trip: restore brings back every table exactly as it was at backup time, under a running server', async () => {
    expect(backups.kind).toBe('postgres');
    const filled = await fillForBackup(s);
    const { reader, post, comment } = filled;
    const file = tempFile('round-trip.pgdump');
    const snapshot = await dump(s.sql);
    const result = await backups.backup(file);
    expect(result.file).toBe(file);
    expect(result.bytes).toBe(fs.statSync(file).size);
    expect(result.tables.find((t) => t.name === 'posts')?.rows).toBe(
      await s.sql.value('SELECT COUNT(*) FROM posts'),
    );
    expect(result.tables.map((t) => t.name)).toEqual(Object.keys(snapshot));

    // Change and delete after the backup, through the app and directly.
    await changeAfterBackup(s, filled);
    expect(await dump(s.sql)).not.toEqual(snapshot);

    const restored = await backups.restore(file);
    expect(restored).toMatchObject({
      file,
      restored: true,
      schemaVersion: CODE_SCHEMA_VERSION,
      codeVersion: CODE_SCHEMA_VERSION,
    });
    // Every table, every row, as at backup time; only the caches' epoch is new.
    const after = await dump(s.sql);
    expect({ ...after, data_epoch: [] }).toEqual({ ...snapshot, data_epoch: [] });
    expect(after.data_epoch).not.toEqual(snapshot.data_epoch);
    // The running server's caches drop what they held, and the post is found again.
    expect(await listedTitles(s)).not.toContain('Written after the backup');
    expect(await listedTitles(s)).toContain('Ocelot migration patterns');
    const found = await s.get('/api/posts/search?q=quetzalcoatl');
    expect(found.body.map((p: { id: number }) => p.id)).toEqual([post.id]);
    // The restored session works again; new writes go on, with new ids after the restored ones.
    expect((await s.get('/api/profile', reader.token)).status).toBe(200);
    const again = await s.post(`/api/posts/${post.id}/comments`, { content: 'Back' }, reader.token);
    expect(again.status).toBe(201);
    expect(again.body.id).toBeGreaterThan(comment.id);
  });

  it('a dry run validates and reports without touching the live database', async () => {
    const file = tempFile('dry-run.pgdump');
    await backups.backup(file);
    await s.post('/api/posts', postInput({ title: 'After the dry-run backup' }), (await s.user([])).token);
    const before = await dump(s.sql);
    const r = await backups.restore(file, { dryRun: true });
    expect(r.restored).toBe(false);
    expect(r.tables.find((t) => t.name === 'posts')?.rows).toBe(
      (await s.sql.value<number>('SELECT COUNT(*) FROM posts'))! - 1,
    );
    expect(await dump(s.sql)).toEqual(before);
  });

  it('refuses what is not a backup and an existing file, with one line each', async () => {
    const junk = tempFile('junk.pgdump');
    fs.writeFileSync(junk, 'not a dump');
    await expect(backups.restore(junk)).rejects.toThrow(/is not a PostgreSQL backup/);
    await expect(backups.restore(tempFile('missing.pgdump'))).rejects.toThrow(/No such file/);
    const file = tempFile('exists.pgdump');
    fs.writeFileSync(file, 'x');
    await expect(backups.backup(file)).rejects.toThrow(/already exists; add --force/);
    expect((await backups.backup(file, { force: true })).bytes).toBeGreaterThan(1000);
  });

  it('an older backup is migrated before it goes live', async () => {
    const url = tempDatabase().databaseUrl!;
    const old = openPostgres(url);
    try {
      await migrate(
        old,
        MIGRATIONS.filter((m) => m.version < 9),
      );
      await old.run(`INSERT INTO users (username, email, password_hash, first_name, created_at, is_active)
        VALUES ('veteran', 'veteran@example.com', 'x', 'Vera', '2020-01-01T00:00:00.000Z', 1)`);
      await old.run(`INSERT INTO posts (slug, title, summary, content, excerpt, status, visibility, content_type,
          author_id, published_at, created_at, updated_at)
        SELECT 'old-card', 'An old card', 'Old summary', 'Body', 'Old summary', 'published', 'public', 'osint',
          id, '2020-01-02T00:00:00.000Z', '2020-01-02T00:00:00.000Z', '2020-01-03T00:00:00.000Z' FROM users`);
    } finally {
      await old.close();
    }
    const file = tempFile('older.pgdump');
    await postgresBackups(url).backup(file);
    const r = await backups.restore(file);
    expect(r).toMatchObject({ restored: true, schemaVersion: 8, codeVersion: CODE_SCHEMA_VERSION });
    expect(await s.sql.value('SELECT MAX(version) FROM schema_migrations')).toBe(CODE_SCHEMA_VERSION);
    const card = JSON.parse(
      (await s.sql.value<string>("SELECT card_json FROM posts WHERE slug = 'old-card'"))!,
    );
    expect(card).toMatchObject({ slug: 'old-card', title: 'An old card', status: 'published' });
    const read = await s.get('/api/posts/old-card');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ title: 'An old card', author: { name: 'Vera' }, views: 1 });
  });

  it('pnpm admin backup and restore work on DATABASE_URL', async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    process.env.DATABASE_URL = s.ctx.config.databaseUrl!;
    try {
      const file = tempFile('cli.pgdump');
      expect(await runCli(['backup', file])).toBe(0);
      expect(lines[0]).toMatch(/^Backed up postgres:\/\/.* to .*cli\.pgdump/);
      expect(lines.join('\n')).toMatch(/^ {2}posts\s+\d+ rows$/m);
      expect(await runCli(['restore', file])).toBe(2);
      expect(await runCli(['restore', file, '--yes'])).toBe(0);
      expect(lines.filter((l) => l.startsWith('Restored '))).toHaveLength(1);
    } finally {
      delete process.env.DATABASE_URL;
      log.mockRestore();
    }
  });
});
