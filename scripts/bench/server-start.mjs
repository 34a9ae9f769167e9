// Start-up time and memory of the API, from its TypeScript through tsx (as before issue 32) and from its
// compiled bundle (services/api-server/build.mjs, docs/decisions/0028-process-lifecycle.md), 5 runs each:
//   start-up   spawn → the first 200 on GET /api/health/ready (migrations already applied, demo content in)
//   RSS        the process's resident memory (/proc/<pid>/status) once ready, and after 1,000 requests
//              (lists, tags, single posts; 10 at a time)
// `node scripts/bench/server-start.mjs [--runs 5]`; ports are free ones the system picks, the database a
// temporary SQLite file. Prints a table.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_BUNDLE, buildApi } from '@app/api-server/build';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const REQUESTS = 1000;
const CONCURRENCY = 10;
const PACKAGE_DIR = path.dirname(path.dirname(API_BUNDLE));
const MODES = {
  tsx: ['--import', 'tsx', 'src/main.ts'],
  bundle: [API_BUNDLE],
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-start-'));
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  DB_PATH: path.join(dir, 'app.db'),
  RELEASE_STORE_DIR: path.join(dir, 'releases'),
  DEPLOY_DIR: path.join(dir, 'deploy'),
  LOG_LEVEL: 'error',
  RATE_LIMITS: 'off',
};

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const rssMiB = (pid) => {
  const kib = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kib / 1024;
};

async function readyAfter(url, child, started) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) throw new Error(`${url} not ready within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function load(base) {
  const paths = ['/api/posts?limit=10', '/api/posts/tags', '/api/posts/1'];
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const response = await fetch(base + paths[i % paths.length]);
      await response.arrayBuffer();
      if (response.status !== 200) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (failed > 0) throw new Error(`${failed} of ${REQUESTS} requests failed`);
}

async function run(mode) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, MODES[mode], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...env, PORT: String(port) },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const base = `http://127.0.0.1:${port}`;
    const startMs = await readyAfter(`${base}/api/health/ready`, child, started);
    const rssStart = rssMiB(child.pid);
    await load(base);
    const rssLoaded = rssMiB(child.pid);
    return { startMs, rssStart, rssLoaded };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const span = (values, digits) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

await buildApi();
// One start that migrates and seeds the database first, so every measured start finds it ready.
await run('bundle');
const results = {};
for (let i = 0; i < RUNS; i++) {
  // Alternated, so neither mode always runs on a warmer machine.
  for (const mode of Object.keys(MODES)) {
    results[mode] ??= [];
    results[mode].push(await run(mode));
  }
}
fs.rmSync(dir, { recursive: true, force: true });

console.log(`API start-up and memory, ${RUNS} runs each: median (min–max); Node ${process.version}`);
console.log(
  '| how it runs | start-up → ready (ms) | RSS when ready (MiB) | RSS after 1,000 requests (MiB) |',
);
console.log('|---|---|---|---|');
for (const [mode, rows] of Object.entries(results)) {
  const label = mode === 'tsx' ? '`node --import tsx src/main.ts`' : '`node dist/main.mjs`';
  console.log(
    `| ${label} | ${span(
      rows.map((r) => r.startMs),
      0,
    )} | ${span(
      rows.map((r) => r.rssStart),
      1,
    )} | ${span(
      rows.map((r) => r.rssLoaded),
      1,
    )} |`,
  );
}
