// `pnpm bench:web`: first-visit speed of the product as `pnpm start` serves it (start it first). For each
// route: bytes on the wire, request count and serial depth from one cold load in Debian's Chromium, then
// Lighthouse 12 at mobile (default settings) and desktop (`--preset=desktop`) sizes, median of N runs.
// Prints one table and writes bench-results/web-<timestamp>.json. Numbers are benchmarks, not tests.
//
//   pnpm bench:web [--runs 3] [--routes /,/about,/post/:id] [--no-lighthouse] [--base-url http://localhost:3000]
//
// Routes: default /, /about, /research-center, /login, /register and /post/:id, where `:id` becomes the id of
// the newest public post (GET <apiBaseUrl>/api/posts?status=published&visibility=public&limit=1, apiBaseUrl
// from the shell's /config.json). The remote a route needs comes from the shell's own route table
// (findRoute; the script runs under tsx for it); its code is every URL under /releases/<remote>/ (or on its own port when no deployment is used).
//
// The cold load (one per route; a fresh browser context, cache disabled, and 250 ms of latency added to every
// request through CDP network emulation; the latency must exceed the time the page's main thread takes to
// issue one burst of requests (about 80 ms for the shell's 16 chunks here), or early requests of a burst end
// before later ones start and the burst is counted as several round trips):
// - requests: every request the page makes until the network is idle for 500 ms (data: URLs excluded),
//   including API calls, by origin.
// - bytes: every GET JS, CSS and JSON response from the front-end origins (everything but the API) is
//   requested again from Node with `Accept-Encoding: gzip` and then `br`; the columns are the sums of the
//   response bodies as sent (compressed, headers excluded). The JSON also holds CDP's encodedDataLength per
//   origin (what Chromium actually received, headers included, whatever it negotiated), API calls included.
// - depth: from CDP timestamps (Network.requestWillBeSent for the start, Network.loadingFinished for the
//   end), the same data as Resource Timing's startTime/responseEnd. The HTML has depth 0; any other
//   request has depth 1 + the largest depth among the requests that had finished before it started.
//   `depth` is the depth of the route's remote's first request minus 1: the number of sequential round
//   trips after the HTML before anything of the remote is requested (HTML -> main.js -> chunks ->
//   config.json -> mf-manifest.json gives 3). `js` is the same for the remote's first JS file. The chain
//   (one predecessor per step, the latest to finish) is printed under the table. A request that merely
//   happened to finish earlier counts as a predecessor (timing cannot tell), so the figure is an upper
//   bound; the printed chain shows what it rests on. (CDP initiators cannot replace it: every chunk and
//   manifest request is issued by the federation runtime in main.js, whatever response it waited for.)
//
// Lighthouse: the `lighthouse` npm package's Node API against the Chromium chrome-launcher starts
// (CHROMIUM_PATH or /usr/bin/chromium, e2e/support/chromium.mjs flags + --headless=new); mobile = the default
// config (simulated slow 4G, Moto G Power), desktop = its desktop config. Categories performance,
// accessibility, best-practices, SEO. The bf-cache audit and the full-page screenshot are skipped (weight 0:
// no score changes) to keep a run near 7 s. Each figure is the median of the runs taken on its own.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageOf } from '@app/rollout';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium.mjs';
import { findRoute } from '../shell/src/routes/route-table.ts';
import { APPS, ROOT, SHELL_URL } from './apps.mjs';

const DEFAULT_ROUTES = ['/', '/about', '/research-center', '/login', '/register', '/post/:id'];
const LATENCY_MS = 250;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    routes: { type: 'string' },
    'no-lighthouse': { type: 'boolean', default: false },
    'base-url': { type: 'string', default: SHELL_URL },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log(
    'pnpm bench:web [--runs N] [--routes /,/about,/post/:id] [--no-lighthouse] [--base-url URL]  (needs pnpm start)',
  );
  process.exit(0);
}
const RUNS = Number(opts.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) fail(`--runs must be a positive whole number, not ${opts.runs}`);
const BASE = opts['base-url'].replace(/\/$/, '');
const log = (line) => process.stderr.write(`${line}\n`);

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
    if (!route.startsWith('/')) fail(`a route starts with /: ${route}`);
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

// ----------------------------------------------------------------------------------------- cold load

const PORT_OWNER = new Map(APPS.map((app) => [String(app.port), app.name]));

