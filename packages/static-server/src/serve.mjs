// Serves the production builds of the shell and the remotes, one port each, with sirv (a real static
// server) and gzip. Cache rules: content-hashed files are immutable for a year; everything whose name
// does not change between deploys (index.html, remoteEntry.js, mf-manifest.json, config.json, main.js)
// must be revalidated on every load, so a redeployed remote is picked up at once.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import compression from 'compression';
import sirv from 'sirv';

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
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.end('Not found');
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
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  return (req, res) => {
    const pathname = req.url?.split('?')[0] ?? '';
    if (pathname === '/deployment.json') {
      fs.readFile(manifestFile, (error, body) => {
        if (error) return notFound(res);
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-cache',
          'Access-Control-Allow-Origin': '*',
          'X-Content-Type-Options': 'nosniff',
        });
        res.end(body);
      });
      return true;
    }
    if (!pathname.startsWith('/releases/')) return false;
    if (!RELEASE_PATH.test(pathname) || pathname.includes('..')) {
      notFound(res);
      return true;
    }
    req.url = req.url.slice('/releases'.length);
    files(req, res, () => notFound(res));
    return true;
  };
}

/**
 * @param {{ name: string, dir: string, port: number, host?: string, spa?: boolean, runtimeConfig?: object,
 *   releases?: { store: string, manifestFile: string } }} app
 *   runtimeConfig: served as /config.json instead of the built file (operators and tests point the shell
 *   at other remotes or API addresses without touching the build).
 *   releases: serve the release store under /releases/ and the deployment manifest as /deployment.json.
 * @returns {Promise<http.Server>}
 */
export function serveApp({ name, dir, port, host = '0.0.0.0', spa = false, runtimeConfig, releases }) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${name}: no build in ${dir}`);
  const gzip = compression();
  const files = sirv(dir, {
    // Look files up per request instead of indexing the folder once at start: a remote redeployed into
    // its folder is served at once, with no restart. (A stat per request is cheap next to the transfer.)
    dev: true,
    etag: true,
    single: spa,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlFor(pathname));
      // The shell (another origin) fetches remote manifests and chunks.
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const configBody = runtimeConfig ? JSON.stringify(runtimeConfig) : null;
  const serveRelease = releases ? releaseHandler(releases) : () => false;
  const server = http.createServer((req, res) => {
    if (configBody && req.url?.split('?')[0] === '/config.json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
      res.end(configBody);
      return;
    }
    gzip(req, res, () => {
      if (serveRelease(req, res)) return;
      files(req, res, () => notFound(res));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
