/**
 * The 100,000-post database of issue 17, deterministic (seeded PRNG): direct SQL in one transaction with
 * prepared statements, through the real migrations so every index, trigger and counts table of the current
 * code is in place (and kept current by the inserts, as in production).
 */
import { migrate, openSqliteConnection, sqliteOver } from '../src/db/database';
import { makeExcerpt } from '../src/services/excerpt';

export interface ScaleOptions {
  posts: number;
  users: number;
}

/** Words the benchmark searches for: one in 5 posts, one in about 99 % of them. */
export const RARE_WORD = 'quokkastan';
export const COMMON_WORD = 'risk';

/** mulberry32: tiny, fast and the same sequence on every machine. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  `supply chain exposure ransomware phishing vendor audit budget forecast margin liquidity inflation
  tariff freight port insurer claim breach patch firewall backup recovery continuity outage cloud migration
  compliance regulator fine privacy consent retention payroll hiring attrition wage energy price hedge
  currency export import demand pricing sentiment survey panel quarter growth decline shortage supplier
  distress default credit loan covenant rating portfolio concentration region market segment customer churn
  retention contract clause liability negligence fraud invoice payment mandate wire transfer mailbox token
  password vault identity access review control owner budget alert rightsizing capacity reserved spend
  analysis finding trend signal indicator threshold baseline anomaly campaign actor malware loader botnet`
    .split(/\s+/)
    .filter(Boolean);
const TAGS = Array.from({ length: 40 }, (_, i) => `tag-${String(i + 1).padStart(2, '0')}`);
const CATEGORIES = [
  'Cyber Security',
  'Supply Chain',
  'Finance',
  'Compliance',
  'IT Operations',
  'Markets',
  'Energy',
  'People',
  'Fraud',
  'Geopolitics',
  'Insurance',
  'Strategy',
];
const TYPES = ['research_report', 'threat_intel', 'market_analysis', 'osint', 'case_study', 'technical'];

function pickVisibility(r: number): string {
  if (r < 0.4) return 'public';
  if (r < 0.65) return 'members_only';
  if (r < 0.8) return 'paid-tier-1';
  if (r < 0.9) return 'paid-tier-2';
  return 'private';
}

/** Sentences made once and recombined: bodies differ per post without generating 300 MB word by word. */
function sentences(rand: () => number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 8 + Math.floor(rand() * 14);
    const words: string[] = [];
    for (let w = 0; w < len; w++) words.push(WORDS[Math.floor(rand() * WORDS.length)]!);
    const s = words.join(' ');
    out.push(`${s[0]!.toUpperCase()}${s.slice(1)}.`);
  }
  return out;
}

function body(rand: () => number, pool: string[], withCommon: boolean, rare: boolean): string {
  const target = 1024 + Math.floor(rand() * 4096);
  const parts: string[] = [`## ${pool[Math.floor(rand() * pool.length)]!.slice(0, 40)}`];
  if (withCommon) parts.push(`The main ${COMMON_WORD} this quarter is concentration in a few suppliers.`);
  if (rare) parts.push(`Field notes from ${RARE_WORD} describe the outage.`);
  let size = parts.join('\n\n').length;
  while (size < target) {
    const kind = rand();
    let chunk: string;
    if (kind < 0.15) {
      chunk = Array.from({ length: 3 }, () => `- ${pool[Math.floor(rand() * pool.length)]}`).join('\n');
    } else if (kind < 0.22) {
      chunk = `### ${pool[Math.floor(rand() * pool.length)]!.slice(0, 30)}`;
    } else {
      const n = 3 + Math.floor(rand() * 4);
      chunk = Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)]).join(' ');
      if (rand() < 0.2) chunk = chunk.replace(/^(\w+ \w+)/, '**$1**');
    }
    parts.push(chunk);
    size += chunk.length + 2;
  }
  return parts.join('\n\n');
}

export interface ScaleUser {
  id: number;
  username: string;
  email: string;
  createdAt: string;
  role: string | null;
}

export interface ScalePost {
  id: number;
  slug: string;
  title: string;
  summary: string;
  content: string;
  excerpt: string;
  status: string;
  visibility: string;
  contentType: string;
  authorId: number;
  publishedAt: string | null;
  at: string;
  views: number;
  tags: string[];
  categories: string[];
}

