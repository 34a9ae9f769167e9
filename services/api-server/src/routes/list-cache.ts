import { gzipSync } from 'node:zlib';
import { NEXT_CURSOR_HEADER } from '@app/contracts';
import type { Caller } from '../services/accounts';
import type { Page } from '../services/cursor';
import { type JsonText, listBody } from '../services/post-model';
import { type C, caller } from './hono-env';
import { queryString } from './list-query';

// Vary (Origin, Accept-Encoding) is set on every answer by src/http-edge.ts.
const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** A page's body is the array (SPEC §7); the next page's cursor rides in a header the browser may read. */
const EXPOSE = { 'Access-Control-Expose-Headers': NEXT_CURSOR_HEADER };

/** The headers of a page answer: the next cursor when there is one. */
export function pageHeaders(next: string | null): Record<string, string> {
  return next === null ? EXPOSE : { ...EXPOSE, [NEXT_CURSOR_HEADER]: next };
}

/** An uncached page answer: the items as the body, the cursor as a header. */
export function pageJson(c: C, page: Page<JsonText<unknown>>): Response {
  return c.body(listBody(page.items), 200, { ...JSON_HEADERS, ...pageHeaders(page.next) });
}

/** A page's answer as both lanes write it: status 200, these headers, this body. */
export interface PageAnswer {
  body: string | Uint8Array;
  headers: Record<string, string>;
}

export interface ListCache {
  /**
   * The answer of GET /api/posts for this caller and query string, kept (with LIST_CACHE_SIZE) or computed.
   * `acceptEncoding` is the request's header: a kept page is gzipped once and sent so when it is accepted.
   */
  answer(
    who: Caller | null,
    query: string,
    acceptEncoding: string | undefined,
    compute: () => Promise<Page<JsonText<unknown>>>,
  ): Promise<PageAnswer>;
  /** The same as a hono Response. */
  cachedJson(c: C, compute: () => Promise<Page<JsonText<unknown>>>): Promise<Response>;
  clear(): void;
  readonly size: number;
}

/**
 * The serialized answers of GET /api/posts, per caller, roles and query. Any write through this server
 * (every non-GET request, and a single read, which counts a view) empties it, so an answer is never stale
 * for data this process changed. Writes by another process on the same database (a second API instance,
 * the admin CLI) are seen through `othersWrote` (src/db/change-watch.ts), checked on every read.
 */
export function createListCache(
  maxEntries: number,
  othersWrote: () => Promise<boolean> = async () => false,
): ListCache {
  const listCache = new Map<
    string,
    { body: Uint8Array; headers: Record<string, string>; gzip?: Uint8Array }
  >();
  /** Bumped by every clear: a page computed across a clear may be older than it and is not kept. */
  let generation = 0;
  const clear = () => {
    generation += 1;
    listCache.clear();
  };
  const answer: ListCache['answer'] = async (who, query, acceptEncoding, compute) => {
    // Off: the page is sent as the text it was built as (one write with its head), never copied to bytes.
    if (maxEntries <= 0) {
      const page = await compute();
      return { body: listBody(page.items), headers: { ...JSON_HEADERS, ...pageHeaders(page.next) } };
    }
    // Another API instance on the same database (or the admin CLI) wrote since the last look: start afresh.
    // (Not asked when nothing is kept: on PostgreSQL the question is a query of its own.)
    if (await othersWrote()) clear();
    const key = `${who?.userId ?? 0}|${who?.roles.join(',') ?? '-'}|${query}`;
    let entry = listCache.get(key);
    if (entry === undefined) {
      // Kept as bytes: a hit then writes the same buffer, with no per-request encoding or garbage.
      const computedIn = generation;
      const page = await compute();
      const headers = { ...JSON_HEADERS, ...pageHeaders(page.next) };
      entry = { body: Buffer.from(listBody(page.items)), headers };
      if (computedIn === generation) {
        if (listCache.size >= maxEntries) listCache.clear();
        listCache.set(key, entry);
      }
    }
    // Browsers send Accept-Encoding: gzip; a page of 50 cards is ~25 KB and compresses ~4x. Compressed once
    // per cache entry, not per request.
    if (entry.body.byteLength > 1024 && /\bgzip\b/.test(acceptEncoding ?? '')) {
      entry.gzip ??= gzipSync(entry.body, { level: 6 });
      return { body: entry.gzip, headers: { ...entry.headers, 'Content-Encoding': 'gzip' } };
    }
    return { body: entry.body, headers: entry.headers };
  };
  return {
    answer,
    cachedJson: async (c, compute) => {
      const a = await answer(caller(c), queryString(c.req.url), c.req.header('accept-encoding'), compute);
      // A plain Response with plain-object headers stays on @hono/node-server's fast path.
      return typeof a.body === 'string'
        ? c.body(a.body, 200, a.headers)
        : new Response(a.body, { status: 200, headers: a.headers });
    },
    clear,
    get size() {
      return listCache.size;
    },
  };
}
