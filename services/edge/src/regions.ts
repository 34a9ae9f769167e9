// The route's first screen from the release this visitor gets (docs/decisions/0018-prerendered-first-screen.md,
// 0021-first-screen-with-data.md, 0026-edge.md, 0036-render-sandbox.md). Each release carries
// `prerender.json` (its static routes, rendered at build time) and, where a first screen shows data,
// `server-render.mjs`: `serverRequests(path)` names the API GETs a guest's first screen needs,
// `renderPage(path, primed, { window })` renders it from their answers. That code is the release's, not the
// edge's: it runs in the release's own sandboxed worker (render-sandbox/), is handed the answers the edge
// fetched (it fetches nothing itself), and what it returns is checked and cleaned (region-html.ts) before it
// goes into the page. Per request, only the releases the visitor's plan names are asked. When the API is
// late, the worker is still starting, or the render fails, the build-time picture of the same release is
// used; a page is never held up or broken by this. A render that fails is logged with its release, and the
// page view's health ticket says so (the version's health counts it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRERENDER_FILE, SERVER_RENDER_FILE } from '@app/page-format';
import type { RemotePackage, RemoteTrack } from '@app/rollout';
import type { DegradedLog } from './degraded';
import type { RenderOutcome } from './metrics';
import { cleanRegionHtml } from './region-html';
import type { CallResult, RenderPool } from './render-sandbox/pool';

/** How long a page waits for the API's answers before it is sent with the build-time picture instead. */
export const API_WAIT_MS = 500;

/**
 * Renders kept, by release, path and answers: the same answers make the same page, so a burst of visitors
 * costs one render, and new answers (a post published) make a new one at once.
 */
const RENDER_CACHE_SIZE = 16;
/** What a renderer may ask the edge to fetch for one page: a few of the API's own GETs, as a guest. */
const MAX_SERVER_REQUESTS = 8;
const MAX_REQUEST_LENGTH = 2048;
const MAX_EMOTION_IDS = 10_000;

