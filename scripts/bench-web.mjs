// `pnpm bench:web`: first-visit speed of the product per route, and (issue 30) whether a canary or preview
// visitor is first shown another version than the one they get. It starts the topology it measures and stops
// it at the end (also on failure or Ctrl+C), prints tables and writes bench-results/web-<topology>-<time>.json
// (`external` for --base-url). Numbers are benchmarks, not tests: run it on a quiet machine.
// It runs under tsx (package.json's bench:web), for the workspace's TypeScript packages (@app/federation's findRoute).
//
//   pnpm bench:web [--topology single|cluster] [--root <checkout>] [--base-url <url>] [--runs 5] [--desktop]
//                  [--routes /,/about,/post/:id] [--no-lighthouse] [--no-skew] [--skew-visitors 40]
//                  [--wait-ports <seconds>]
//
// Options
//   --topology single   (default) `node --import tsx scripts/start.mjs` with ROLLOUT_FOLLOW_BUILDS=1: pages on
//                       http://localhost:3000, remotes 3001-3004, API 4000. Fails at once when something already
//                       listens on one of those ports (see --wait-ports, --base-url).
//   --topology cluster  startCluster() of scripts/cluster/cluster.mjs (nginx, two API instances on a fresh
//                       PostgreSQL, and two edge instances where the checkout's cluster has them) on ports of
//                       the bench's own: nginx http://localhost:8380, API 4381-4382, edge 3381-3382, PostgreSQL
//                       5438 (scripts/bench/topology.mjs). A checkout whose cluster has no edge is measured as
//                       it serves its pages (nginx's index.html).
//   A started topology gets a release store, deployment and database of the run's own in a temporary folder
//   (removed after a successful run, kept with its logs after a failure), never the checkout's releases/,
//   deploy/ or data/; the API's per-address limits on health reports and anonymous writes are raised (every
//   browser here is one address). Its output goes to <that folder>/<topology>.log.
//   --root <dir>        run the topology from another checkout of this repository (e.g. a `git worktree` of an
//                       older commit with its own `pnpm install` and `pnpm build`): its scripts/start.mjs or
//                       scripts/cluster/cluster.mjs, its builds, its `pnpm release` / `pnpm rollout`; "before"
//                       and "after" measured by the same bench on the same machine in the same hour. Default:
//                       this checkout. E.g. `git worktree add /tmp/before 378cb63` (main before the edge), then
//                       `cd /tmp/before && pnpm install --frozen-lockfile && pnpm build`.
//   --base-url <url>    measure a product that is already running there; the bench starts and stops nothing.
//                       The skew run then acts on the store and deployment RELEASE_STORE_DIR / DEPLOY_DIR name
//                       (else <root>/releases and <root>/deploy, as `pnpm start`) and needs mf-public-pages
//                       without a canary.
//   --wait-ports <s>    single topology: wait up to s seconds for 3000-3004/4000 to be free instead of failing.
//   --runs N            Lighthouse runs per route and form factor (default 5); each figure is the median.
//   --desktop           Lighthouse desktop runs too (mobile only by default, to keep a run short).
//   --no-lighthouse     cold loads only (bytes, requests, depth).
//   --routes a,b        default /, /about, /research-center, /login, /register, /post/:id, where `:id` becomes
//                       the newest public post (GET <apiBaseUrl>/api/posts?status=published&visibility=public&
//                       limit=1, apiBaseUrl from the served /config.json).
//   --no-skew           skip the skew run; --skew-visitors N: fresh browsers per case (default 40).
//
// Per route (the remote a route needs comes from the route table, findRoute of @app/federation; its code is
// every URL under /releases/<remote>/, or /remotes/<remote>/ or its own port when no deployment is used):
//
// The cold load (scripts/bench/cold-load.mjs; one per route; a fresh browser context, cache disabled, and
// 250 ms of latency added to every request through CDP network emulation; the latency must exceed the time
// the page's main thread takes to issue one burst of requests (about 80 ms for the shell's 16 chunks here),
// or early requests of a burst end before later ones start and the burst is counted as several round trips):
// - requests: every request the page makes until the network is idle for 500 ms (data: URLs excluded),
//   including API calls, by origin.
// - bytes: every GET JS, CSS and JSON response that is not the API's is requested again from Node with
//   `Accept-Encoding: gzip` and then `br`; the columns are the sums of the response bodies as sent
//   (compressed, headers excluded). The JSON also holds CDP's encodedDataLength per origin (what Chromium
//   actually received, headers included, whatever it negotiated), API calls included. The API is its own
//   origin (single) or /api/ on the page's origin (cluster).
// - depth: from CDP timestamps (Network.requestWillBeSent for the start, Network.loadingFinished for the
//   end), the same data as Resource Timing's startTime/responseEnd. The HTML has depth 0; any other
//   request has depth 1 + the largest depth among the requests that had finished before it started.
//   `depth` is the depth of the route's remote's first request minus 1: the number of sequential round
//   trips after the HTML before anything of the remote is requested (HTML -> main.js -> chunks ->
//   config.json -> mf-manifest.json gives 3). `js` is the same for the remote's first JS file: the serial
//   round trips after the HTML before the remote's code (0 when the HTML preloads it). The chain (one
//   predecessor per step, the latest to finish) is printed under the table. A request that merely happened
//   to finish earlier counts as a predecessor (timing cannot tell), so the figure is an upper bound; the
//   printed chain shows what it rests on. (CDP initiators cannot replace it: every chunk and manifest
//   request is issued by the federation runtime in main.js, whatever response it waited for.)
//
// Lighthouse 12 (scripts/bench/lighthouse.mjs): the `lighthouse` npm package's Node API against the Chromium
// chrome-launcher starts (CHROMIUM_PATH or /usr/bin/chromium, e2e/support/chromium.mjs; CHROME_PATH alone too;
// flags + --headless=new); mobile = the default config (simulated slow 4G, Moto G Power), desktop = its
// desktop config. Categories performance (perf, LCP, TBT, CLS), accessibility, best-practices, SEO. The
// bf-cache audit and the full-page screenshot are skipped (weight 0: no score changes) to keep a run near
// 7 s. Lighthouse resets the origin's storage (cookies included) before each run: every run is a new visitor.
//
// The skew run (scripts/bench/skew.mjs; after Lighthouse, which it would disturb): a variant build of
// mf-public-pages whose Home and About h1 texts start with "Variant: " (a copy of the checkout's
// mf-public-pages/dist, the text replaced in every .js, in prerender.json and in server-render.mjs), released
// with `pnpm release mf-public-pages --dist <dir>` in the measured checkout against the topology's store and
// deployment. Two cases, `--skew-visitors` fresh Playwright browser contexts each (Debian's Chromium), each
// opening /about then /:
//   canary 50 %  `pnpm rollout start mf-public-pages <variant> --percent 50` (then aborted);
//   preview      the link of `pnpm rollout preview mf-public-pages <variant> --hours 1`, its token opened on
//                each route's path (<route>?preview=<token>).
// Per page view: the first screen is the h1 of the region (data-prerendered-region) in the document's
// response body as the server sent it (after a redirect, the page's); the live page is
// getByRole('heading', { level: 1 }) once the network is idle (the pre-rendered picture is aria-hidden). A
// page view is skewed when both exist and one is the variant and the other not. Printed per case:
// `skew (canary 50 %): N of <page views> page views painted another version first`, how many visitors got the
// variant live (about half for the canary, all for the preview), how many page views fell back (a health
// report of a canary/preview load failure or render error, or the shell's "loading the stable version"
// warning), and how many had no first screen. The canary is aborted at the end, also on failure.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findRoute } from '@app/federation';
import { packageOf } from '@app/rollout';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from 'e2e/chromium';
import puppeteer from 'puppeteer-core';
import { ROOT } from './apps.mjs';
import { apiMatcher, coldLoad, LATENCY_MS } from './bench/cold-load.mjs';
import { lighthouseRun, medians } from './bench/lighthouse.mjs';
import { SKEW_REMOTE, SKEW_ROUTES, skewLines, skewRun } from './bench/skew.mjs';
import { startTopology, waitForSinglePorts } from './bench/topology.mjs';

