/**
 * pnpm bench:api [--scale | --profile | --cluster | --ceiling | --rate-limits | --admin | --migration-28] — issue 17's table (--cluster: bench/cluster.ts; --admin: issue 34's admin lists, bench/admin-lists.ts). The API runs in its own process (its compiled bundle, as in production) on a temporary database
 * (demo content; with --scale also 100,000 posts and 10,000 users, on SQLite and on PostgreSQL), the list cache
 * off; autocannon runs here at 50 connections (BENCH_CONNECTIONS) for 5 s per row (BENCH_DURATION). Every
 * column starts with the floor (bench/floor.ts: a bare reader of Explore's page on the same data) and prints
 * each list row as a share of it (issue 36). Prints the query plans, a table and writes JSON to bench-results/
 * at the repository root.
 * - `--no-demo`: only the 100,000-post columns (no demo column, no rate-limit rows).
 * - `BENCH_DATABASES=sqlite` (or `postgres`): which databases --scale measures (default both; PostgreSQL is
 *   Debian's, a server of its own in a temporary folder on BENCH_POSTGRES_PORT, default 55470).
 * - `BENCH_API_DIR=<another checkout's api-server folder>`: measure that checkout's API (a "before") with this
 *   harness, floor and data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAdmin } from './admin-lists';
import { benchCeiling } from './ceiling';
import { benchCluster } from './cluster';
import { API_DIR, CONNECTIONS, DURATION, formatFigure } from './measure';
import { benchMigration28 } from './migration-28';
import { postgresScale } from './postgres-scale';
import { benchProfile } from './profile';
import { benchRateLimits, printRateLimitBench } from './rate-limits';
import { LIST_ROWS, measure, type Results, share } from './run';
import { SCENARIOS } from './scenarios';
import { seedScale } from './seed-scale';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const scale = process.argv.includes('--scale');
const demo = !process.argv.includes('--no-demo');
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
// --profile: Explore under node --cpu-prof, self time by area, module and function (bench/profile.ts).
if (process.argv.includes('--profile')) {
  await benchProfile(path.join(repoRoot, 'bench-results'));
  process.exit(0);
}
// --migration-28: how long PostgreSQL's conversion to its own types takes at 100,000 posts (bench/migration-28.ts).
if (process.argv.includes('--migration-28')) {
  await benchMigration28();
  process.exit(0);
}
// --ceiling: the same load against a fixed answer with nothing of ours in the way (bench/ceiling.ts).
if (process.argv.includes('--ceiling')) {
  await benchCeiling();
  process.exit(0);
}
/** Only issue 19's rows (the limiter's cost and the registration flood). */
const onlyRateLimits = process.argv.includes('--rate-limits');
const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const SCALE = { posts: 100_000, users: 10_000 };

const LABELS: [string, string][] = [
  ['floor', "floor: a bare reader of Explore's page (node:http + the driver, same data)"],
  ...SCENARIOS.map((s) => [s.key, s.label] as [string, string]),
  ['stallHealth', '/api/health while 50 connections search "risk"'],
  ['stallSearch', 'that search load, beside it'],
  ['exploreCached', 'member list (Explore) with the list cache on, gzip'],
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-bench-'));
fs.chmodSync(dir, 0o755); // PostgreSQL's server runs as its own user and keeps its data in here
const t0 = Date.now();
try {
  const all: Record<string, Results> = {};
  if (scale && databases.includes('sqlite')) {
    const dbPath = path.join(dir, 'scale.db');
    const seeded = Date.now();
    await seedScale(dbPath, SCALE, 'not-a-login-hash');
    const mb = fs.statSync(dbPath).size / 1e6;
    console.log(
      `seeded 100,000 posts and 10,000 users in ${((Date.now() - seeded) / 1000).toFixed(1)} s (${mb.toFixed(0)} MB)`,
    );
    all.scale = await measure({ name: 'scale', dbPath, url: null }, 50_000, true);
  }
  if (scale && databases.includes('postgres')) {
    const pgScale = await postgresScale(dir, SCALE);
    try {
      all.postgres = await measure(pgScale.db, 50_000, false);
    } finally {
      pgScale.stop();
    }
  }
  if (onlyRateLimits) {
    printRateLimitBench(await benchRateLimits(path.join(dir, 'demo.db')));
    process.exit(0);
  }
  if (demo || !scale) {
    all.demo = await measure({ name: 'demo', dbPath: path.join(dir, 'demo.db'), url: null }, 10, !scale);
  }

  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s per row, ${os.cpus().length} CPUs (client and server share them), list cache off${API_DIR.custom ? `; API from ${API_DIR.dir}` : ''}`,
  );
  const COLUMN_NAMES: Record<string, string> = {
    scale: 'SQLite, 100,000 posts',
    postgres: 'PostgreSQL, 100,000 posts',
    demo: 'SQLite, demo content',
  };
  const cols = Object.keys(COLUMN_NAMES).filter((c) => all[c]);
  console.log(`| call | ${cols.map((c) => COLUMN_NAMES[c]).join(' | ')} |`);
  console.log(`|---|${cols.map(() => '---').join('|')}|`);
  for (const [key, label] of LABELS) {
    const note = cols.map((c) => all[c]?.[key]?.note).find(Boolean);
    const cell = (c: string) =>
      `${formatFigure(all[c]?.[key])}${LIST_ROWS.has(key) ? share(all[c]?.[key], all[c]?.floor) : ''}`;
    console.log(`| ${label}${note ? ` (${note})` : ''} | ${cols.map(cell).join(' | ')} |`);
  }
  const rateLimits = demo ? await benchRateLimits(path.join(dir, 'demo.db')) : null;
  if (rateLimits) printRateLimitBench(rateLimits);
  const out = path.join(repoRoot, 'bench-results');
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(
    out,
    `api-${scale ? 'scale' : 'demo'}${API_DIR.custom ? '-other' : ''}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        connections: CONNECTIONS,
        duration: DURATION,
        cpus: os.cpus().length,
        apiDir: API_DIR.dir,
        results: all,
        rateLimits,
      },
      null,
      2,
    ),
  );
  console.log(`\nJSON: ${path.relative(repoRoot, file)}; total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
