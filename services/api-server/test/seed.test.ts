// Seeding (issue 49, "Seed data is data"): what the seed writes, byte for byte, from the data files in
// src/db/seed-data/; a file that is wrong named with its field; one transaction, so a failure anywhere leaves
// nothing; and once, when several instances start together on one database. On SQLite (`pnpm test`) and on
// PostgreSQL (`pnpm test:postgres`) alike.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AppContext, createContext, seed } from '../src/context';
import { loadArticles, loadAuthor, loadDashboards, parseArticle, SEED_DATA_DIR } from '../src/db/seed-data';
import { type ChildServer, startChildServer } from './child-server';
import { ON_POSTGRES, tempDatabase, testConfig } from './helpers';
import { dumpSeeded, type SeedDump } from './seed-dump';

/** One fixed clock: the demo posts' dates are counted back from the start. */
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
/**
 * What the seed wrote before its content moved into data files: pinned from the code of that time, on SQLite,
 * and the same on PostgreSQL (test/seed-dump.ts). `UPDATE_SEED_PIN=1` rewrites it from the SQLite run: only
 * when the demo content is meant to change.
 */
const PINNED = path.join(import.meta.dirname, 'seed-content.json');
const pinned = (): SeedDump => JSON.parse(fs.readFileSync(PINNED, 'utf8'));

const contexts: AppContext[] = [];
const children: ChildServer[] = [];
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close();
  for (const child of children.splice(0)) {
    if (child.child.exitCode === null) {
      child.child.kill('SIGTERM');
      await child.exited;
    }
  }
});

/** A migrated, unseeded database (or `db`, shared with another context), with the fixed clock. */
async function context(db = tempDatabase(), seedDemo = true): Promise<AppContext> {
  const ctx = await createContext(testConfig({ ...db, seedDemo }), () => NOW);
  contexts.push(ctx);
  return ctx;
}

/** A copy of the seed data to spoil: `edit` gets the copy's folder. */
function dataCopy(edit: (dir: string) => void): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'seed-data-')), 'seed-data');
  fs.cpSync(SEED_DATA_DIR, dir, { recursive: true });
  edit(dir);
  return dir;
}
const ARTICLE = 'articles/05-how-a-180-person-logistics.md';
const editFile = (dir: string, file: string, change: (text: string) => string) =>
  fs.writeFileSync(path.join(dir, file), change(fs.readFileSync(path.join(dir, file), 'utf8')));

describe('the demo seed', () => {
  it('writes exactly the pinned content into a new database', async () => {
    const ctx = await context();
    const seeded = await seed(ctx);
    const dump = await dumpSeeded(ctx.sql);
    if (process.env.UPDATE_SEED_PIN === '1' && !ON_POSTGRES) {
      fs.writeFileSync(PINNED, `${JSON.stringify(dump, null, 2)}\n`);
    }
    expect(dump).toEqual(pinned());
    expect(seeded).toBe(true);
    // A second start adds nothing.
    expect(await seed(ctx)).toBe(false);
    expect(await dumpSeeded(ctx.sql)).toEqual(pinned());
  });

  it('without SEED_DEMO writes the dashboards and records, and no demo content', async () => {
    const ctx = await context(undefined, false);
    expect(await seed(ctx)).toBe(false);
    const dump = await dumpSeeded(ctx.sql);
    expect(dump.posts).toEqual([]);
    expect(dump.users).toEqual([]);
    expect(dump.dashboards).toEqual(pinned().dashboards);
    const keys = (rows: Record<string, string | null>[]) => rows.map((r) => r.key);
    expect(keys(dump.site_records)).toEqual(keys(pinned().site_records).filter((k) => k !== 'demo_seeded'));
  });
});

