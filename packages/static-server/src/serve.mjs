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

export function cacheControlFor(pathname) {
  return HASHED.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * @param {{ name: string, dir: string, port: number, host?: string, spa?: boolean, runtimeConfig?: object }} app
 *   runtimeConfig: served as /config.json instead of the built file (operators and tests point the shell
 *   at other remotes or API addresses without touching the build).
 * @returns {Promise<http.Server>}
 */
export function serveApp({ name, dir, port, host = '0.0.0.0', spa = false, runtimeConfig }) {
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
  const server = http.createServer((req, res) => {
    if (configBody && req.url?.split('?')[0] === '/config.json') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
      res.end(configBody);
      return;
    }
    gzip(req, res, () =>
      files(req, res, () => {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.end('Not found');
      }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
