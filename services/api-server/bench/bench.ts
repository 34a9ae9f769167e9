/**
 * pnpm bench:api [--scale | --cluster | --ceiling | --rate-limits | --admin] — issue 17's table (--cluster: bench/cluster.ts; --admin: issue 34's admin lists, bench/admin-lists.ts). The API runs in its own process on a temporary database
 * (demo content; with --scale also 100,000 posts and 10,000 users), the list cache off; autocannon runs here
 * at 50 connections (BENCH_CONNECTIONS) for 5 s per row (BENCH_DURATION). Prints the query plans, a table and
 * writes JSON to bench-results/ at the repository root.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { benchAdmin } from './admin-lists';
import { benchCeiling } from './ceiling';
import { benchCluster } from './cluster';
import { ApiProcess, CONNECTIONS, cannon, DURATION, type Figure, figure, formatFigure } from './measure';
import { printPlans } from './plans';
import { benchRateLimits, printRateLimitBench } from './rate-limits';
import { EXPLORE_PATH, findDeepPage, SCENARIOS, searchPath, type Target } from './scenarios';
import { seedScale } from './seed-scale';

const scale = process.argv.includes('--scale');
// --cluster: the same rows through nginx with one and with two API instances (bench/cluster.ts).
if (process.argv.includes('--cluster')) {
  await benchCluster();
  process.exit(0);
}
// --admin: the members and leads lists of issue 34 at 20 connections (bench/admin-lists.ts).
if (process.argv.includes('--admin')) {
  await benchAdmin();
  process.exit(0);
}
// --ceiling: the same load against a fixed answer with nothing of ours in the way (bench/ceiling.ts).
if (process.argv.includes('--ceiling')) {
  await benchCeiling();
  process.exit(0);
}
/** Only issue 19's rows (the limiter's cost and the registration flood). */
const onlyRateLimits = process.argv.includes('--rate-limits');
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
type Results = Record<string, Figure & { note?: string }>;

async function login(base: string): Promise<Record<string, string>> {
  const user = {
    username: 'bench_member',
    password: 'BenchPass123',
    name: { first: 'Bench', last: 'Member' },
    email: 'bench-member@example.com',
    address: { street: 'Benchmark Road 1', city: '', postal_code: '', country: '' },
  };
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.email, password: user.password }),
  });
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

async function measure(name: string, dbPath: string, depth: number): Promise<Results> {
  // Issue 17's rows run without rate limits: the mixed load writes from one account far past any limit.
  // The limiter's own cost is measured beside it (bench/rate-limits.ts).
  const api = new ApiProcess(dbPath, { RATE_LIMITS: 'off' });
  const started = Date.now();
  await api.start();
  console.log(`[${name}] API up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const results: Results = {};
  try {
    const auth = await login(api.base);
    const db = new Database(dbPath, { readonly: true });
    const rows = db
      .prepare(
        "SELECT id, slug FROM posts WHERE status = 'published' AND visibility = 'public' ORDER BY id LIMIT 200",
      )
      .all() as { id: number; slug: string }[];
    if (name === 'scale') await printPlans(db);
    db.close();
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
    results.exploreCached = await exploreWithListCache(dbPath, auth);
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
async function exploreWithListCache(dbPath: string, auth: Record<string, string>) {
  const api = new ApiProcess(dbPath, { RATE_LIMITS: 'off', LIST_CACHE_SIZE: '1000' });
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

const LABELS: [string, string][] = [
  ...SCENARIOS.map((s) => [s.key, s.label] as [string, string]),
  ['stallHealth', '/api/health while 50 connections search "risk"'],
  ['stallSearch', 'that search load, beside it'],
  ['exploreCached', 'member list (Explore) with the list cache on, gzip'],
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-bench-'));
const t0 = Date.now();
try {
  const all: Record<string, Results> = {};
  if (scale) {
    const dbPath = path.join(dir, 'scale.db');
    const seeded = Date.now();
    await seedScale(dbPath, { posts: 100_000, users: 10_000 }, 'not-a-login-hash');
    const mb = fs.statSync(dbPath).size / 1e6;
    console.log(
      `seeded 100,000 posts and 10,000 users in ${((Date.now() - seeded) / 1000).toFixed(1)} s (${mb.toFixed(0)} MB)`,
    );
    all.scale = await measure('scale', dbPath, 50_000);
  }
  if (onlyRateLimits) {
    printRateLimitBench(await benchRateLimits(path.join(dir, 'demo.db')));
    process.exit(0);
  }
  all.demo = await measure('demo', path.join(dir, 'demo.db'), 10);

  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s per row, ${os.cpus().length} CPUs (client and server share them), list cache off`,
  );
  const cols = scale ? ['scale', 'demo'] : ['demo'];
  console.log(
    `| call | ${cols.map((c) => (c === 'scale' ? '100,000 posts' : 'demo content')).join(' | ')} |`,
  );
  console.log(`|---|${cols.map(() => '---').join('|')}|`);
  for (const [key, label] of LABELS) {
    const note = all.scale?.[key]?.note ?? all.demo?.[key]?.note;
    console.log(
      `| ${label}${note ? ` (${note})` : ''} | ${cols.map((c) => formatFigure(all[c]?.[key])).join(' | ')} |`,
    );
  }
  const rateLimits = await benchRateLimits(path.join(dir, 'demo.db'));
  printRateLimitBench(rateLimits);
  const out = path.join(repoRoot, 'bench-results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(
    out,
    `api-${scale ? 'scale' : 'demo'}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(
    file,
    JSON.stringify(
      { connections: CONNECTIONS, duration: DURATION, cpus: os.cpus().length, results: all, rateLimits },
      null,
      2,
    ),
  );
  console.log(`\nJSON: ${path.relative(repoRoot, file)}; total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