/**
 * The rows of the scale database, users first, in one deterministic order (seeded PRNG): the SQLite seeder
 * below and the PostgreSQL one (seed-postgres.ts) write exactly the same data.
 */
export function* scaleRows(opts: ScaleOptions): Generator<ScaleUser | ScalePost> {
  const rand = prng(17);
  const pool = sentences(rand, 4000);
  const rareIds = new Set([11, 20_011, 40_011, 60_011, 80_011].filter((id) => id <= opts.posts));
  const base = Date.parse('2020-01-01T00:00:00Z');
  const pick = <T>(list: readonly T[], n: number): T[] => {
    const set = new Set<T>();
    while (set.size < n) set.add(list[Math.floor(rand() * list.length)]!);
    return [...set].sort();
  };
  for (let id = 1; id <= opts.users; id++) {
    const createdAt = new Date(base + id * 60_000).toISOString();
    const r = rand();
    const role = r < 0.1 ? 'paid-tier-1' : r < 0.15 ? 'paid-tier-2' : r < 0.152 ? 'admin' : null;
    yield { id, username: `user${id}`, email: `user${id}@bench.example`, createdAt, role };
  }
  for (let id = 1; id <= opts.posts; id++) {
    const title = `${pool[Math.floor(rand() * pool.length)]!.slice(0, 60).replace(/\.$/, '')} ${id}`;
    const summary = pool[Math.floor(rand() * pool.length)]!;
    const rare = rareIds.has(id);
    const content = body(rand, pool, rare || rand() < 0.99, rare);
    // Rare-word posts are public and published, so every caller finds them.
    const status = rare || rand() < 0.9 ? 'published' : 'draft';
    const visibility = rare ? 'public' : pickVisibility(rand());
    const at = new Date(base + id * 15 * 60_000).toISOString();
    const tags = pick(TAGS, 1 + Math.floor(rand() * 4));
    const categories = pick(CATEGORIES, 1 + Math.floor(rand() * 2));
    yield {
      id,
      slug: `post-${id}`,
      title,
      summary,
      content,
      excerpt: makeExcerpt(summary),
      status,
      visibility,
      contentType: TYPES[id % TYPES.length]!,
      authorId: 1 + Math.floor(rand() * opts.users),
      publishedAt: status === 'published' ? at : null,
      at,
      views: Math.floor(rand() * 1000),
      tags,
      categories,
    };
  }
}

export const isPost = (row: ScaleUser | ScalePost): row is ScalePost => 'slug' in row;

/** Fills a fresh database at dbPath. All users share one password hash (they never log in). */
export async function seedScale(dbPath: string, opts: ScaleOptions, passwordHash: string) {
  const db = openSqliteConnection(dbPath);
  await migrate(sqliteOver(db));
  const insUser = db.prepare(
    `INSERT INTO users (id, username, email, password_hash, first_name, last_name, is_active, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?)`,
  );
  const insRole = db.prepare('INSERT INTO user_roles (user_id, role) VALUES (?, ?)');
  const insPost = db.prepare(
    `INSERT INTO posts (id, slug, title, summary, content, excerpt, status, visibility, content_type, author_id,
      published_at, created_at, updated_at, views, tags_json, categories_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insTerm = db.prepare('INSERT OR IGNORE INTO post_terms (post_id, kind, name) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const row of scaleRows(opts)) {
      if (!isPost(row)) {
        insUser.run(row.id, row.username, row.email, passwordHash, 'User', `${row.id}`, row.createdAt);
        if (row.role) insRole.run(row.id, row.role);
        continue;
      }
      insPost.run(
        row.id,
        row.slug,
        row.title,
        row.summary,
        row.content,
        row.excerpt,
        row.status,
        row.visibility,
        row.contentType,
        row.authorId,
        row.publishedAt,
        row.at,
        row.at,
        row.views,
        JSON.stringify(row.tags),
        JSON.stringify(row.categories),
      );
      for (const t of row.tags) insTerm.run(row.id, 'tag', t);
      for (const c of row.categories) insTerm.run(row.id, 'category', c);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
