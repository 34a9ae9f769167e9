import { gzipSync } from 'node:zlib';
import { type C, caller } from './http-helpers';

const JSON_HEADERS = { 'Content-Type': 'application/json', Vary: 'Origin, Accept-Encoding' };
const GZIP_JSON_HEADERS = { ...JSON_HEADERS, 'Content-Encoding': 'gzip' };

export interface ListCache {
  /** The cached JSON answer for this caller, roles and URL, computing it on a miss. */
  cachedJson(c: C, compute: () => unknown): Response;
  clear(): void;
  readonly size: number;
}

/**
 * The serialized answers of GET /api/posts, per caller, roles and URL. Any write through this server
 * (every non-GET request, and a single read, which counts a view) empties it, so an answer is never stale
 * for data this process changed; nothing else writes posts.
 */
export function createListCache(maxEntries: number): ListCache {
  const listCache = new Map<string, { body: Uint8Array; gzip?: Uint8Array }>();
  const cachedJson = (c: C, compute: () => unknown) => {
    const who = caller(c);
    const key = `${who?.userId ?? 0}|${who?.roles.join(',') ?? '-'}|${c.req.url}`;
    let entry = listCache.get(key);
    if (entry === undefined) {
      // Kept as bytes: a hit then writes the same buffer, with no per-request encoding or garbage.
      entry = { body: Buffer.from(JSON.stringify(compute())) };
      if (maxEntries > 0) {
        if (listCache.size >= maxEntries) listCache.clear();
        listCache.set(key, entry);
      }
    }
    // Browsers send Accept-Encoding: gzip; a list is ~25 KB of Markdown and compresses ~4x. Compressed once
    // per cache entry, not per request.
    if (entry.body.byteLength > 1024 && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      entry.gzip ??= gzipSync(entry.body, { level: 6 });
      return new Response(entry.gzip, { status: 200, headers: GZIP_JSON_HEADERS });
    }
    // A plain Response with plain-object headers stays on @hono/node-server's fast path.
    return new Response(entry.body, { status: 200, headers: JSON_HEADERS });
  };
  return {
    cachedJson,
    clear: () => listCache.clear(),
    get size() {
      return listCache.size;
    },
  };
}