const DEFAULT_ROUTES = ['/', '/about', '/research-center', '/login', '/register', '/post/:id'];

const USAGE =
  'pnpm bench:web [--topology single|cluster] [--root <checkout>] [--base-url URL] [--runs 5] [--desktop]\n' +
  '               [--routes /,/about,/post/:id] [--no-lighthouse] [--no-skew] [--skew-visitors 40] [--wait-ports S]\n' +
  '(the options are described at the top of scripts/bench-web.mjs)';

let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      topology: { type: 'string', default: 'single' },
      root: { type: 'string' },
      'base-url': { type: 'string' },
      runs: { type: 'string', default: '5' },
      desktop: { type: 'boolean', default: false },
      routes: { type: 'string' },
      'no-lighthouse': { type: 'boolean', default: false },
      skew: { type: 'boolean', default: true },
      'no-skew': { type: 'boolean', default: false },
      'skew-visitors': { type: 'string', default: '40' },
      'wait-ports': { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const wholeNumber = (name, min) => {
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < min)
    fail(`--${name} must be a whole number of at least ${min}, not ${opts[name]}`);
  return n;
};
const RUNS = wholeNumber('runs', 1);
const SKEW_VISITORS = wholeNumber('skew-visitors', 1);
const WAIT_PORTS = wholeNumber('wait-ports', 0);
const TOPOLOGY = opts.topology;
if (!['single', 'cluster'].includes(TOPOLOGY)) fail(`--topology is single or cluster, not ${TOPOLOGY}`);
const LIGHTHOUSE = !opts['no-lighthouse'];
const SKEW = opts.skew && !opts['no-skew'];
const FORMS = opts.desktop ? ['mobile', 'desktop'] : ['mobile'];
const CHECKOUT = path.resolve(opts.root ?? ROOT);
if (!fs.existsSync(path.join(CHECKOUT, 'scripts', 'start.mjs')))
  fail(`${CHECKOUT} is not a checkout of this repository`);