describe('the data files', () => {
  it('src/db/seed-data/ holds the articles in order, the author and the dashboards', () => {
    const articles = loadArticles();
    expect(articles).toHaveLength(22);
    expect(articles[0]!.title).toBe('Mid-Market Risk Outlook 2026: Five Pressures to Plan For');
    expect(articles.filter((a) => a.status === 'draft')).toHaveLength(2);
    expect(loadAuthor().email).toBe('research-desk@risk-intel.example');
    const dashboards = loadDashboards();
    expect(dashboards.map((d) => d.slug)).toEqual([
      'risk-radar',
      'market-pulse',
      'supply-chain-monitor',
      'threat-landscape',
    ]);
    const points = dashboards[0]!.indicators[0]!.points;
    expect([points[0], points[9], points[11]]).toEqual([
      { period: '2025-04', value: 96 },
      { period: '2026-01', value: 116 },
      { period: '2026-03', value: 118 },
    ]);
  });

  it('an article: its front matter as JSON, the Markdown after it trimmed, CRLF read as LF', () => {
    const front = '{"title": "T", "content_type": "osint", "tags": ["a"], "categories": []}';
    const article = parseArticle('x.md', `---\r\n${front}\r\n---\r\n\r\n## Head\r\n\r\nText.\r\n\r\n`);
    expect(article).toEqual({
      title: 'T',
      summary: '',
      content: '## Head\n\nText.',
      content_type: 'osint',
      visibility: 'public',
      status: 'published',
      tags: ['a'],
      categories: [],
    });
  });

  it.each([
    ['a value the API would refuse', (t: string) => t.replace('"public"', '"everyone"'), /visibility: /],
    ['an unknown field', (t: string) => t.replace('"title"', '"tilte"'), /tilte: /],
    [
      'a front matter that is not JSON',
      (t: string) => t.replace('"tags"', 'tags'),
      /front matter is not JSON/,
    ],
    ['no front matter', (t: string) => t.replace(/^---\n/, ''), /must begin with a front matter/],
    ['no content', (t: string) => t.replace(/\n---\n[\s\S]*$/, '\n---\n\n'), /content: Content is required/],
  ])('%s: the error names the file and the field', (_what, change, problem) => {
    const dir = dataCopy((d) => editFile(d, ARTICLE, change));
    const error = (() => {
      try {
        loadArticles(dir);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.name).toBe('SeedDataError');
    expect(error?.message).toContain(path.join(dir, ARTICLE));
    expect(error?.message).toMatch(problem);
  });

  it('a missing or broken JSON file is named', () => {
    const dir = dataCopy((d) => {
      fs.rmSync(path.join(d, 'demo-author.json'));
      editFile(d, 'dashboards.json', (t) => t.replace('{', '{,'));
    });
    expect(() => loadAuthor(dir)).toThrow(
      `seed data ${path.join(dir, 'demo-author.json')}: cannot be read (`,
    );
    expect(() => loadDashboards(dir)).toThrow(
      `seed data ${path.join(dir, 'dashboards.json')}: is not JSON (`,
    );
  });

  it('a wrong dashboard value names the file and where it is', () => {
    const dir = dataCopy((d) => editFile(d, 'dashboards.json', (t) => t.replace('[96, 98,', '[96, "98",')));
    expect(() => loadDashboards(dir)).toThrow(
      `seed data ${path.join(dir, 'dashboards.json')}: dashboards.0.indicators.0.values.1: `,
    );
  });
});

describe('one transaction', () => {
  it('a data file that is wrong leaves the database as it was', async () => {
    const ctx = await context();
    const before = await dumpSeeded(ctx.sql);
    const dir = dataCopy((d) => editFile(d, ARTICLE, (t) => t.replace('"case_study"', '"novel"')));
    await expect(seed(ctx, dir)).rejects.toThrow(/05-how-a-180-person-logistics\.md: content_type: /);
    expect(await dumpSeeded(ctx.sql)).toEqual(before);
  });

  it('a failure at the last article writes nothing, not the author, the other articles nor the dashboards', async () => {
    const ctx = await context();
    const before = await dumpSeeded(ctx.sql);
    expect(before.dashboards).toEqual([]);
    // The database refuses the last article: everything before it was written in the same transaction.
    await ctx.sql.script(
      ctx.sql.dialect === 'postgres'
        ? `CREATE FUNCTION seed_fail() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'injected failure'; END $$;
           CREATE TRIGGER seed_fail BEFORE INSERT ON posts FOR EACH ROW
             WHEN (NEW.title LIKE 'Draft: Cloud%') EXECUTE FUNCTION seed_fail();`
        : `CREATE TRIGGER seed_fail BEFORE INSERT ON posts WHEN NEW.title LIKE 'Draft: Cloud%'
             BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`,
    );
    await expect(seed(ctx)).rejects.toThrow(/injected failure/);
    expect(await dumpSeeded(ctx.sql)).toEqual(before);
    // Once the cause is gone, the next start seeds it all.
    await ctx.sql.script(`DROP TRIGGER seed_fail${ctx.sql.dialect === 'postgres' ? ' ON posts' : ''}`);
    expect(await seed(ctx)).toBe(true);
    // The same content; on PostgreSQL under new ids (a rollback does not give back a sequence's numbers).
    const after = await dumpSeeded(ctx.sql);
    const posts = (dump: SeedDump) =>
      dump.posts.map(({ slug, title, content }) => ({ slug, title, content }));
    expect(posts(after)).toEqual(posts(pinned()));
    expect(after.users.map((u) => u.email)).toEqual(['research-desk@risk-intel.example']);
    expect(after.dashboards).toEqual(pinned().dashboards);
    expect(after.site_records).toEqual(pinned().site_records);
  });
});

describe('instances starting together on one database', () => {
  it('two seeders that both found the database empty: one seeds, the other finds it seeded', async () => {
    const db = tempDatabase();
    const [a, b] = [await context(db), await context(db)];
    const hashed = [vi.spyOn(a.accounts, 'hashPassword'), vi.spyOn(b.accounts, 'hashPassword')];
    const results = await Promise.all([seed(a), seed(b)]);
    expect(results.sort()).toEqual([false, true]);
    // Both had decided to seed before either wrote: the decision under the lock is the one that held.
    expect(hashed.map((spy) => spy.mock.calls.length)).toEqual([1, 1]);
    expect(await dumpSeeded(a.sql)).toEqual(pinned());
  });

  it('two API processes started at once with SEED_DEMO=true: the demo content exists once', async () => {
    const db = tempDatabase();
    const env = {
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : { DB_PATH: db.dbPath }),
      SEED_DEMO: 'true',
    };
    const started = await Promise.allSettled([startChildServer(env), startChildServer(env)]);
    for (const s of started) if (s.status === 'fulfilled') children.push(s.value);
    expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'listening'))).toEqual([
      'listening',
      'listening',
    ]);
    const ctx = await context(db, false);
    const count = (text: string) => ctx.sql.value<number>(text);
    expect(await count('SELECT COUNT(*) FROM posts')).toBe(22);
    expect(await count("SELECT COUNT(*) FROM users WHERE username = 'research-desk'")).toBe(1);
    expect(await count('SELECT COUNT(*) FROM dashboards')).toBe(4);
    expect(await count("SELECT COUNT(*) FROM site_records WHERE key = 'demo_seeded'")).toBe(1);
    expect(await count('SELECT COUNT(DISTINCT title) FROM posts')).toBe(22);
  }, 90_000);
});
