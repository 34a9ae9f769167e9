// `pnpm bench:writes [--checkout <dir>]… [--seconds 20] [--floor-seconds 5] [--fast-db] [--build] [--json]`
// (or `node scripts/bench/writes.mjs …`; plain Node, no tsx): acknowledged writes per second at 16 concurrent
// writers against 1 and against 2 API instances sharing one PostgreSQL (issue 49: every write transaction on
// PostgreSQL takes the global advisory lock pg_advisory_xact_lock(1201), src/db/sql.ts, so two instances
// write one at a time). Give a checkout with the lock and one without for before/after in the same run.
//
// Per checkout (default: this one) and per instance count (1, 2): a fresh PostgreSQL (@app/local-postgres, a
// folder of its own in a temp folder, on 55740-55749; PostgreSQL's defaults, fsync and synchronous commits
// on, as the product runs it, unless --fast-db), then the checkout's compiled API (services/api-server/
// dist/main.mjs, built when missing or with --build) on 4701, 4702 with DATABASE_URL pointing at it, the
// rate limits raised far out of reach (they stay on: their counter writes are part of each write's cost).
// 16 writer accounts with the premium role, 8 published posts and a draft per writer (writes-load.mjs says
// how), then 16 writers in a closed loop for --seconds, writer i through instance i mod n, over the public
// HTTP API: comment on a post (30 %), like/unlike a post (30 %), create a draft (20 %; every 3rd has a title
// its group of 4 writers shares, so slugs collide), update their latest draft (20 %). A write counts when it
// answered 2xx; anything else is a failure, by status (5xx are reported loudly and make the exit code 1).
// The floor, once, on the first run's database with its API stopped: the `pg` driver inserting a comment in
// a transaction of its own at 16 connections for --floor-seconds, without and with the advisory lock.
// Prints a table (--json: one JSON document instead). Everything it started is stopped and its temp folder
// removed on exit, also on Ctrl+C.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalPostgres } from '@app/local-postgres';
import { floor, httpClient, percentiles, runWriters, setupWriters } from './writes-load.mjs';
import { apiBundle, portFree, startApi } from './writes-processes.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    checkout: { type: 'string', multiple: true },
    seconds: { type: 'string', default: '20' },
    'floor-seconds': { type: 'string', default: '5' },
    'fast-db': { type: 'boolean', default: false },
    build: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const FLOOR_SECONDS = Number(values['floor-seconds']);
if (!(SECONDS > 0 && FLOOR_SECONDS > 0))
  throw new Error('--seconds and --floor-seconds are positive numbers');
const WRITERS = 16;
const API_PORTS = [4701, 4702];
const PG_PORTS = [55740, 55749];
const checkouts = (values.checkout ?? [ROOT]).map((dir) => path.resolve(dir));
const pg = createRequire(path.join(ROOT, 'services', 'api-server', 'package.json'))('pg');
const log = (line) => console.error(`[writes] ${line}`);

// Far out of reach of 16 writers, every limit still counted: at the defaults the 11th registration from this
// one address (10/1h) and each writer's 31st comment (30/10m per account) would be refused within the run,
// and the post (60/1h) and like (120/10m) limits are within reach of a longer one.
const LIMITS = Object.fromEntries(
  ['REGISTER', 'LOGIN', 'ANONYMOUS', 'POST', 'COMMENT', 'LIKE', 'ACCOUNT'].map((n) => [
    `RATE_LIMIT_${n}`,
    '10000000/1h',
  ]),
);

// What it started, stopped in reverse on exit, on an error and on Ctrl+C.
const cleanups = [];
let cleaning = null;
const cleanup = () =>
  (cleaning ??= (async () => {
    while (cleanups.length)
      await cleanups
        .pop()()
        .catch((e) => log(`cleanup: ${e.message}`));
  })());
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    log(`${signal}: stopping everything it started`);
    await cleanup();
    process.exit(130);
  });
}

const runRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-writes-'));
// As root, PostgreSQL runs as the postgres user (testing/local-postgres): it must enter the folder.
fs.chmodSync(runRoot, 0o755);
cleanups.push(async () => fs.rmSync(runRoot, { recursive: true, force: true }));

async function freePgPort() {
  for (let port = PG_PORTS[0]; port <= PG_PORTS[1]; port++) if (await portFree(port)) return port;
  throw new Error(`ports ${PG_PORTS.join('-')} are all in use`);
}