/** A release the visitor's plan names: its folder in the store, and the plan's track for it (its cohort). */
export interface PlannedRelease {
  remote: RemotePackage;
  version: string;
  folder: string;
  track: RemoteTrack;
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

export interface RegionOutcome {
  region: Region | null;
  /** Releases whose server render failed for this page (their health counts it). */
  renderFailures: RemotePackage[];
  /**
   * Each server render this page asked of a release's code (rendered or failed; not a page that needed none)
   * and how long it took, API answers included: the version's server figures (render-figures.ts).
   */
  renders: Array<{ remote: RemotePackage; version: string; failed: boolean; ms: number }>;
}

interface Page {
  html: string;
  css: string;
  ids: string[];
}

function lruCache<T>(size: number) {
  const entries = new Map<string, T>();
  return {
    get(key: string): T | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key); // most recently used last
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: T) {
      entries.set(key, value);
      if (entries.size > size) entries.delete(entries.keys().next().value as string);
    },
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
  keys: string[],
  { fetchImpl, waitMs }: { fetchImpl: typeof fetch; waitMs: number },
) {
  const signal = AbortSignal.timeout(waitMs);
  let troubled = null as string | null;
  const answers = await Promise.all(
    keys.map(async (key) => {
      try {
        const response = await fetchImpl(new URL(key, apiBase), {
          // A read ahead of the visit: the API counts no view for it (the live page's own read does).
          headers: { Accept: 'application/json', 'Sec-Purpose': 'prefetch' },
          signal,
          redirect: 'error',
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

/**
 * The API paths a renderer named, or why they are refused: only the API's own GETs, as paths (a full URL,
 * `//host` or `/..` could send the edge's request elsewhere), a few per page.
 */
export function serverRequestsOf(keys: unknown, apiBase: string): string[] | null | { refused: string } {
  if (keys === null || keys === undefined) return null;
  if (!Array.isArray(keys)) return { refused: 'serverRequests() returned something other than a list' };
  if (keys.length > MAX_SERVER_REQUESTS)
    return { refused: `serverRequests() named ${keys.length} requests (at most ${MAX_SERVER_REQUESTS})` };
  const base = new URL(apiBase);
  for (const key of keys) {
    const ok =
      typeof key === 'string' &&
      key.length <= MAX_REQUEST_LENGTH &&
      /^\/api\/[^\s\\]*$/.test(key) &&
      !key.includes('//') &&
      !/(^|\/)\.\.?(\/|\?|$)/.test(key) &&
      new URL(key, base).origin === base.origin;
    if (!ok)
      return { refused: `serverRequests() named "${String(key).slice(0, 80)}", not one of the API's paths` };
  }
  return keys as string[];
}

/** A render's answer as a page, or why it is refused. */
function pageOf(value: unknown): Page | { refused: string } {
  const page = value as { html?: unknown; css?: unknown; ids?: unknown } | null;
  if (typeof page?.html !== 'string' || typeof page.css !== 'string')
    return { refused: 'renderPage() returned no { html, css }' };
  const ids = page.ids ?? [];
  if (!Array.isArray(ids) || ids.length > MAX_EMOTION_IDS || !ids.every((id) => typeof id === 'string'))
    return { refused: 'renderPage() returned ids that are not a list of names' };
  return { html: page.html, css: page.css, ids: ids as string[] };
}

export interface RegionOptions {
  degraded: DegradedLog;
  /** The release workers; null: this edge makes no per-request renders (build-time pictures only). */
  pool: RenderPool | null;
  /** The CSP hashes of the shell page's own inline scripts (no region may repeat one). */
  trustedScripts?: () => ReadonlySet<string>;
  fetchImpl?: typeof fetch;
  waitMs?: number;
  /** Each per-request render's outcome and time (metrics.ts); a release without a renderer has none. */
  onRender?: (release: PlannedRelease, outcome: RenderOutcome, seconds: number) => void;
}

/** Resolves the region of a path from the visitor's releases (and which of their renders failed). */
export function releaseRegions({
  degraded,
  pool,
  trustedScripts,
  fetchImpl = fetch,
  waitMs = API_WAIT_MS,
  onRender,
}: RegionOptions) {
  const subject = (release: PlannedRelease) => `${release.remote}@${release.version}`;
  const trusted = () => trustedScripts?.() ?? new Set<string>();

  /** Cleans a release's HTML for the page; a region that cannot be used is logged and left out. */
  function cleaned(release: PlannedRelease, pathname: string, page: Page): Page | null {
    try {
      const { html, removed } = cleanRegionHtml(page.html, trusted());
      if (removed.length) {
        degraded.note(
          'region-cleaned',
          subject(release),
          pathname,
          `removed ${[...new Set(removed)].join(', ')}`,
        );
      }
      return { ...page, html };
    } catch (error) {
      degraded.note('region-refused', subject(release), pathname, error);
      return null;
    }
  }

  // A release never changes (its id is its content): its pictures are read and cleaned once.
  const picturesByFolder = new Map<string, Map<string, Page | null>>();
  const rawPictures = new Map<string, Record<string, unknown>>();
  function pictureOf(release: PlannedRelease, pathname: string): Page | null {
    let pictures = picturesByFolder.get(release.folder);
    if (!pictures) {
      pictures = new Map();
      picturesByFolder.set(release.folder, pictures);
      const file = path.join(release.folder, PRERENDER_FILE);
      let pages: Record<string, unknown> = {};
      if (fs.existsSync(file)) {
        try {
          const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { pages?: unknown };
          if (!parsed?.pages || typeof parsed.pages !== 'object') throw new Error('no "pages" object');
          pages = parsed.pages as Record<string, unknown>;
        } catch (error) {
          degraded.note('prerender-file-unreadable', subject(release), null, error);
        }
      }
      rawPictures.set(release.folder, pages);
    }
    if (!pictures.has(pathname)) {
      const raw = rawPictures.get(release.folder)?.[pathname];
      const page = raw === undefined ? null : pageOf(raw);
      pictures.set(pathname, page && !('refused' in page) ? cleaned(release, pathname, page) : null);
    }
    return pictures.get(pathname) ?? null;
  }

  const hasRenderer = new Map<string, boolean>();
  const sandboxed = (release: PlannedRelease) => {
    if (!hasRenderer.has(release.folder)) {
      hasRenderer.set(release.folder, fs.existsSync(path.join(release.folder, SERVER_RENDER_FILE)));
    }
    return hasRenderer.get(release.folder)
      ? {
          remote: release.remote,
          version: release.version,
          folder: release.folder,
          rendererFile: path.join(release.folder, SERVER_RENDER_FILE),
        }
      : null;
  };

  const keysCache = lruCache<{ keys: string[] | null }>(256);
  const pages = lruCache<Page>(RENDER_CACHE_SIZE);
  const inFlight = new Map<string, Promise<CallResult>>();

  /**
   * The release's picture for this page from its worker: a page, nothing to render, or a failure; each
   * render asked of a worker (not a route that needs no data, nor a page whose API answers did not come)
   * is told to `onRender` with its outcome.
   */
  async function rendered(
    pathname: string,
    release: PlannedRelease,
    apiBase: string | null,
  ): Promise<{ page: Page; primed: Record<string, unknown> } | 'none' | 'failed'> {
    const worker = pool && apiBase ? sandboxed(release) : null;
    if (!pool || !worker || !apiBase) return 'none';
    const started = performance.now();
    const result = await renderedBy(pool, worker, pathname, release, apiBase);
    if (result !== 'none') {
      const outcome = result === 'failed' || result === 'unavailable' ? result : 'ok';
      onRender?.(release, outcome, (performance.now() - started) / 1000);
    }
    return result === 'unavailable' ? 'none' : result;
  }

  async function renderedBy(
    pool: RenderPool,
    worker: NonNullable<ReturnType<typeof sandboxed>>,
    pathname: string,
    release: PlannedRelease,
    apiBase: string,
  ): Promise<{ page: Page; primed: Record<string, unknown> } | 'none' | 'failed' | 'unavailable'> {
    // A renderer that does not load is told apart from one that loads and fails (the operator's first clue).
    const failed = (reason: unknown, stage: 'start' | 'render' = 'render') => {
      degraded.note(
        stage === 'start' ? 'renderer-import-failed' : 'render-failed',
        subject(release),
        pathname,
        reason,
      );
      return 'failed' as const;
    };
    const keysKey = `${release.folder}\n${pathname}`;
    let known = keysCache.get(keysKey);
    if (!known) {
      // 0: a page never waits for a worker that is still starting (it gets the picture; the next one, the render).
      const asked = await pool.call(worker, { op: 'requests', path: pathname }, 0);
      if (asked.status === 'failed') return failed(asked.reason, asked.stage);
      if (asked.status === 'unavailable') {
        degraded.note('render-unavailable', subject(release), pathname, asked.reason);
        return 'unavailable';
      }
      const keys = serverRequestsOf(asked.value, apiBase);
      if (keys && 'refused' in keys) return failed(keys.refused);
      known = { keys };
      keysCache.set(keysKey, known);
    }
    if (!known.keys || known.keys.length === 0) return 'none';
    const { answers: primed, troubled } = await fetchAnswers(apiBase, known.keys, { fetchImpl, waitMs });
    if (troubled) degraded.note('api-answers-missing', subject(release), pathname, troubled);
    if (Object.keys(primed).length === 0) return 'none';
    const key = createHash('sha256')
      .update(`${release.folder}\n${pathname}\n${JSON.stringify(primed)}`)
      .digest('hex');
    const kept = pages.get(key);
    if (kept) return { page: kept, primed };
    // A burst of visitors before the first render is back waits for that one render.
    let call = inFlight.get(key);
    if (!call) {
      call = pool.call(worker, { op: 'render', path: pathname, primed }, 0);
      inFlight.set(key, call);
      void call.finally(() => inFlight.delete(key));
    }
    const result = await call;
    if (result.status === 'failed') return failed(result.reason, result.stage);
    if (result.status === 'unavailable') {
      degraded.note('render-unavailable', subject(release), pathname, result.reason);
      return 'unavailable';
    }
    const page = pageOf(result.value);
    if ('refused' in page) return failed(page.refused);
    const clean = cleaned(release, pathname, page);
    if (!clean) return 'failed';
    pages.set(key, clean);
    return { page: clean, primed };
  }

  return {
    async region(
      pathname: string,
      releases: PlannedRelease[],
      apiBase: string | null,
    ): Promise<RegionOutcome> {
      const renderFailures: RemotePackage[] = [];
      const renders: RegionOutcome['renders'] = [];
      for (const release of releases) {
        const base = { remote: release.remote, version: release.version };
        const started = performance.now();
        const live = await rendered(pathname, release, apiBase);
        if (live !== 'none')
          renders.push({ ...base, failed: live === 'failed', ms: performance.now() - started });
        if (live === 'failed') renderFailures.push(release.remote);
        else if (live !== 'none')
          return { region: { ...base, ...live.page, primed: live.primed }, renderFailures, renders };
        const picture = pictureOf(release, pathname);
        if (picture) return { region: { ...base, ...picture }, renderFailures, renders };
      }
      return { region: null, renderFailures, renders };
    },
    /** Starts the workers of releases pages will soon need (a deployment's stable and canary versions). */
    warm(releases: PlannedRelease[]) {
      if (!pool) return;
      for (const release of releases) {
        const worker = sandboxed(release);
        if (worker) pool.prewarm(worker);
      }
    },
  };
}

export type ReleaseRegions = ReturnType<typeof releaseRegions>;