const log = (line) => process.stderr.write(`${line}\n`);
// What must be undone when the bench is interrupted (Ctrl+C, SIGTERM) before it gets there itself: the
// Lighthouse Chromium, a running canary; the topology is stopped after them.
const closers = new Set();

function fail(message) {
  console.error(`bench:web: ${message}`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------- set-up

async function getJson(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

async function resolveRoutes(config) {
  const wanted = opts.routes ? opts.routes.split(',').map((r) => r.trim()) : DEFAULT_ROUTES;
  const routes = [];
  for (const route of wanted) {
    if (!route.startsWith('/')) throw new Error(`a route starts with /: ${route}`);
    if (route !== '/post/:id' && route !== '/post') {
      routes.push(route);
      continue;
    }
    // packages/contracts PostListSchema: an array of posts with a numeric `id`; /post/:id takes id or slug.
    const api = config.apiBaseUrl?.replace(/\/$/, '');
    try {
      const posts = await getJson(`${api}/api/posts?status=published&visibility=public&limit=1`);
      const post = Array.isArray(posts) ? posts.find((p) => p.visibility === 'public') : undefined;
      if (!post) throw new Error('no public post');
      routes.push(`/post/${post.id}`);
    } catch (error) {
      log(`skipping /post/:id: ${error.message}`);
    }
  }
  return routes;
}

/** What the served pages are: with a first screen per visitor (the edge: region with data-version), one
 * for everybody (the region without a version), or none (a plain index.html). */
async function pageKind(base) {
  const html = await fetch(`${base}/about`)
    .then((r) => r.text())
    .catch(() => '');
  if (/data-prerendered-region="[^"]*" data-version=/.test(html)) return 'a first screen per visitor (edge)';
  if (html.includes('data-prerendered-region=')) return "the stable release's first screen";
  return 'no first screen';
}

function gitState(dir) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    return {
      dir,
      commit: git('rev-parse', 'HEAD'),
      subject: git('log', '-1', '--format=%s').slice(0, 100),
      dirty: git('status', '--porcelain') !== '',
    };
  } catch {
    return { dir };
  }
}

// ------------------------------------------------------------------------------------------------ table

function printTable(results) {
  const kib = (b) => (b / 1024).toFixed(1);
  const net = ['JS gz KiB', 'JS br KiB', 'reqs', 'depth', 'js'];
  const head = LIGHTHOUSE
    ? ['route', 'form', 'perf', 'LCP s', 'TBT ms', 'CLS', 'a11y', 'BP', 'SEO', ...net]
    : ['route', ...net];
  const rows = [];
  for (const r of results) {
    const cells = [
      kib(r.load.totals.js.gzip),
      kib(r.load.totals.js.br),
      String(r.load.requests),
      r.load.depth === null ? '-' : String(r.load.depth),
      r.load.depthJs === null ? '-' : String(r.load.depthJs),
    ];
    if (!LIGHTHOUSE) {
      rows.push([r.route, ...cells]);
      continue;
    }
    for (const form of FORMS) {
      const m = r.lighthouse[form].median;
      const n = (x, digits = 0) => (x === null ? '-' : x.toFixed(digits));
      rows.push([
        r.route,
        form,
        n(m.perf),
        m.lcp === null ? '-' : (m.lcp / 1000).toFixed(2),
        n(m.tbt),
        n(m.cls, 3),
        n(m.a11y),
        n(m.bp),
        n(m.seo),
        ...cells,
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const textColumns = LIGHTHOUSE ? 2 : 1;
  const line = (cells) =>
    cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log(
    `\n${LIGHTHOUSE ? `Lighthouse 12 ${RUNS > 1 ? `median of ${RUNS} runs` : '1 run'}; ` : ''}` +
      'JS = every JS file of the cold load, requested again with Accept-Encoding gzip / br (body bytes); ' +
      "reqs = all requests incl. API;\ndepth / js = round trips after the HTML before the route's remote's first request / first JS file.",
  );
  for (const r of results) {
    const byApp = Object.entries(r.load.byApp)
      .filter(([, v]) => v.js)
      .map(([app, v]) => `${app} ${kib(v.js.gzip)}`)
      .join(' + ');
    console.log(`${r.route.padEnd(widths[0])}  JS gz by app: ${byApp}`);
    console.log(
      `${''.padEnd(widths[0])}  chain: ${r.load.chain.join(' -> ') || `(no request of ${r.remote ?? 'a remote'})`}`,
    );
  }
}

// ------------------------------------------------------------------------------------------------- main

async function measure(topology, runDir) {
  const began = Date.now();
  const BASE = topology.baseUrl.replace(/\/$/, '');
  let config;
  try {
    config = await getJson(`${BASE}/config.json`);
  } catch (error) {
    throw new Error(`nothing usable answers on ${BASE} (${error.message})`);
  }
  const deployment = await getJson(`${BASE}/deployment.json`).catch(() => null);
  // Which shell build answered (a --base-url server may serve another checkout than this one).
  const shellMain = await fetch(`${BASE}/main.js`)
    .then(async (r) =>
      r.ok
        ? createHash('sha256')
            .update(Buffer.from(await r.arrayBuffer()))
            .digest('hex')
            .slice(0, 12)
        : null,
    )
    .catch(() => null);
  const pages = await pageKind(BASE);
  const isApi = apiMatcher(config.apiBaseUrl, new URL(BASE).origin);
  const routes = await resolveRoutes(config);
  const served = gitState(topology.root);
  log(
    `measuring ${topology.kind} at ${BASE}: ${served.dir} ${served.commit?.slice(0, 7) ?? ''}${served.dirty ? ' (dirty)' : ''}; pages: ${pages}`,
  );

  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
    logLevel: 'silent',
  });
  const killChrome = () => chrome.kill();
  closers.add(killChrome);
  const results = [];
  let chromium;
  try {
    const browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    });
    chromium = await browser.version();
    for (const route of routes) {
      const owner = findRoute(route)?.remote;
      const remote = owner ? packageOf(owner) : null;
      const load = await coldLoad(browser, `${BASE}${route}`, remote, isApi, BASE);
      log(
        `${route}: ${load.requests} requests, depth ${load.depth ?? '-'}/${load.depthJs ?? '-'} (${load.loadMs} ms)`,
      );
      results.push({ route, remote, load });
    }
    await browser.disconnect();

    if (LIGHTHOUSE) {
      for (const r of results) {
        r.lighthouse = {};
        for (const form of FORMS) {
          const runs = [];
          for (let i = 0; i < RUNS; i++) {
            const t = Date.now();
            const last = await lighthouseRun(`${BASE}${r.route}`, chrome.port, form, log);
            runs.push(last);
            log(
              `${r.route} ${form} ${i + 1}/${RUNS}: perf ${last.perf}, LCP ${Math.round(last.lcp)} ms, ` +
                `TBT ${Math.round(last.tbt)} ms, CLS ${last.cls?.toFixed(3)} (${((Date.now() - t) / 1000).toFixed(1)} s)`,
            );
          }
          r.lighthouse[form] = {
            median: medians(runs),
            runs,
            failingAudits: [...new Set(runs.flatMap((x) => x.failing))],
          };
        }
      }
    }
  } finally {
    closers.delete(killChrome);
    await chrome.kill();
  }

  const skew = SKEW ? await skewRun({ topology, visitors: SKEW_VISITORS, runDir, log, closers }) : null;

  const seconds = Math.round((Date.now() - began) / 1000);
  console.log(
    `\n${topology.kind} topology at ${BASE}, ${served.dir} ${served.commit?.slice(0, 7) ?? ''}: pages with ${pages}\n`,
  );
  printTable(results);
  const failing = results.flatMap((r) =>
    Object.entries(r.lighthouse ?? {}).flatMap(([form, v]) =>
      v.failingAudits.length ? [`${r.route} ${form}: ${v.failingAudits.join(', ')}`] : [],
    ),
  );
  if (failing.length) console.log(`\nAudits below 100 in a11y/BP/SEO:\n  ${failing.join('\n  ')}`);
  if (skew) console.log(`\n${skewLines(skew).join('\n')}`);

  const outDir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(
    outDir,
    `web-${topology.kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  const { version: lighthouseVersion } = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
  );
  const report = {
    date: new Date().toISOString(),
    seconds,
    baseUrl: BASE,
    topology: { kind: topology.kind, started: topology.started, cluster: topology.cluster ?? null },
    options: {
      runs: RUNS,
      forms: LIGHTHOUSE ? FORMS : [],
      routes,
      lighthouse: LIGHTHOUSE,
      latencyMs: LATENCY_MS,
      skew: SKEW ? { visitors: SKEW_VISITORS, remote: SKEW_REMOTE, routes: SKEW_ROUTES } : false,
    },
    environment: {
      node: process.version,
      chromium,
      lighthouse: lighthouseVersion,
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
    },
    // The bench's checkout, and the one the topology ran from (or `--root` beside a --base-url server).
    checkout: gitState(ROOT),
    served: { checkout: served, pages, shellMainJsSha256: shellMain, deployment },
    results,
    skew,
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\n${path.relative(ROOT, file)} written; ${Math.floor(seconds / 60)} min ${seconds % 60} s in all`,
  );
}

async function main() {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-web-'));
  // nginx's workers (another user) read the run's release store.
  fs.chmodSync(runDir, 0o755);
  const baseUrl = opts['base-url']?.replace(/\/$/, '');
  if (!baseUrl && TOPOLOGY === 'single' && WAIT_PORTS > 0) await waitForSinglePorts(WAIT_PORTS, log);
  let topology = null;
  let stopping = null;
  let interrupted = false;
  const stop = () => {
    stopping ??= (topology?.stop() ?? Promise.resolve()).catch((error) => log(`stopping: ${error.message}`));
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, async () => {
      interrupted = true;
      log(`${signal}: stopping what the bench started`);
      await Promise.all(
        [...closers].map((close) =>
          Promise.resolve()
            .then(close)
            .catch(() => {}),
        ),
      );
      await stop();
      log(`the run's folder (logs, store, deployment) is kept: ${runDir}`);
      process.exit(130);
    });
  }
  let ok = false;
  try {
    topology = await startTopology({ kind: TOPOLOGY, root: CHECKOUT, runDir, baseUrl, log });
    await measure(topology, runDir);
    ok = true;
  } finally {
    await stop();
    if (ok || fs.readdirSync(runDir).length === 0) fs.rmSync(runDir, { recursive: true, force: true });
    else if (!interrupted) log(`the run's folder (logs, store, deployment) is kept: ${runDir}`);
  }
}

main().then(
  // Whatever a library may still hold open (a socket, a timer), the bench is done.
  () => process.exit(0),
  (error) => {
    // What the bench says itself is enough; a bug in it (TypeError, …) gets its stack.
    const bug = error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError;
    console.error(`bench:web: ${bug ? error.stack : (error?.message ?? error)}`);
    process.exit(1);
  },
);
