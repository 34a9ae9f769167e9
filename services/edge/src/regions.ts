/// <reference path="./jsdom.d.ts" />
// The route's first screen from the release this visitor gets (docs/decisions/0018-prerendered-first-screen.md,
// 0021-first-screen-with-data.md, 0026-edge.md). Each release carries `prerender.json` (its static routes,
// rendered at build time) and, where a first screen shows data, `server-render.mjs`: `serverRequests(path)`
// names the API GETs a guest's first screen needs, `renderPage(path, primed, { window })` renders it from
// their answers. Per request, the releases the visitor's plan names are asked, never another version: the
// picture in the HTML is the version the live page will run. When the API is late or a renderer fails, the
// build-time picture of the same release is used; a page is never held up or broken by this.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRERENDER_FILE, SERVER_RENDER_FILE } from '@app/page-format';
import type { RemotePackage } from '@app/rollout';
import type { DegradedLog } from './degraded';

/** How long a page waits for the API's answers before it is sent with the build-time picture instead. */
export const API_WAIT_MS = 500;

/**
 * Renders kept, by release, path and answers: the same answers make the same page, so a burst of visitors
 * costs one render (about 18 ms of the event loop for Explore's 50 cards, time every other request would
 * wait), and new answers (a post published) make a new one at once.
 */
const RENDER_CACHE_SIZE = 16;

/** A release the visitor's plan names: its folder in the store. */
export interface PlannedRelease {
  remote: RemotePackage;
  version: string;
  folder: string;
}

export interface Region {
  remote: RemotePackage;
  version: string;
  html: string;
  css: string;
  ids: string[];
  /** The API's answers a per-request render was made from, for the live app to start from. */
  primed?: Record<string, unknown>;
}

interface PrerenderedPage {
  html: string;
  css: string;
  ids?: string[];
}

interface Renderer {
  serverRequests?: (path: string) => unknown;
  renderPage: (
    path: string,
    primed: Record<string, unknown>,
    o: { window?: unknown },
  ) => { html: string; css: string; ids?: string[] };
}

function lruCache<T>(size: number) {
  const entries = new Map<string, T>();
  return (key: string, make: () => T): T => {
    if (entries.has(key)) {
      const value = entries.get(key) as T;
      entries.delete(key); // most recently used last
      entries.set(key, value);
      return value;
    }
    const value = make();
    entries.set(key, value);
    if (entries.size > size) entries.delete(entries.keys().next().value as string);
    return value;
  };
}

/** Response headers the live app reads besides the body (our API's own, e.g. X-Next-Cursor of a list). */
const keptHeaders = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => name.toLowerCase().startsWith('x-next-')));

/**
 * Fetches each GET as a guest (no credentials) and keeps the 200 JSON answers: { [key]: { body, headers } }.
 * A request that fails or is late is left out (the live app then asks for it itself); `troubled` says
 * whether any did (an API that answers 404 for a post that does not exist is not trouble).
 */
async function fetchAnswers(
  apiBase: string,
  keys: unknown[],
  { fetchImpl, waitMs }: { fetchImpl: typeof fetch; waitMs: number },
) {
  const signal = AbortSignal.timeout(waitMs);
  let troubled = null as string | null;
  const answers = await Promise.all(
    keys
      .filter((key): key is string => typeof key === 'string' && key.startsWith('/'))
      .map(async (key) => {
        try {
          const response = await fetchImpl(new URL(key, apiBase), {
            // A read ahead of the visit: the API counts no view for it (the live page's own read does).
            headers: { Accept: 'application/json', 'Sec-Purpose': 'prefetch' },
            signal,
          });
          if (response.status >= 500) troubled = `${key} answered ${response.status}`;
          if (response.status !== 200) return null;
          return [key, { body: await response.json(), headers: keptHeaders(response.headers) }] as const;
        } catch (error) {
          troubled = signal.aborted ? `no answer within ${waitMs} ms` : `${key}: ${String(error)}`;
          return null;
        }
      }),
  );
  return { answers: Object.fromEntries(answers.filter((answer) => answer !== null)), troubled };
}

/** A jsdom window, or undefined when jsdom cannot load (a render that needs a DOM then fails: the picture). */
function lendableDom(): Promise<unknown> {
  return import('jsdom').then(
    ({ JSDOM }) => new JSDOM('<!doctype html><html><head></head><body></body></html>').window,
    () => undefined,
  );
}

