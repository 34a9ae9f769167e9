// A first screen rendered per request, with the API's answers (docs/decisions/0021-first-screen-with-data.md).
// A remote whose first screen shows data (the Research Center's cards) ships its renderer in its release,
// `server-render.mjs` (tooling/webpack/prerender.mjs): `serverRequests(path)` names the API GETs a guest's
// first screen needs, `renderPage(path, primed, { window })` renders it from their answers (window: a DOM
// lent for what needs one, docs/decisions/0022-post-page-rendered-per-request.md). Per request, the renderer of
// the release the deployment manifest names stable is asked; the answers go into the page with the picture,
// so the live app starts from them. When the API does not answer in time, or the renderer fails, the caller
// falls back to the build-time picture (prerender.json): a page is never held up or broken by this.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SERVER_RENDER_FILE = 'server-render.mjs';

/** How long a page waits for the API's answers before it is sent with the build-time picture instead. */
export const API_WAIT_MS = 500;

/**
 * Renders kept, by release, path and answers: the same answers make the same page, so a burst of visitors
 * costs one render (about 18 ms of this server's event loop for Explore's 50 cards, time every other file
 * it serves would wait), and new answers (a post published) make a new one at once.
 */
const RENDER_CACHE_SIZE = 16;

function renderCache() {
  const pages = new Map();
  return (key, render) => {
    if (pages.has(key)) {
      const page = pages.get(key);
      pages.delete(key); // most recently used last
      pages.set(key, page);
      return page;
    }
    const page = render();
    pages.set(key, page);
    if (pages.size > RENDER_CACHE_SIZE) pages.delete(pages.keys().next().value);
    return page;
  };
}

/** Response headers the live app reads besides the body (our API's own, e.g. X-Next-Cursor of a list). */
const keptHeaders = (headers) =>
  Object.fromEntries([...headers].filter(([name]) => name.toLowerCase().startsWith('x-next-')));

/**
 * Fetches each GET as a guest (no credentials) and keeps the 200 JSON answers: { [key]: { body, headers } }.
 * A request that fails or is late is left out; the live app then asks for it itself.
 */
async function fetchAnswers(apiBase, keys, { fetchImpl, waitMs }) {
  const signal = AbortSignal.timeout(waitMs);
  const answers = await Promise.all(
    keys
      .filter((key) => typeof key === 'string' && key.startsWith('/'))
      .map(async (key) => {
        try {
          const response = await fetchImpl(new URL(key, apiBase), {
            // A read ahead of the visit: the API counts no view for it (the live page's own read does).
            headers: { Accept: 'application/json', 'Sec-Purpose': 'prefetch' },
            signal,
          });
          if (response.status !== 200) return null;
          return [key, { body: await response.json(), headers: keptHeaders(response.headers) }];
        } catch {
          return null;
        }
      }),
  );
  return Object.fromEntries(answers.filter(Boolean));
}

/** A jsdom window, or undefined when jsdom cannot load (a render that needs a DOM then fails: plain page). */
function lendableDom() {
  return import('jsdom').then(
    ({ JSDOM }) => new JSDOM('<!doctype html><html><head></head><body></body></html>').window,
    () => undefined,
  );
}

/**
 * @param {{ fetchImpl?: typeof fetch, waitMs?: number }} [options]
 * @returns {(pathname: string, stable: [string, string, string][], apiBase: string | null) =>
 *   Promise<{ remote: string, html: string, css: string, ids: string[], primed: object } | null>}
 *   stable: this request's stableReleases() (prerendered-page.mjs)
 */
export function serverRenderedRegions({ fetchImpl = fetch, waitMs = API_WAIT_MS } = {}) {
  // A release never changes (its id is its content), so its renderer is imported once.
  const renderers = new Map();
  const cached = renderCache();
  const rendererOf = (folder) => {
    if (!renderers.has(folder)) {
      const file = path.join(folder, SERVER_RENDER_FILE);
      renderers.set(
        folder,
        fs.existsSync(file) ? import(pathToFileURL(file).href).catch(() => null) : Promise.resolve(null),
      );
    }
    return renderers.get(folder);
  };
  // One DOM for every render that needs one (a post's body is sanitised with DOMPurify, which on a server
  // supports jsdom): made once, in the background, so no page waits for jsdom to load (~0.5 s).
  const dom = lendableDom();
  return async (pathname, stable, apiBase) => {
    if (!apiBase) return null;
    for (const [remote, , folder] of stable) {
      const renderer = await rendererOf(folder);
      const keys = renderer?.serverRequests?.(pathname);
      if (!Array.isArray(keys)) continue;
      const primed = await fetchAnswers(apiBase, keys, { fetchImpl, waitMs });
      if (Object.keys(primed).length === 0) return null;
      const key = createHash('sha256')
        .update(`${folder}\n${pathname}\n${JSON.stringify(primed)}`)
        .digest('hex');
      try {
        const window = await dom;
        return { remote, ...cached(key, () => renderer.renderPage(pathname, primed, { window })), primed };
      } catch {
        return null;
      }
    }
    return null;
  };
}
