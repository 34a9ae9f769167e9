/**
 * One column of the API benchmark: one database (a SQLite file or a PostgreSQL database), the floor's row
 * (bench/floor.ts) and then every row of the table against the API, all in one run on the same data.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { startFloor } from './floor';
import { ApiProcess, benchUser, cannon, type Figure, figure, formatFigure } from './measure';
import { printPlans } from './plans';
import { EXPLORE_PATH, findDeepPage, SCENARIOS, searchPath, type Target } from './scenarios';

/** Where a column's data lives: the SQLite file, or a postgres:// URL (then dbPath is unused by the API). */
export interface BenchDatabase {
  name: string;
  dbPath: string;
  url: string | null;
}

export type Results = Record<string, Figure & { note?: string }>;

function login(base: string): Promise<Record<string, string>> {
  return benchUser(base, { username: 'bench_member', email: 'bench-member@example.com' });
}

const PUBLIC_POSTS =
  "SELECT id, slug FROM posts WHERE status = 'published' AND visibility = 'public' ORDER BY id LIMIT 200";

/** Published public posts (single reads, comments, likes), and on SQLite the query plans. */
async function publicPosts(db: BenchDatabase, plans: boolean): Promise<{ id: number; slug: string }[]> {
  if (db.url) {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; slug: string }>(PUBLIC_POSTS);
      return rows.map((r) => ({ id: Number(r.id), slug: r.slug }));
    } finally {
      await client.end();
    }
  }
  const sqlite = new Database(db.dbPath, { readonly: true });
  try {
    if (plans) await printPlans(sqlite);
    return sqlite.prepare(PUBLIC_POSTS).all() as { id: number; slug: string }[];
  } finally {
    sqlite.close();
  }
}

/** The floor's row: the same connections, duration and data as every row of the API after it. */
async function floorRow(db: BenchDatabase): Promise<Figure> {
  const floor = await startFloor(db.url ?? db.dbPath);
  try {
    await cannon({ url: `${floor.base}/`, duration: 1 }); // warm-up, as the API gets
    return figure(await cannon({ url: `${floor.base}/` }));
  } finally {
    await floor.stop();
  }
}

export async function measure(db: BenchDatabase, depth: number, plans: boolean): Promise<Results> {
  const name = db.name;
  const results: Results = {};
  // Issue 17's rows run without rate limits: the mixed load writes from one account far past any limit.
  // The limiter's own cost is measured beside it (bench/rate-limits.ts).
  const env: Record<string, string> = { RATE_LIMITS: 'off', ...(db.url ? { DATABASE_URL: db.url } : {}) };
  const api = new ApiProcess(db.dbPath, env);
  const started = Date.now();
  await api.start();
  console.log(`[${name}] API up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  try {
    const auth = await login(api.base);
    // The floor reads the database the API has opened (and, for the demo column, created): the API idles
    // meanwhile. Then every row against the API, on the same data.
    results.floor = await floorRow(db);
    console.log(`[${name}] floor (bare reader of Explore's page): ${formatFigure(results.floor)}`);
    const rows = await publicPosts(db, plans);
    const deep = await findDeepPage(api.base, auth, depth);
    const target: Target = {
      base: api.base,
      auth,
      ids: rows.map((r) => r.id),
      slugs: rows.map((r) => r.slug),
      deepPath: deep.path,
      deepKind: deep.kind,
    };
    await cannon({ url: `${api.base}/api/posts?limit=6`, duration: 2, connections: 10 }); // warm-up
    for (const s of SCENARIOS) {
      const restarted = await api.settle();
      const { path: p, ...opts } = s.opts(target);
      const r = figure(await cannon({ url: `${api.base}${p ?? '/'}`, ...opts }));
      results[s.key] = { ...r, ...(s.key === 'deep' ? { note: deep.kind } : {}) };
      console.log(
        `[${name}] ${s.label}: ${formatFigure(r)}${restarted ? ' (server restarted: still draining the last run)' : ''}`,
      );
    }
    // The stall test: /api/health from 10 connections while 50 search for the common word.
    await api.settle();
    const [search, health] = await Promise.all([
      cannon({ url: `${api.base}${searchPath('risk')}`, headers: auth }),
      cannon({ url: `${api.base}/api/health`, connections: 10 }),
    ]);
    results.stallSearch = figure(search);
    results.stallHealth = figure(health);
    console.log(
      `[${name}] stall: health ${formatFigure(results.stallHealth)} beside search ${formatFigure(results.stallSearch)}`,
    );
    await api.stop('SIGKILL');
    results.exploreCached = await exploreWithListCache(db, env, auth);
    console.log(`[${name}] Explore with the list cache on: ${formatFigure(results.exploreCached)}`);
  } finally {
    await api.stop('SIGKILL');
  }
  return results;
}

/**
 * The Explore row again as the API runs by default: the list cache on (routes/list-cache.ts, emptied on every
 * write through data_version), gzip asked for as a browser does. Beside the uncached row it shows what the
 * query and the serialisation of a 50-card page cost.
 */
async function exploreWithListCache(
  db: BenchDatabase,
  env: Record<string, string>,
  auth: Record<string, string>,
) {
  const api = new ApiProcess(db.dbPath, { ...env, LIST_CACHE_SIZE: '1000' });
  await api.start();
  try {
    const url = `${api.base}${EXPLORE_PATH}`;
    const headers = { ...auth, 'accept-encoding': 'gzip' };
    await cannon({ url, headers, duration: 1 }); // fills the cache
    return figure(await cannon({ url, headers }));
  } finally {
    await api.stop('SIGKILL');
  }
}

/** The rows that read a list page, printed as a share of the floor's throughput. */
export const LIST_ROWS = new Set(['home', 'explore', 'deep']);

export function share(r: Figure | undefined, floor: Figure | undefined): string {
  if (!r || !floor || floor.rps <= 0) return '';
  return ` (${Math.round((100 * r.rps) / floor.rps)} % of the floor)`;
}
