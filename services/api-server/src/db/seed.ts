import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { AccountService } from '../services/accounts';
import { PostService } from '../services/posts';
import { SiteService } from '../services/site';
import {
  type DemoArticle,
  type DemoAuthor,
  loadArticles,
  loadAuthor,
  loadDashboards,
  SEED_DATA_DIR,
  type SeedDashboard,
} from './seed-data';
import type { Sql } from './sql';

/** What seeding uses of the application's context. */
export interface SeedContext {
  sql: Sql;
  config: Config;
  accounts: AccountService;
  now: Clock;
}

/** The demo posts are dated three days apart, the newest three days before the start. */
const DAY_MS = 24 * 3600 * 1000;

interface Demo {
  articles: DemoArticle[];
  author: DemoAuthor;
  passwordHash: string;
}

/**
 * Every start: the dashboards and their series, the impressum and contact records (what is missing, and the
 * variables set); with SEED_DEMO, on the first start of an empty database, the demo author and articles.
 * Content comes from the data files of `dir` (db/seed-data.ts). All of it is one transaction: a failure
 * leaves nothing half-seeded, and instances starting together seed once. Answers whether the demo content
 * was written now.
 */
export async function seed(ctx: SeedContext, dir = SEED_DATA_DIR): Promise<boolean> {
  const dashboards = loadDashboards(dir);
  // Read and hashed before the transaction: inside it, nothing but the database is awaited.
  let demo: Demo | null = null;
  const author = ctx.config.seedDemo ? loadAuthor(dir) : null;
  if (author && !(await demoDone(ctx.sql, author))) {
    // The demo author gets a random password nobody knows: it exists to own the demo posts, not to log in.
    const passwordHash = await ctx.accounts.hashPassword(`${randomBytes(24).toString('base64url')}aA1`);
    demo = { articles: loadArticles(dir), author, passwordHash };
  }
  return ctx.sql.transaction(async (tx) => {
    // Instances that start together on one database seed one after another, each re-reading what the one
    // before it wrote (PostgreSQL: a key lock only seeding takes; SQLite's writers take turns anyway).
    await tx.lock('seed');
    await seedBase(tx, ctx.config, dashboards);
    // Decided again under the lock: another instance may have seeded since the first look.
    if (!demo || (await demoDone(tx, demo.author))) return false;
    await seedDemo(tx, ctx, demo);
    return true;
  });
}

/**
 * Demo content is written once: not into a database that has posts or the demo author, nor again after it
 * was (remembered, so deleting the demo posts does not bring them back).
 */
async function demoDone(sql: Sql, author: DemoAuthor): Promise<boolean> {
  if ((await sql.value("SELECT 1 FROM site_records WHERE key = 'demo_seeded'")) !== undefined) return true;
  if (((await sql.value<number>('SELECT COUNT(*) FROM posts')) ?? 0) > 0) return true;
  return (await sql.value('SELECT 1 FROM users WHERE email = ?', [author.email])) !== undefined;
}

async function seedBase(tx: Sql, config: Config, dashboards: SeedDashboard[]): Promise<void> {
  const site = new SiteService(tx);
  if ((await tx.value<number>('SELECT COUNT(*) FROM dashboards')) === 0) {
    for (const [i, d] of dashboards.entries()) {
      await tx.run('INSERT INTO dashboards (slug, title, description, position) VALUES (?, ?, ?, ?)', [
        d.slug,
        d.title,
        d.description,
        i,
      ]);
    }
  }
  const has = async (key: string) =>
    (await tx.value('SELECT 1 FROM site_records WHERE key = ?', [key])) !== undefined;
  // Per slug, so a database seeded before dashboards had series gets them on its next start.
  for (const d of dashboards) {
    if (!(await has(site.indicatorsKey(d.slug)))) await site.setIndicators(d.slug, d.indicators);
  }
  // The company's records: stored with the defaults (and any SITE_* / CONTACT_* set) on the first start, then
  // only an administrator changes them (/admin/company), except that a variable set wins at every start.
  // A variable not set never touches what was stored.
  const { fromEnvironment } = config.site;
  for (const key of ['impressum', 'contact'] as const) {
    const fields = fromEnvironment[key];
    if (Object.keys(fields).length > 0) await site.overlay(key, config.site[key], fields);
    else if (!(await has(key))) await site.setRecord(key, config.site[key]);
  }
}

async function seedDemo(tx: Sql, ctx: SeedContext, { articles, author, passwordHash }: Demo): Promise<void> {
  const authorId = await ctx.accounts.insertUser(
    tx,
    {
      username: author.username,
      email: author.email,
      name: { first: author.first_name, last: author.last_name },
      address: { street: ctx.config.site.impressum.street, city: '', postal_code: '', country: '' },
    },
    passwordHash,
    { active: true },
  );
  // The services' own write path (slugs, excerpts, terms, cards), joined to this transaction.
  const posts = new PostService(tx, null, 0, ctx.now);
  const start = ctx.now() - articles.length * 3 * DAY_MS;
  for (const [i, article] of articles.entries()) {
    await posts.create(authorId, article, new Date(start + i * 3 * DAY_MS).toISOString());
  }
  // Plausible view counts so Analytics and the report are not all zeros.
  await tx.run("UPDATE posts SET views = (id * 37) % 500 + 20 WHERE status = 'published'");
  await tx.run("INSERT INTO site_records (key, value) VALUES ('demo_seeded', 'true')");
}
