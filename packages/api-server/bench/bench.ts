/**
 * pnpm bench:api — the API on a temp DB with demo content, in its own process; autocannon from this one.
 * Measures authenticated GET /api/posts against GET /api/health as the baseline.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { LIST_SQL } from '../src/services/posts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 0);
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start: ${url}`);
}

function run(title: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        title,
        url,
        connections: CONNECTIONS,
        duration: DURATION,
        headers,
        ...(WORKERS ? { workers: WORKERS } : {}),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-bench-'));
const dbPath = path.join(dir, 'app.db');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: pkgDir,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DB_PATH: dbPath,
    LOG_LEVEL: 'silent',
    REQUIRES_ACTIVATION: 'false',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

try {
  await waitFor(`${base}/api/health`);
  const user = {
    username: 'bench_user',
    password: 'BenchPass123',
    name: { first: 'Bench', last: 'User' },
    email: 'bench@example.com',
    address: { street: 'Benchmark Road 1', city: '', postal_code: '', country: '' },
  };
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.email, password: user.password }),
  });
  const { token } = (await login.json()) as { token: string };
  // Plain JSON (no Accept-Encoding): the heavier case; browsers would get the cached gzip body.
  const auth = { authorization: `Bearer ${token}` };
  const sample = (await (await fetch(`${base}/api/posts`, { headers: auth })).json()) as unknown[];
  console.log(`GET /api/posts returns ${sample.length} posts for a basic member\n`);

  // Warm up JIT and caches.
  await new Promise<void>((resolve) =>
    autocannon({ url: `${base}/api/posts`, connections: 10, duration: 2, headers: auth }, () => resolve()),
  );

  const health = await run('GET /api/health', `${base}/api/health`);
  const posts = await run('GET /api/posts (authenticated)', `${base}/api/posts`, auth);

  const row = (name: string, r: autocannon.Result) =>
    `${name.padEnd(32)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(3)} ms   p99 ${String(r.latency.p99).padStart(3)} ms   errors ${r.errors + r.non2xx}`;
  console.log(
    `${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} (client and server share the machine)`,
  );
  console.log(row('GET /api/health', health));
  console.log(row('GET /api/posts (authenticated)', posts));
  console.log(`ratio posts/health: ${(posts.requests.average / health.requests.average).toFixed(2)}`);
  const ok = posts.requests.average >= 5000 && posts.latency.p99 <= 25 && posts.errors + posts.non2xx === 0;
  console.log(`target (>= 5000 req/s, p99 <= 25 ms, 0 errors): ${ok ? 'met' : 'NOT met'}\n`);

  const db = new Database(dbPath, { readonly: true });
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${LIST_SQL}`).all({
    uid: 2,
    admin: 0,
    open: '["public","members_only"]',
    status: 'published',
    vis: null,
    content_type: null,
    tag: null,
    category: null,
    q: null,
    limit: 20,
    offset: 0,
  }) as { id: number; parent: number; detail: string }[];
  console.log('EXPLAIN QUERY PLAN of the list query:');
  const depth = new Map<number, number>([[0, 0]]);
  for (const p of plan) {
    const d = (depth.get(p.parent) ?? 0) + 1;
    depth.set(p.id, d);
    console.log(`${'  '.repeat(d)}${p.detail}`);
  }
  db.close();
} finally {
  child.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