/** Which app a URL's bytes belong to: shell, a remote (release path or own port), or the API. */
function ownerOf(url, apiOrigin) {
  const u = new URL(url);
  if (u.origin === apiOrigin) return 'api';
  const release = u.pathname.match(/^\/releases\/([^/]+)\//);
  if (release) return release[1];
  return PORT_OWNER.get(u.port || (u.protocol === 'https:' ? '443' : '80')) ?? u.origin;
}

function kindOf(record) {
  const mime = record.mimeType ?? '';
  if (record.type === 'Script' || /javascript|ecmascript/.test(mime)) return 'js';
  if (record.type === 'Stylesheet' || mime === 'text/css') return 'css';
  if (/json/.test(mime)) return 'json';
  if (record.type === 'Document') return 'html';
  return 'other';
}

const refetchCache = new Map();
/** Body bytes as sent for one Accept-Encoding (not decompressed), and the encoding the server chose. */
function wireSize(url, encoding) {
  const key = `${encoding} ${url}`;
  if (!refetchCache.has(key)) {
    const client = url.startsWith('https:') ? https : http;
    refetchCache.set(
      key,
      new Promise((resolve, reject) => {
        const req = client.get(url, { headers: { 'Accept-Encoding': encoding } }, (res) => {
          let bytes = 0;
          res.on('data', (chunk) => {
            bytes += chunk.length;
          });
          res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
          res.on('error', reject);
        });
        req.setTimeout(10_000, () => req.destroy(new Error(`timeout: ${url}`)));
        req.on('error', reject);
      }),
    );
  }
  return refetchCache.get(key);
}

async function coldLoad(browser, url, remote, apiOrigin) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  const records = new Map();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (/^(data|blob):/.test(e.request.url)) return;
    records.set(e.requestId, {
      url: e.request.url,
      method: e.request.method,
      type: e.type,
      start: e.timestamp,
      initiator: e.initiator?.type,
    });
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = records.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    r.mimeType = e.response.mimeType;
    r.type = e.type;
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    r.contentEncoding = headers['content-encoding'] ?? 'identity';
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = records.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, encodedDataLength: e.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = records.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, failed: e.errorText });
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LATENCY_MS,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 });
  const loadMs = Date.now() - started;
  await context.close();

  const list = [...records.values()].sort((a, b) => a.start - b.start);
  const html = list.find((r) => r.type === 'Document');
  if (!html?.end) throw new Error(`${url}: no HTML response`);

  // Depth: HTML 0; otherwise 1 + the deepest request that had finished before this one started.
  for (const r of list) {
    if (r === html) {
      r.depth = 0;
      continue;
    }
    let parent = html;
    for (const q of list) {
      if (q === r || q.depth === undefined || q.end === undefined || q.end > r.start) continue;
      if (q.depth > parent.depth || (q.depth === parent.depth && q.end > parent.end)) parent = q;
    }
    r.depth = parent.depth + 1;
    r.parent = parent;
  }
  const ofRemote = (r) => remote && ownerOf(r.url, apiOrigin) === remote;
  const firstRemote = list.find(ofRemote);
  const firstRemoteJs = list.find((r) => ofRemote(r) && kindOf(r) === 'js');
  const chainOf = (r) => {
    const chain = [];
    for (let at = r; at; at = at.parent) chain.unshift(at);
    return chain.map((x) => shortUrl(x.url));
  };

  // Bytes: each front-end JS/CSS/JSON GET again, gzip then br.
  const byOrigin = {};
  const byApp = {};
  const files = [];
  const bucket = (holder, key, empty) => {
    if (!holder[key]) holder[key] = empty();
    return holder[key];
  };
  const sizes = () => ({ gzip: 0, br: 0, files: 0 });
  const totals = { js: sizes(), css: sizes(), json: sizes() };
  for (const r of list) {
    const origin = new URL(r.url).origin;
    const o = bucket(byOrigin, origin, () => ({ requests: 0, cdpBytes: 0 }));
    o.requests++;
    o.cdpBytes += r.encodedDataLength ?? 0;
    const kind = kindOf(r);
    if (
      !['js', 'css', 'json'].includes(kind) ||
      r.method !== 'GET' ||
      r.status !== 200 ||
      origin === apiOrigin
    )
      continue;
    const [gz, br] = [await wireSize(r.url, 'gzip'), await wireSize(r.url, 'br')];
    const owner = ownerOf(r.url, apiOrigin);
    for (const sum of [
      totals[kind],
      bucket(o, kind, sizes),
      bucket(
        bucket(byApp, owner, () => ({})),
        kind,
        sizes,
      ),
    ]) {
      sum.gzip += gz.bytes;
      sum.br += br.bytes;
      sum.files++;
    }
    files.push({
      url: r.url,
      kind,
      owner,
      gzip: gz.bytes,
      br: br.bytes,
      brEncoding: br.encoding,
      gzipEncoding: gz.encoding,
      depth: r.depth,
    });
  }
  return {
    url,
    remote,
    loadMs,
    requests: list.length,
    byOrigin,
    byApp,
    totals,
    depth: firstRemote ? firstRemote.depth - 1 : null,
    depthJs: firstRemoteJs ? firstRemoteJs.depth - 1 : null,
    chain: firstRemoteJs ? chainOf(firstRemoteJs) : firstRemote ? chainOf(firstRemote) : [],
    files,
    requestsList: list.map((r) => ({
      url: r.url,
      method: r.method,
      type: r.type,
      status: r.status ?? null,
      startMs: Math.round((r.start - html.start) * 1000),
      endMs: r.end === undefined ? null : Math.round((r.end - html.start) * 1000),
      depth: r.depth,
      encoding: r.contentEncoding ?? null,
      encodedDataLength: r.encodedDataLength ?? null,
      failed: r.failed,
    })),
  };
}

