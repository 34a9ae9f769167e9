import { gzipSync } from 'node:zlib';
import { NEXT_CURSOR_HEADER } from '@app/contracts';
import type { Page } from '../services/cursor';
import { type JsonText, listBody } from '../services/post-model';
import { type C, caller } from './hono-env';

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

export interface ListCache {
  /** The cached JSON answer (a page) for this caller, roles and URL, computing it on a miss. */
  cachedJson(c: C, compute: () => Promise<Page<JsonText<unknown>>>): Promise<Response>;
  clear(): void;
  readonly size: number;
}

/**
 * The serialized answers of GET /api/posts, per caller, roles and URL. Any write through this server
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
  const cachedJson = async (c: C, compute: () => Promise<Page<JsonText<unknown>>>) => {
    // Off: the page is sent as the text it was built as (one write with its head), never copied to bytes.
    if (maxEntries <= 0) return pageJson(c, await compute());
    // Another API instance on the same database (or the admin CLI) wrote since the last look: start afresh.
    // (Not asked when nothing is kept: on PostgreSQL the question is a query of its own.)
    if (await othersWrote()) clear();
    const who = caller(c);
    const key = `${who?.userId ?? 0}|${who?.roles.join(',') ?? '-'}|${c.req.url}`;
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
    if (entry.body.byteLength > 1024 && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      entry.gzip ??= gzipSync(entry.body, { level: 6 });
      return new Response(entry.gzip, {
        status: 200,
        headers: { ...entry.headers, 'Content-Encoding': 'gzip' },
      });
    }
    // A plain Response with plain-object headers stays on @hono/node-server's fast path.
    return new Response(entry.body, { status: 200, headers: entry.headers });
  };
  return {
    cachedJson,
    clear,
    get size() {
      return listCache.size;
    },
  };
}