/** One row: a fresh PostgreSQL, `instances` API instances, the writers; the floor when asked. */
async function measure(checkout, api, instances, index, withFloor) {
  const dir = path.join(runRoot, `run-${index}`);
  fs.mkdirSync(dir, { recursive: true });
  const pgPort = await freePgPort();
  log(`${checkout} (${api.rev}), ${instances} instance(s): PostgreSQL on ${pgPort}`);
  const server = startLocalPostgres({ dir: path.join(dir, 'pg'), port: pgPort, fast: values['fast-db'] });
  const stopPg = async () => server.stop();
  cleanups.push(stopPg);
  const databaseUrl = server.ensureDatabase('bench');
  const env = {
    ...process.env,
    ...LIMITS,
    DATABASE_URL: databaseUrl,
    DB_PATH: path.join(dir, 'app.db'),
    ACCOUNT_SECRET: 'bench-writes-account-secret-0123456789abcdef',
    RELEASE_STORE_DIR: path.join(dir, 'releases'),
    DEPLOY_DIR: path.join(dir, 'deploy'),
    REQUIRES_ACTIVATION: 'false',
    SEED_DEMO: 'false',
    RATE_LIMITS: 'on',
    LOG_LEVEL: 'error',
  };
  // Every request comes straight from here: no proxy's X-Forwarded-For is believed.
  delete env.TRUSTED_PROXIES;
  const apis = [];
  // One after the other: the first one migrates.
  for (const port of API_PORTS.slice(0, instances))
    apis.push(
      await startApi({
        api,
        port,
        env,
        logFile: path.join(dir, `api-${port}.log`),
        onStop: (f) => cleanups.push(f),
      }),
    );
  const client = httpClient();
  const urls = apis.map((a) => a.url);
  const { writers, posts } = await setupWriters({ client, urls, count: WRITERS, pg, databaseUrl });
  log(`  ${WRITERS} writers, ${posts.length} posts: writing for ${SECONDS} s`);
  const stats = await runWriters({ client, writers, posts, seconds: SECONDS });
  client.close();
  for (const a of apis) await a.stop();
  // Drafts with a shared title whose slug was taken (the `-N` the API appended): the collisions happened.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const suffixed = await db.query(
    `SELECT count(*)::int AS n FROM posts WHERE title LIKE 'Market brief %' AND slug ~ '-[0-9]+$'`,
  );
  await db.end();
  stats.slugSuffixed = suffixed.rows[0].n;
  let floors = null;
  if (withFloor) {
    log(`  floor: the pg driver at ${WRITERS} connections, ${FLOOR_SECONDS} s without and with the lock`);
    floors = {
      plain: await floor({ pg, databaseUrl, connections: WRITERS, seconds: FLOOR_SECONDS, lock: false }),
      locked: await floor({ pg, databaseUrl, connections: WRITERS, seconds: FLOOR_SECONDS, lock: true }),
    };
  }
  await stopPg();
  fs.rmSync(dir, { recursive: true, force: true });
  const { latencies, ...rest } = stats;
  return {
    checkout,
    rev: api.rev,
    globalLock: api.globalLock,
    instances,
    ...rest,
    perSecond: (stats.ok / stats.elapsedMs) * 1000,
    ...percentiles(latencies),
    floors,
  };
}

const t0 = Date.now();
const rows = [];
let floors = null;
try {
  for (const checkout of checkouts) {
    const api = apiBundle(checkout, { build: values.build, log });
    for (const instances of [1, 2]) {
      const row = await measure(checkout, api, instances, rows.length, rows.length === 0);
      floors ??= row.floors;
      delete row.floors;
      rows.push(row);
    }
  }
} finally {
  await cleanup();
}

const totalS = (Date.now() - t0) / 1000;
const serverErrors = rows.flatMap((r) =>
  Object.entries(r.failed)
    .filter(([status]) => Number(status) >= 500 || status === '0')
    .map(([status, n]) => `${r.checkout} ×${r.instances}: ${n} × ${status === '0' ? 'no answer' : status}`),
);
const dbMode = values['fast-db'] ? 'fsync off (--fast-db)' : "PostgreSQL's defaults (fsync on)";
if (values.json) {
  const meta = { writers: WRITERS, seconds: SECONDS, cpus: os.cpus().length, database: dbMode, totalS };
  console.log(JSON.stringify({ ...meta, rows, floors }, null, 2));
} else {
  const fmt = (n) => (n === null ? '-' : n.toFixed(n < 100 ? 1 : 0));
  const failedCell = (f) =>
    Object.entries(f)
      .map(([s, n]) => `${n}×${s === '0' ? 'no answer' : s}`)
      .join(', ') || '0';
  console.log(
    `\nAcknowledged writes, ${WRITERS} writers, ${SECONDS} s per row, ${os.cpus().length} CPUs (writers, API and PostgreSQL share them), ${dbMode}\n`,
  );
  console.log(
    '| checkout | lock 1201 | instances | writes ok | failed (by status) | writes/s | p50 ms | p95 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.checkout} (${r.rev}) | ${r.globalLock ? 'yes' : 'no'} | ${r.instances} | ${r.ok} | ${failedCell(r.failed)} | ${fmt(r.perSecond)} | ${fmt(r.p50)} | ${fmt(r.p95)} |`,
    );
  console.log(
    '\n| write | ' +
      rows.map((r) => `${path.basename(r.checkout)} ×${r.instances} ok/failed`).join(' | ') +
      ' |',
  );
  console.log(`|---|${rows.map(() => '---').join('|')}|`);
  for (const op of ['comment', 'like', 'create', 'update'])
    console.log(
      `| ${op} | ${rows.map((r) => `${r.byOp[op]?.ok ?? 0}/${r.byOp[op]?.failed ?? 0}`).join(' | ')} |`,
    );
  console.log(
    `| drafts whose shared title's slug was taken | ${rows.map((r) => r.slugSuffixed).join(' | ')} |`,
  );
  if (floors) {
    console.log(
      `\nFloor: the pg driver, BEGIN + INSERT INTO comments + COMMIT, ${WRITERS} connections, ${FLOOR_SECONDS} s`,
    );
    console.log('| transaction | inserts | failed | inserts/s | p50 ms | p95 ms |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, f] of [
      ['plain', floors.plain],
      ['with pg_advisory_xact_lock(1201)', floors.locked],
    ])
      console.log(
        `| ${name} | ${f.ok} | ${f.failed} | ${fmt(f.perSecond)} | ${fmt(f.p50)} | ${fmt(f.p95)} |`,
      );
  }
  console.log(`\ntotal ${totalS.toFixed(0)} s`);
}
for (const r of rows)
  for (const [status, samples] of Object.entries(r.samples))
    for (const s of samples) log(`${path.basename(r.checkout)} ×${r.instances} ${status}: ${s}`);
if (serverErrors.length) {
  console.error(`\n!!! SERVER ERRORS (5xx / no answer): ${serverErrors.join('; ')} !!!`);
  process.exitCode = 1;
}
