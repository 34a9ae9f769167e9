// Serves the production builds of the shell and the remotes, one port each, with sirv (a real static
// server) and gzip. Cache rules: content-hashed files are immutable for a year; everything whose name
// does not change between deploys (index.html, remoteEntry.js, mf-manifest.json, config.json, main.js)
// must be revalidated on every load, so a redeployed remote is picked up at once.
// Security (docs/decisions/0015-front-door.md): a CSP and the other page headers on HTML, nosniff and a
// referrer policy everywhere, CORS only for the shell's origins, 404 for dotfiles, traversal and (unless
// SERVE_SOURCE_MAPS=1) source maps.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import compression from 'compression';
import sirv from 'sirv';
import { cspReportHandler } from './csp-report.mjs';
import { pageWithRegion, prerenderedRegions, stableReleases } from './prerendered-page.mjs';
import { isForbiddenPath } from './request-path.mjs';
import {
  allowedOriginsFrom,
  COMMON_HEADERS,
  CSP_REPORT_PATH,
  contentSecurityPolicy,
  corsHeaders,
  PAGE_HEADERS,
} from './security-headers.mjs';
import { serverRenderedRegions } from './server-rendered-page.mjs';

const HASHED = /\.[0-9a-f]{10}\.(js|css)(\.map)?$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function cacheControlFor(pathname) {
  return HASHED.test(pathname) ? IMMUTABLE : 'no-cache';
}