const isPage = (page: unknown): page is PrerenderedPage =>
  typeof (page as PrerenderedPage | null)?.html === 'string' &&
  typeof (page as PrerenderedPage).css === 'string';

export interface RegionOptions {
  degraded: DegradedLog;
  fetchImpl?: typeof fetch;
  waitMs?: number;
}

/** Resolves the region of a path from the visitor's releases, or null when none of them pre-rendered it. */
export function releaseRegions({ degraded, fetchImpl = fetch, waitMs = API_WAIT_MS }: RegionOptions) {
  const subject = (release: PlannedRelease) => `${release.remote}@${release.version}`;
  // A release never changes (its id is its content): its pages and its renderer are read once.
  const pagesByFolder = new Map<string, Record<string, unknown>>();
  const pagesOf = (release: PlannedRelease) => {
    let pages = pagesByFolder.get(release.folder);
    if (!pages) {
      pages = {};
      const file = path.join(release.folder, PRERENDER_FILE);
      if (fs.existsSync(file)) {
        try {
          const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { pages?: unknown };
          if (!parsed?.pages || typeof parsed.pages !== 'object') throw new Error('no "pages" object');
          pages = parsed.pages as Record<string, unknown>;
        } catch (error) {
          degraded.note('prerender-file-unreadable', subject(release), null, error);
        }
      }
      pagesByFolder.set(release.folder, pages);
    }
    return pages;
  };
  // A renderer that fails to import stays failed (the release never changes): the failure is kept and
  // counted on every page it costs its first screen.
  const renderers = new Map<string, Promise<Renderer | { failed: unknown } | null>>();
  const rendererOf = (release: PlannedRelease) => {
    let renderer = renderers.get(release.folder);
    if (!renderer) {
      const file = path.join(release.folder, SERVER_RENDER_FILE);
      renderer = fs.existsSync(file)
        ? import(pathToFileURL(file).href).then(
            (module: Renderer) => {
              if (typeof module.renderPage !== 'function')
                return { failed: new Error('exports no renderPage()') };
              return module;
            },
            (error: unknown) => ({ failed: error }),
          )
        : Promise.resolve(null);
      renderers.set(release.folder, renderer);
    }
    return renderer;
  };
  const cached = lruCache<{ html: string; css: string; ids?: string[] }>(RENDER_CACHE_SIZE);
  // One DOM for every render that needs one (a post's body is sanitised with DOMPurify, which on a server
  // supports jsdom): made once, in the background, so no page waits for jsdom to load (~0.5 s).
  const dom = lendableDom();

  async function rendered(pathname: string, release: PlannedRelease, apiBase: string | null) {
    const renderer = await rendererOf(release);
    if (renderer && 'failed' in renderer) {
      degraded.note('renderer-import-failed', subject(release), pathname, renderer.failed);
      return null;
    }
    let keys: unknown;
    try {
      keys = renderer?.serverRequests?.(pathname);
    } catch (error) {
      degraded.note('render-failed', subject(release), pathname, error);
      return null;
    }
    if (!renderer || !Array.isArray(keys) || !apiBase) return null;
    const { answers: primed, troubled } = await fetchAnswers(apiBase, keys, { fetchImpl, waitMs });
    if (troubled) degraded.note('api-answers-missing', subject(release), pathname, troubled);
    if (Object.keys(primed).length === 0) return null;
    const key = createHash('sha256')
      .update(`${release.folder}\n${pathname}\n${JSON.stringify(primed)}`)
      .digest('hex');
    try {
      const window = await dom;
      const page = cached(key, () => renderer.renderPage(pathname, primed, { window }));
      return { html: page.html, css: page.css, ids: page.ids ?? [], primed };
    } catch (error) {
      degraded.note('render-failed', subject(release), pathname, error);
      return null;
    }
  }

  return async (
    pathname: string,
    releases: PlannedRelease[],
    apiBase: string | null,
  ): Promise<Region | null> => {
    for (const release of releases) {
      const base = { remote: release.remote, version: release.version };
      const live = await rendered(pathname, release, apiBase);
      if (live) return { ...base, ...live };
      const page = pagesOf(release)[pathname];
      if (isPage(page)) return { ...base, html: page.html, css: page.css, ids: page.ids ?? [] };
    }
    return null;
  };
}
