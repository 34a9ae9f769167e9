// Files as files: the build folders with sirv (a real static server) and the release store. Cache rules: content-hashed files are immutable for a year, so is every file of a
// release (its id is its content); everything whose name does not change between deploys (remoteEntry.js,
// mf-manifest.json, config.json, main.js) is revalidated on every load, so a redeployed remote is picked up.
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { isRemotePackage, isVersionId } from '@app/rollout';
import sirv from 'sirv';

const HASHED = /\.[0-9a-f]{10}\.(js|css)(\.map)?$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export function cacheControlFor(pathname: string): string {
  return HASHED.test(pathname) ? IMMUTABLE : 'no-cache';
}

/** A page is an .html file, a folder, or (single-page apps) any path without an extension. */
export const isPagePath = (pathname: string) =>
  pathname.endsWith('/') || pathname.endsWith('.html') || path.extname(pathname) === '';

export function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.end('Not found');
}

/** /releases/<remote>/<version>/<file> with a known remote and a valid version id (@app/rollout's rules). */
function isReleasePath(pathname: string): boolean {
  const [, root, remote, version, ...file] = pathname.split('/');
  return root === 'releases' && isRemotePackage(remote) && isVersionId(version) && file.join('/') !== '';
}

/**
 * The release store, read per request: the API stores a release while the server runs, and the next request
 * sees it (no restart, no cache to flush). Returns false when the request is not for it.
 */
export function releaseFiles({ store }: { store: string }) {
  const files = sirv(store, {
    dev: true,
    etag: true,
    setHeaders(res) {
      res.setHeader('Cache-Control', IMMUTABLE);
    },
  });
  return (req: IncomingMessage, res: ServerResponse, pathname: string): boolean => {
    if (!pathname.startsWith('/releases/')) return false;
    if (!isReleasePath(pathname)) {
      notFound(res);
      return true;
    }
    req.url = (req.url ?? '').slice('/releases'.length);
    files(req, res, () => notFound(res));
    return true;
  };
}

/** An app's build folder. `onPage` sets a page's headers (sirv answers a remote's own index.html). */
export function buildFiles(dir: string, onPage: (res: ServerResponse) => void) {
  return sirv(dir, {
    // Look files up per request instead of indexing the folder once at start: a remote redeployed into
    // its folder is served at once, with no restart. (A stat per request is cheap next to the transfer.)
    dev: true,
    etag: true,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', cacheControlFor(pathname));
      if (isPagePath(pathname)) onPage(res);
    },
  });
}
