// `pnpm bench:render`: what isolating a release's server renderer costs (issue 44, decision 0036), in one run
// on one machine. Numbers, not tests: run it on a quiet machine.
//
//   pnpm bench:render [--renders 300] [--duration 10] [--connections 8] [--before <checkout>]
//
// 1. Render latency and renders/s of mf-research's own build (its server-render.mjs) for Explore
//    (/research-center, the seeded demo's first 50 cards) and a post page, from the same answers:
//    - in-process: the renderer imported into this process and called directly, with a jsdom window, as the
//      edge did before issue 44;
//    - sandboxed: the same renderer in its release's worker (RenderPool, the edge's limits), the region
//      cleaned as the edge does: the whole cost of isolation per render.
// 2. Pages/s of the edge itself (dist/main.mjs, autocannon) for /research-center against a stand-in API that
//    answers the same 50 cards: `cached` (the same answers every time: one render, then the edge's cache) and
//    `rendered` (a field changes per request: a render per page). With --before <checkout> (a git worktree
//    of an older commit, `pnpm install` and `node services/edge/build.mjs` done there), that checkout's edge is
//    measured the same way right after, on the same port: today's in-process edge against this one.
// The answers come from the real API on a temporary SQLite database with the demo content.
// Writes bench-results/render-<time>.json.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanRegionHtml, DEFAULT_LIMITS, edgeEnvironment, RenderPool } from '@app/edge';
import { buildEdge, EDGE_BUNDLE, RENDER_WORKER_BUNDLE } from '@app/edge/build';
import autocannon from 'autocannon';
import { startApi } from './api-process.mjs';
import { ROOT } from './apps.mjs';