// /releases/<remote>/<version>/<file>: a released version never changes (its id is its content), so every
// file under it, entry and manifest included, is cached for a year. Anything else under /releases is a 404.
const RELEASE_PATH = /^\/releases\/(mf-[a-z-]+)\/(\d[0-9A-Za-z.-]*-[0-9a-f]{10})\/([^?#]+)$/;

function notFound(res) {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.end('Not found');
}

const isPagePath = (pathname) =>
  pathname.endsWith('/') || pathname.endsWith('.html') || path.extname(pathname) === '';

function setAll(res, headers) {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/**
 * The release store and the deployment manifest, read per request: `pnpm release` and `pnpm rollout` change
 * them while the server runs, and the next request sees the change (no restart, no cache to flush).
 */
function releaseHandler({ store, manifestFile }) {
  const files = sirv(store, {
    dev: true,
    etag: true,
    setHeaders(res) {
      res.setHeader('Cache-Control', IMMUTABLE);
    },
  });
  return (req, res) => {
    const pathname = req.url?.split('?')[0] ?? '';
    if (pathname === '/deployment.json') {
      fs.readFile(manifestFile, (error, body) => {
        if (error) return notFound(res);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
        res.end(body);
      });
      return true;
    }
    if (!pathname.startsWith('/releases/')) return false;
    if (!RELEASE_PATH.test(pathname)) {
      notFound(res);
      return true;
    }
    req.url = req.url.slice('/releases'.length);
    files(req, res, () => notFound(res));
    return true;
  };
}

/** The shell's runtime config as served: the one given to serveApp, else the dist's config.json (read per call). */
function runtimeConfigOf(dir, runtimeConfig) {
  const configFile = path.join(dir, 'config.json');
  return () =>
    runtimeConfig ??
    (fs.existsSync(configFile) ? JSON.parse(fs.readFileSync(configFile, 'utf8')) : undefined);
}

/**
 * The page's CSP, recomputed when the page, the runtime config or the origin changes (an operator may edit
 * config.json or redeploy while the server runs), and otherwise reused. `html` is the page as sent when it
 * is not the built index.html (a page with a pre-rendered region has that region's style block).
 */
function pagePolicy(configOf) {
  let memo = { key: '', value: '' };
  return (selfOrigin, html) => {
    const config = configOf();
    const key = `${selfOrigin}\n${JSON.stringify(config ?? null)}\n${html}`;
    if (memo.key !== key)
      memo = { key, value: contentSecurityPolicy({ html, runtimeConfig: config, selfOrigin }) };
    return memo.value;
  };
}

/**
 * The shell's page for a path whose remote pre-rendered its first screen: index.html with that region
 * spliced in, rendered per request with the API's answers when the stable release can (server-render.mjs),
 * else as built (prerender.json). Resolves false when there is none, and sirv answers with the plain
 * index.html as before.
 */
function prerenderedPageHandler({ dir, releases, policyFor, configOf }) {
  const staticRegionFor = prerenderedRegions();
  const renderedRegionFor = serverRenderedRegions();
  const apiBaseOf = (selfOrigin) => {
    const base = configOf()?.apiBaseUrl;
    return typeof base === 'string' && base ? new URL(base, selfOrigin).href : null;
  };
  return async (req, res, pathname) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPagePath(pathname)) return false;
    // The deployment manifest, read once for this request (a rollout may change it between requests).
    const stable = stableReleases(releases);
    const region =
      (await renderedRegionFor(pathname, stable, apiBaseOf(res.selfOrigin))) ??
      staticRegionFor(pathname, stable);
    if (!region) return false;
    const shellHtml = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const html = pageWithRegion(shellHtml, pathname, region);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', policyFor(res.selfOrigin, html));
    setAll(res, PAGE_HEADERS);
    res.end(req.method === 'HEAD' ? undefined : html);
    return true;
  };
}

/**
 * @param {{ name: string, dir: string, port: number, host?: string, spa?: boolean, runtimeConfig?: object,
 *   releases?: { store: string, manifestFile: string }, allowedOrigins?: string[],
 *   serveSourceMaps?: boolean, cspReportFile?: string }} app
 *   runtimeConfig: served as /config.json instead of the built file (operators and tests point the shell
 *   at other remotes or API addresses without touching the build).
 *   releases: serve the release store under /releases/ and the deployment manifest as /deployment.json.
 *   allowedOrigins: origins whose pages may read these files cross-origin (default: ALLOWED_ORIGINS, else
 *   the shell on localhost:3000). serveSourceMaps: SERVE_SOURCE_MAPS=1. cspReportFile: CSP_REPORT_FILE.
 * @returns {Promise<http.Server>}
 */
export function serveApp({
  name,
  dir,
  port,
  host = '0.0.0.0',
  spa = false,
  runtimeConfig,
  releases,
  allowedOrigins = allowedOriginsFrom(process.env.ALLOWED_ORIGINS),
  serveSourceMaps = process.env.SERVE_SOURCE_MAPS === '1',
  cspReportFile = process.env.CSP_REPORT_FILE,
}) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${name}: no build in ${dir}`);
  const gzip = compression();
  const configOf = runtimeConfigOf(dir, runtimeConfig);
  const policyFor = pagePolicy(configOf);
  const builtPage = () => fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = sirv(dir, {
    // Look files up per request instead of indexing the folder once at start: a remote redeployed into
    // its folder is served at once, with no restart. (A stat per request is cheap next to the transfer.)
    dev: true,
    etag: true,
    single: spa,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlFor(pathname));
      // sirv passes the requested path: a page is an .html file, a folder, or (single-page apps) any path
      // without an extension, which it answers with index.html.
      if (isPagePath(pathname)) {
        res.setHeader('Content-Security-Policy', policyFor(res.selfOrigin, builtPage()));
        setAll(res, PAGE_HEADERS);
      }
    },
  });
  const configBody = runtimeConfig ? JSON.stringify(runtimeConfig) : null;
  const serveRelease = releases ? releaseHandler(releases) : () => false;
  const servePrerendered =
    releases && spa ? prerenderedPageHandler({ dir, releases, policyFor, configOf }) : async () => false;
  const receiveReport = cspReportHandler({ app: name, file: cspReportFile });
  const server = http.createServer((req, res) => {
    const pathname = req.url?.split('?')[0] ?? '/';
    setAll(res, COMMON_HEADERS);
    setAll(res, corsHeaders(req.headers.origin, allowedOrigins));
    if (pathname === CSP_REPORT_PATH) return receiveReport(req, res);
    if (isForbiddenPath(pathname, { serveSourceMaps })) return notFound(res);
    if (configBody && pathname === '/config.json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
      res.end(configBody);
      return;
    }
    res.selfOrigin = `http://${req.headers.host ?? `localhost:${port}`}`;
    gzip(req, res, () => {
      if (serveRelease(req, res)) return;
      const serveFile = () => files(req, res, () => notFound(res));
      // A region that cannot be made (a broken release file) leaves the plain page, never a failed one.
      servePrerendered(req, res, pathname).then((served) => served || serveFile(), serveFile);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
