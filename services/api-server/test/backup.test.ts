import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_SCHEMA_VERSION, sqliteBackups } from '../src/db/backup';
import { migrate, openSqliteConnection, type SqliteConnection, sqliteOver } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import { changeAfterBackup, fillForBackup, listedTitles } from './backup-fixtures';
import { startTestServer, type TestServer, tempDbPath } from './helpers';

/** Every table (SQLite's own left out), every row ordered by all its columns, plus the schema itself. */
function dump(db: SqliteConnection): Record<string, unknown[]> {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const out: Record<string, unknown[]> = {
    '(schema)': db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all(),
  };
  for (const t of tables) {
    const cols = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(t) as string[];
    const order = cols.map((_, i) => i + 1).join(', ');
    out[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY ${order}`).all();
  }
  return out;
}

function dumpFile(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return dump(db);
  } finally {
    db.close();
  }
}

const tempFile = (name: string) => path.join(path.dirname(tempDbPath()), name);

describe('backup and restore of the live SQLite database (issue 12)', () => {
  let s: TestServer;
  let backups: ReturnType<typeof sqliteBackups>;
  beforeAll(async () => {
    s = await startTestServer({ seedDemo: true });
    backups = sqliteBackups(s.ctx.config.dbPath);
  });
  afterAll(() => s.close());

  it('round trip: restore brings back every table exactly as it was at backup time, under a running server', async () => {
    const filled = await fillForBackup(s);
    const { reader, post } = filled;
    const db = s.ctx.sql.sqlite!;
    const file = tempFile('round-trip.db');
    const snapshot = dump(db);
    const result = await backups.backup(file);
    expect(result.file).toBe(file);
    expect(result.bytes).toBe(fs.statSync(file).size);
    expect(result.tables.find((t) => t.name === 'posts')?.rows).toBe(
      db.prepare('SELECT COUNT(*) FROM posts').pluck().get(),
    );
    expect(dumpFile(file)).toEqual(snapshot);
    // One self-contained file: no WAL beside it.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);

    // Change and delete after the backup, through the app and directly.
    await changeAfterBackup(s, filled);
    expect(dump(db)).not.toEqual(snapshot);

    const restored = await backups.restore(file);
    expect(restored).toMatchObject({
      file,
      restored: true,
      schemaVersion: CODE_SCHEMA_VERSION,
      codeVersion: CODE_SCHEMA_VERSION,
    });
    // The server's own connection sees the restored content: every table, every row.
    expect(dump(db)).toEqual(snapshot);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // The server's caches notice another connection's commit (PRAGMA data_version) and drop what they held.
    expect(await listedTitles(s)).not.toContain('Written after the backup');
    expect(await listedTitles(s)).toContain('Ocelot migration patterns');

    // Full-text search (its own read-only connections on worker threads) finds the post again.
    const found = await s.get('/api/posts/search?q=quetzalcoatl');
    expect(found.status).toBe(200);
    expect(found.body.map((p: { id: number }) => p.id)).toEqual([post.id]);
    expect((await s.get(`/api/posts/${post.id}`)).status).toBe(200);
    expect(
      db.prepare("INSERT INTO posts_fts(posts_fts, rank) VALUES ('integrity-check', 1)").run(),
    ).toBeTruthy();
    // The restored session works again; new writes go on normally.
    expect((await s.get('/api/profile', reader.token)).status).toBe(200);
    expect((await s.post(`/api/posts/${post.id}/comments`, { content: 'Back' }, reader.token)).status).toBe(
      201,
    );
  });

  it('a dry run validates and reports without touching the live database', async () => {
    const file = tempFile('dry-run.db');
    await backups.backup(file);
    await s.user([], 'afterdry');
    const before = dump(s.ctx.sql.sqlite!);
    const plan = await backups.restore(file, { dryRun: true });
    expect(plan.restored).toBe(false);
    expect(plan.tables.map((t) => t.name)).toContain('users');
    expect(dump(s.ctx.sql.sqlite!)).toEqual(before);
  });

  it('backup refuses to overwrite an existing file unless forced', async () => {
    const file = tempFile('existing.db');
    fs.writeFileSync(file, 'keep me');
    await expect(backups.backup(file)).rejects.toThrow(`${file} already exists; add --force to overwrite it`);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep me');
    fs.writeFileSync(`${file}-wal`, 'stale WAL of the old file');
    const r = await backups.backup(file, { force: true });
    expect(r.tables.length).toBeGreaterThan(10);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(dumpFile(file)).toEqual(dump(s.ctx.sql.sqlite!));
    await expect(backups.backup(s.ctx.config.dbPath, { force: true })).rejects.toThrow(
      /is the live database/,
    );
  });

  it('restore refuses a missing, non-SQLite, empty, corrupt or newer file, and leaves the live database alone', async () => {
    const before = dump(s.ctx.sql.sqlite!);
    const missing = tempFile('missing.db');
    await expect(backups.restore(missing)).rejects.toThrow(`No such file: ${missing}`);

    const junk = tempFile('junk.db');
    fs.writeFileSync(junk, 'definitely not SQLite\n'.repeat(200));
    await expect(backups.restore(junk)).rejects.toThrow(`${junk} is not an SQLite database`);

    const empty = tempFile('empty.db');
    fs.writeFileSync(empty, '');
    await expect(backups.restore(empty)).rejects.toThrow('is not a backup of this app');

    const corrupt = tempFile('corrupt.db');
    await backups.backup(corrupt);
    const bytes = fs.readFileSync(corrupt);
    for (let i = 8 * 4096; i < 12 * 4096; i++) bytes[i] = (i * 7) & 0xff;
    fs.writeFileSync(corrupt, bytes);
    await expect(backups.restore(corrupt)).rejects.toThrow(`${corrupt} is corrupt`);

    const newer = tempFile('newer.db');
    await backups.backup(newer);
    const n = new Database(newer);
    n.prepare(
      "INSERT INTO schema_migrations VALUES (99, 'from the future', '2030-01-01T00:00:00.000Z')",
    ).run();
    n.close();
    await expect(backups.restore(newer)).rejects.toThrow(
      `${newer} has schema version 99, newer than this code knows (${CODE_SCHEMA_VERSION}); restore it with the code that wrote it`,
    );
    await expect(backups.restore(newer, { dryRun: true })).rejects.toThrow('newer than this code knows');

    expect(dump(s.ctx.sql.sqlite!)).toEqual(before);
  });

  it('an older backup is migrated before it goes live', async () => {
    const old = tempDbPath();
    const db = openSqliteConnection(old);
    await migrate(sqliteOver(db), MIGRATIONS.slice(0, 7));
    db.prepare(
      `INSERT INTO users (username, email, password_hash, first_name, created_at, is_active)
       VALUES ('veteran', 'veteran@example.com', 'x', 'Vera', '2020-01-01T00:00:00.000Z', 1)`,
    ).run();
    db.close();
    const r = await backups.restore(old);
    expect(r).toMatchObject({ schemaVersion: 7, codeVersion: CODE_SCHEMA_VERSION, restored: true });
    const live = s.ctx.sql.sqlite!;
    expect(live.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all()).toEqual(
      MIGRATIONS.map((m) => m.version),
    );
    expect(live.prepare('SELECT username FROM users').pluck().all()).toEqual(['veteran']);
    expect((await s.get('/api/posts')).status).toBe(200);
    expect((await s.post('/api/register', { nonsense: true })).status).toBe(400); // counts a rate limit
  });
});

/** Bulk rows in one transaction: enough pages for a copy to take a while, or for damage to land in data. */
function fillAssessments(db: SqliteConnection, count: number, payload: (i: number) => string) {
  const insert = db.prepare(
    "INSERT INTO market_assessments (email, payload, created_at) VALUES ('f@example.com', ?, '2024-01-01')",
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(payload(i));
  })();
}

describe('backup while another connection writes', () => {
  it('is one consistent snapshot: whole transactions only, indexes and counts in step', async () => {
    const live = tempDbPath();
    const db = openSqliteConnection(live);
    await migrate(sqliteOver(db));
    // Some bulk, so the copy takes long enough for the writer to commit during it.
    fillAssessments(db, 8000, () => 'x'.repeat(2000));
    db.close();

    // The writer: another thread, its own connection; each transaction a post with three comments.
    const control = new Int32Array(new SharedArrayBuffer(8)); // [stop, committed]
    const writer = new Worker(WRITER, {
      eval: true,
      workerData: { sqlite: createRequire(import.meta.url).resolve('better-sqlite3'), file: live, control },
    });
    const done = new Promise<number>((resolve, reject) => {
      writer.once('message', resolve);
      writer.once('error', reject);
    });
    const committed = () => Atomics.load(control, 1);
    // Woken by the writer's notify after each commit (Atomics.waitAsync): no polling, no pause.
    const waitFor = async (n: number) => {
      for (let seen = committed(); seen < n; seen = committed()) {
        const wait = Atomics.waitAsync(control, 1, seen, 10_000);
        if (wait.async && (await wait.value) === 'timed-out')
          throw new Error(`the writer stopped at ${seen}`);
      }
    };
    await waitFor(20);

    const file = tempFile('concurrent.db');
    const before = committed();
    await sqliteBackups(live).backup(file);
    const after = committed();
    await waitFor(after + 20);
    Atomics.store(control, 0, 1);
    const total = await done;
    await writer.terminate();

    const copy = new Database(file);
    const k = copy.prepare("SELECT COUNT(*) FROM posts WHERE slug LIKE 'w-%'").pluck().get() as number;
    expect(after).toBeGreaterThan(before); // the writer committed while the copy was made
    expect(k).toBeGreaterThanOrEqual(before);
    expect(k).toBeLessThanOrEqual(after);
    expect(total).toBeGreaterThan(k); // the writer went on after the snapshot
    // A prefix of the writer's transactions, each whole.
    const slugs = copy.prepare("SELECT slug FROM posts WHERE slug LIKE 'w-%' ORDER BY id").pluck().all();
    expect(slugs).toEqual(Array.from({ length: k }, (_, i) => `w-${i}`));
    expect(
      copy
        .prepare(
          `SELECT COUNT(*) FROM posts p WHERE p.comment_count <> 3
             OR (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id) <> 3`,
        )
        .pluck()
        .get(),
    ).toBe(0);
    expect(copy.prepare("SELECT n FROM post_counts WHERE content_type = 'osint'").pluck().get()).toBe(k);
    expect(copy.prepare("SELECT COUNT(*) FROM posts_fts WHERE posts_fts MATCH 'writer'").pluck().get()).toBe(
      k,
    );
    copy.prepare("INSERT INTO posts_fts(posts_fts, rank) VALUES ('integrity-check', 1)").run();
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
  });

  it('a damaged live database fails the integrity check of the copy, and no backup file is left', async () => {
    const live = tempDbPath();
    const db = openSqliteConnection(live);
    await migrate(sqliteOver(db));
    fillAssessments(db, 500, (i) => `payload ${i} ${'y'.repeat(300)}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = fs.readFileSync(live);
    for (let i = bytes.length - 20 * 4096; i < bytes.length - 16 * 4096; i++) bytes[i] = (i * 13) & 0xff;
    fs.writeFileSync(live, bytes);

    const file = tempFile('from-damaged.db');
    await expect(sqliteBackups(live).backup(file)).rejects.toThrow(/^Integrity check of the copy failed: /);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith('from-damaged'))).toEqual([]);
  });
});

const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const post = db.prepare(\`INSERT INTO posts (slug, title, content, status, visibility, content_type, published_at,
  created_at, updated_at) VALUES (?, ?, 'Body', 'published', 'public', 'osint', ?, ?, ?)\`);
const comment = db.prepare('INSERT INTO comments (post_id, content, created_at, updated_at) VALUES (?, ?, ?, ?)');
const write = db.transaction((i) => {
  const now = new Date().toISOString();
  const id = post.run('w-' + i, 'Writer ' + i, now, now, now).lastInsertRowid;
  for (let c = 0; c < 3; c++) comment.run(id, 'comment ' + c, now, now);
});
let n = 0;
while (Atomics.load(workerData.control, 0) === 0) {
  write(n);
  n += 1;
  Atomics.store(workerData.control, 1, n);
  Atomics.notify(workerData.control, 1);
}
db.close();
parentPort.postMessage(n);
`;