const { values: args } = parseArgs({
  options: {
    renders: { type: 'string', default: '300' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '8' },
    before: { type: 'string' },
  },
});
const RENDERS = Number(args.renders);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const RESEARCH_DIST = path.join(ROOT, 'mf-research', 'dist');
const RENDERER = path.join(RESEARCH_DIST, 'server-render.mjs');
const SHELL_DIST = path.join(ROOT, 'shell', 'dist');
for (const file of [RENDERER, path.join(SHELL_DIST, 'index.html')]) {
  if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run pnpm build first`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const round = (n, digits = 1) => Number(n.toFixed(digits));

/** The answers the edge would fetch for a path, as it hands them to a renderer: { [key]: { body, headers } }. */
async function answersFor(apiBase, keys) {
  const primed = {};
  for (const key of keys) {
    const response = await fetch(new URL(key, apiBase), { headers: { 'Sec-Purpose': 'prefetch' } });
    if (response.status !== 200) continue;
    const headers = Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('x-next-')));
    primed[key] = { body: await response.json(), headers };
  }
  return primed;
}

/** Times `render()` `count` times after a warm-up: latency percentiles (ms) and renders per second. */
async function measure(count, render) {
  for (let i = 0; i < 20; i += 1) await render(i);
  const times = [];
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const at = performance.now();
    await render(i);
    times.push(performance.now() - at);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    p50: round(percentile(times, 0.5), 2),
    p95: round(percentile(times, 0.95), 2),
    max: round(times.at(-1), 2),
    perSecond: round(count / seconds),
  };
}

/** A stand-in API for the edge: its deployment feed names one mf-research release; Explore's answers. */
function standInApi({ version, integrity, primed, vary }) {
  let served = 0;
  const manifest = {
    schemaVersion: 1,
    environment: 'production',
    revision: 1,
    updatedAt: new Date().toISOString(),
    remotes: { 'mf-research': { stable: version, previous: [], integrity: { [version]: integrity } } },
  };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/api/deployment/')) {
      // A long poll that never changes: the first answer at once, then hold on (the edge asks again).
      if (url.includes('after=')) return setTimeout(() => res.writeHead(204).end(), 20_000).unref();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ environment: 'production', revision: 1, updatedAt: null, manifest }));
    }
    const answer = primed[url];
    if (!answer)
      return res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"Not found"}');
    let body = answer.body;
    if (vary.value && Array.isArray(body)) {
      // Another view count on the first card: new answers, so the edge renders again.
      served += 1;
      body = [{ ...body[0], views: served }, ...body.slice(1)];
    }
    res.writeHead(200, { 'Content-Type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitFor(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = await fetch(url)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** One edge bundle serving the release from the stand-in API; autocannon on /research-center, both modes. */
async function edgePages(bundle, { apiUrl, store, vary, label }) {
  const port = 3391;
  const child = spawn(process.execPath, [bundle], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...edgeEnvironment(process.env),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      SHELL_DIST,
      SHELL_CONFIG: path.join(work, 'config.json'),
      RELEASE_STORE_DIR: store,
      DEPLOY_DIR: path.join(work, `deploy-${label}`),
      API_URL: apiUrl,
      EDGE_SECRET: 'a-bench-edge-secret-of-enough-length',
      // An edge from before issue 44 read its preview secret from here; today's reads nothing of it.
      ROLLOUT_PREVIEW_SECRET: 'a-bench-preview-secret-of-enough-length',
      NEW_VISITORS_PER_ADDRESS: '1000000/1h',
    },
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/_edge/ready`, 30_000);
    const page = await (await fetch(`http://127.0.0.1:${port}/research-center`)).text();
    if (!page.includes('data-primed-responses'))
      throw new Error(`${label}: the page was not rendered per request`);
    const result = {};
    for (const mode of ['cached', 'rendered']) {
      vary.value = mode === 'rendered';
      const run = await autocannon({
        url: `http://127.0.0.1:${port}/research-center`,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: { Cookie: 'visitor=' },
      });
      result[mode] = {
        pagesPerSecond: round(run.requests.average),
        p50: run.latency.p50,
        p99: run.latency.p99,
        errors: run.errors + run.non2xx,
      };
    }
    vary.value = false;
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main() {
  await buildEdge();
  // The demo's answers, from the real API.
  const apiPort = 4591;
  const api = await startApi({
    port: apiPort,
    host: '127.0.0.1',
    quiet: true,
    env: {
      DB_PATH: path.join(work, 'bench.db'),
      RELEASE_STORE_DIR: path.join(work, 'api-releases'),
      DEPLOY_DIR: path.join(work, 'api-deploy'),
    },
  });
  const apiBase = `http://127.0.0.1:${apiPort}`;
  const renderer = await import(RENDERER);
  const post = (
    await (await fetch(`${apiBase}/api/posts?status=published&visibility=public&limit=1`)).json()
  )[0];
  const paths = ['/research-center', `/post/${post.id}`];
  const primedOf = {};
  for (const route of paths) primedOf[route] = await answersFor(apiBase, renderer.serverRequests(route));
  api.kill('SIGTERM');

  // 1. Render latency: in-process (before issue 44) and sandboxed (now).
  const { JSDOM } = await import('jsdom');
  const window = new JSDOM('<!doctype html><html><head></head><body></body></html>').window;
  const release = { remote: 'mf-research', version: 'bench', folder: RESEARCH_DIST, rendererFile: RENDERER };
  const pool = new RenderPool({
    workerScript: RENDER_WORKER_BUNDLE,
    limits: DEFAULT_LIMITS,
    timeoutMs: 5000,
    startTimeoutMs: 30_000,
    maxWorkers: 2,
    idleMs: 600_000,
  });
  pool.prewarm(release);
  await pool.settled();
  const renders = {};
  for (const route of paths) {
    const primed = primedOf[route];
    const label = route.startsWith('/post/') ? '/post/:id' : route;
    renders[label] = {
      inProcess: await measure(RENDERS, () => renderer.renderPage(route, primed, { window })),
      sandboxed: await measure(RENDERS, async () => {
        const result = await pool.call(release, { op: 'render', path: route, primed }, 5000);
        if (result.status !== 'ok') throw new Error(`${route}: ${result.reason}`);
        cleanRegionHtml(result.value.html);
      }),
      bytes: JSON.stringify(primed).length,
    };
  }
  pool.close();

  // 2. The edge's pages per second, this checkout's and (optionally) an older one's.
  const version = '1.0.0-0123456789';
  const store = path.join(work, 'releases');
  const folder = path.join(store, 'mf-research', version);
  fs.mkdirSync(path.dirname(folder), { recursive: true });
  fs.cpSync(RESEARCH_DIST, folder, { recursive: true });
  const { createHash } = await import('node:crypto');
  const integrity = `sha384-${createHash('sha384')
    .update(fs.readFileSync(path.join(folder, 'remoteEntry.js')))
    .digest('base64')}`;
  fs.writeFileSync(
    path.join(folder, 'release.json'),
    JSON.stringify({ remote: 'mf-research', version, entryIntegrity: integrity }),
  );
  const vary = { value: false };
  const fake = await standInApi({ version, integrity, primed: primedOf['/research-center'], vary });
  const fakeUrl = `http://127.0.0.1:${fake.address().port}`;
  const config = JSON.parse(fs.readFileSync(path.join(SHELL_DIST, 'config.json'), 'utf8'));
  fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify({ ...config, apiBaseUrl: fakeUrl }));
  const pages = { now: await edgePages(EDGE_BUNDLE, { apiUrl: fakeUrl, store, vary, label: 'now' }) };
  if (args.before) {
    const bundle = path.join(path.resolve(args.before), 'services', 'edge', 'dist', 'main.mjs');
    pages.before = await edgePages(bundle, { apiUrl: fakeUrl, store, vary, label: 'before' });
  }
  fake.close();

  console.log(
    `\nRender of mf-research's own build, ${RENDERS} renders each after 20 warm-up (ms; renders/s, one at a time)`,
  );
  console.log(
    '| path | answers (bytes) | in-process p50 / p95 | sandboxed p50 / p95 | in-process /s | sandboxed /s |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [route, r] of Object.entries(renders)) {
    console.log(
      `| ${route} | ${r.bytes} | ${r.inProcess.p50} / ${r.inProcess.p95} | ${r.sandboxed.p50} / ${r.sandboxed.p95} | ${r.inProcess.perSecond} | ${r.sandboxed.perSecond} |`,
    );
  }
  console.log(
    `\nEdge pages/s on /research-center, autocannon ${CONNECTIONS} connections for ${DURATION} s (p50 / p99 ms)`,
  );
  console.log(
    '| edge | cached: pages/s | cached: p50 / p99 | a render per page: pages/s | rendered: p50 / p99 | errors |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [label, p] of Object.entries(pages)) {
    console.log(
      `| ${label} | ${p.cached.pagesPerSecond} | ${p.cached.p50} / ${p.cached.p99} | ${p.rendered.pagesPerSecond} | ${p.rendered.p50} / ${p.rendered.p99} | ${p.cached.errors + p.rendered.errors} |`,
    );
  }
  const out = path.join(
    ROOT,
    'bench-results',
    `render-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify({ at: new Date().toISOString(), cpus: os.cpus().length, renders, pages }, null, 2),
  );
  console.log(`\n${path.relative(ROOT, out)}`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