function shortUrl(url) {
  const u = new URL(url);
  const release = u.pathname.match(/^\/releases\/([^/]+)\/[^/]+\/(.*)$/);
  if (release) return `${release[1]}/${release[2]}`;
  return `${u.origin === BASE ? '' : `:${u.port}`}${u.pathname}${u.search}`;
}

// -------------------------------------------------------------------------------------------- Lighthouse

// Lighthouse now and then loses the trace of a load (NO_NAVSTART): a broken measurement, not a slow page.
const TRANSIENT_LIGHTHOUSE_ERRORS = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'PROTOCOL_TIMEOUT']);

async function lighthouseRun(url, port, preset, attempt = 1) {
  try {
    return await lighthouseOnce(url, port, preset);
  } catch (error) {
    if (attempt >= 3 || !TRANSIENT_LIGHTHOUSE_ERRORS.has(error.code)) throw error;
    log(`${url} ${preset}: ${error.code}, measuring again`);
    return lighthouseRun(url, port, preset, attempt + 1);
  }
}

async function lighthouseOnce(url, port, preset) {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      skipAudits: ['bf-cache'],
      disableFullPageScreenshot: true,
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  const { categories, audits, runWarnings, runtimeError } = result.lhr;
  if (runtimeError) {
    throw Object.assign(new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`), {
      code: runtimeError.code,
    });
  }
  const score = (id) => (categories[id]?.score == null ? null : Math.round(categories[id].score * 100));
  const failing = [];
  for (const id of CATEGORIES.slice(1))
    for (const ref of categories[id]?.auditRefs ?? [])
      if (ref.weight > 0 && audits[ref.id]?.score !== null && audits[ref.id]?.score < 1)
        failing.push(`${id}:${ref.id}`);
  return {
    perf: score('performance'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
    fcp: audits['first-contentful-paint']?.numericValue,
    lcp: audits['largest-contentful-paint']?.numericValue,
    tbt: audits['total-blocking-time']?.numericValue,
    cls: audits['cumulative-layout-shift']?.numericValue,
    si: audits['speed-index']?.numericValue,
    failing,
    warnings: runWarnings,
  };
}

function median(values) {
  const v = values.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// ------------------------------------------------------------------------------------------------ table

function printTable(results, withLighthouse) {
  const kib = (b) => (b / 1024).toFixed(1);
  const head = withLighthouse
    ? [
        'route',
        'form',
        'perf',
        'LCP s',
        'TBT ms',
        'CLS',
        'a11y',
        'BP',
        'SEO',
        'JS gz KiB',
        'JS br KiB',
        'reqs',
        'depth',
        'js',
      ]
    : ['route', 'JS gz KiB', 'JS br KiB', 'reqs', 'depth', 'js'];
  const rows = [];
  for (const r of results) {
    const net = [
      kib(r.load.totals.js.gzip),
      kib(r.load.totals.js.br),
      String(r.load.requests),
      r.load.depth === null ? '-' : String(r.load.depth),
      r.load.depthJs === null ? '-' : String(r.load.depthJs),
    ];
    if (!withLighthouse) {
      rows.push([r.route, ...net]);
      continue;
    }
    for (const form of ['mobile', 'desktop']) {
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
        ...net,
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i < (withLighthouse ? 2 : 1) ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log(
    `\n${withLighthouse ? `Lighthouse ${RUNS > 1 ? `median of ${RUNS} runs` : '1 run'}; ` : ''}` +
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

function gitState() {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return { commit, dirty };
  } catch {
    return null;
  }
}

async function main() {
  const began = Date.now();
  let config;
  try {
    config = await getJson(`${BASE}/config.json`);
  } catch (error) {
    fail(`nothing usable answers on ${BASE} (${error.message}): start the product with \`pnpm start\` first`);
  }
  const deployment = await getJson(`${BASE}/deployment.json`).catch(() => null);
  // Which shell build answered (the server may serve another checkout than the one this runs from).
  const shellMain = await fetch(`${BASE}/main.js`)
    .then(async (r) =>
      createHash('sha256')
        .update(Buffer.from(await r.arrayBuffer()))
        .digest('hex')
        .slice(0, 12),
    )
    .catch(() => null);
  const apiOrigin = config.apiBaseUrl ? new URL(config.apiBaseUrl).origin : null;
  const routes = await resolveRoutes(config);

  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
    logLevel: 'silent',
  });
  const results = [];
  try {
    const browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    });
    const chromium = await browser.version();
    for (const route of routes) {
      const owner = findRoute(route)?.remote;
      const remote = owner ? packageOf(owner) : null;
      const load = await coldLoad(browser, `${BASE}${route}`, remote, apiOrigin);
      log(
        `${route}: ${load.requests} requests, depth ${load.depth ?? '-'}/${load.depthJs ?? '-'} (${load.loadMs} ms)`,
      );
      results.push({ route, remote, load });
    }
    await browser.disconnect();

    if (!opts['no-lighthouse']) {
      for (const r of results) {
        r.lighthouse = {};
        for (const form of ['mobile', 'desktop']) {
          const runs = [];
          for (let i = 0; i < RUNS; i++) {
            const t = Date.now();
            runs.push(await lighthouseRun(`${BASE}${r.route}`, chrome.port, form));
            const last = runs.at(-1);
            log(
              `${r.route} ${form} ${i + 1}/${RUNS}: perf ${last.perf}, LCP ${Math.round(last.lcp)} ms, ` +
                `TBT ${Math.round(last.tbt)} ms, CLS ${last.cls?.toFixed(3)} (${((Date.now() - t) / 1000).toFixed(1)} s)`,
            );
          }
          const median_ = Object.fromEntries(
            ['perf', 'a11y', 'bp', 'seo', 'fcp', 'lcp', 'tbt', 'cls', 'si'].map((k) => [
              k,
              median(runs.map((x) => x[k])),
            ]),
          );
          r.lighthouse[form] = {
            median: median_,
            runs,
            failingAudits: [...new Set(runs.flatMap((x) => x.failing))],
          };
        }
      }
    }
    const seconds = Math.round((Date.now() - began) / 1000);
    printTable(results, !opts['no-lighthouse']);
    const failing = results.flatMap((r) =>
      Object.entries(r.lighthouse ?? {}).flatMap(([form, v]) =>
        v.failingAudits.length ? [`${r.route} ${form}: ${v.failingAudits.join(', ')}`] : [],
      ),
    );
    if (failing.length) console.log(`\nAudits below 100 in a11y/BP/SEO:\n  ${failing.join('\n  ')}`);

    const outDir = path.join(ROOT, 'bench-results');
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `web-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    const { version: lighthouseVersion } = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
    );
    fs.writeFileSync(
      file,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          seconds,
          baseUrl: BASE,
          options: { runs: RUNS, routes, lighthouse: !opts['no-lighthouse'], latencyMs: LATENCY_MS },
          environment: { node: process.version, chromium, lighthouse: lighthouseVersion },
          // The checkout this ran from; `served` identifies what the server sent (it may be another one).
          checkout: gitState(),
          served: { shellMainJsSha256: shellMain, deployment },
          results,
        },
        null,
        2,
      )}\n`,
    );
    console.log(
      `\n${path.relative(ROOT, file)} written; ${Math.floor(seconds / 60)} min ${seconds % 60} s in all`,
    );
  } finally {
    await chrome.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
