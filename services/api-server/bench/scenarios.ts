/** The rows of issue 17's table: what each call sends, as the front end sends it. */
import type autocannon from 'autocannon';
import { prng, RARE_WORD } from './seed-scale';

export interface Target {
  base: string;
  /** A basic member's bearer header. */
  auth: Record<string, string>;
  /** Ids and slugs of published public posts (single reads, comments, likes). */
  ids: number[];
  slugs: string[];
  /** Path of a page about half-way down the list (cursor when the API offers one, else offset). */
  deepPath: string;
  deepKind: string;
}

export const EXPLORE_PATH =
  '/api/posts?status=published&visibility=public&visibility=members_only&teasers=1&limit=50';
export const searchPath = (q: string) => `/api/posts/search?q=${encodeURIComponent(q)}&teasers=1&limit=50`;

export interface Scenario {
  key: string;
  label: string;
  opts: (t: Target) => Omit<autocannon.Options, 'url'> & { path?: string };
}

/** 70 % list, 15 % single read, 10 % search, 5 % writes (posts, comments, likes), from a seeded PRNG. */
function mixedRequests(t: Target): autocannon.Request[] {
  const rand = prng(5);
  const json = { ...t.auth, 'content-type': 'application/json' };
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  let n = 0;
  return [
    {
      setupRequest: (req) => {
        const r = rand();
        n++;
        if (r < 0.7) return { ...req, method: 'GET', path: EXPLORE_PATH, headers: t.auth };
        if (r < 0.85) return { ...req, method: 'GET', path: `/api/posts/${pick(t.slugs)}`, headers: t.auth };
        if (r < 0.95) {
          const q = pick([RARE_WORD, 'ransomware', 'supplier distress', 'liquid', 'quarter']);
          return { ...req, method: 'GET', path: searchPath(q), headers: t.auth };
        }
        const w = rand();
        if (w < 1 / 3) {
          const body = JSON.stringify({
            title: `Bench note ${n}`,
            summary: 'Written during the mixed load',
            content: `## Bench\n\nA short note about supplier risk, number ${n}.`,
            content_type: 'research_report',
            visibility: 'members_only',
            status: 'published',
            tags: ['bench'],
            categories: ['Benchmarks'],
          });
          return { ...req, method: 'POST', path: '/api/posts', headers: json, body };
        }
        if (w < 2 / 3) {
          const body = JSON.stringify({ content: `Comment ${n}` });
          return { ...req, method: 'POST', path: `/api/posts/${pick(t.ids)}/comments`, headers: json, body };
        }
        return { ...req, method: 'POST', path: `/api/posts/${pick(t.ids)}/like`, headers: t.auth };
      },
    },
  ];
}

export const SCENARIOS: Scenario[] = [
  { key: 'home', label: 'anonymous list, limit 6 (Home)', opts: () => ({ path: '/api/posts?limit=6' }) },
  {
    key: 'explore',
    label: 'member list, public + members, limit 50 (Explore)',
    opts: (t) => ({ path: EXPLORE_PATH, headers: t.auth }),
  },
  {
    key: 'single',
    label: 'single post by slug',
    opts: (t) => ({ path: `/api/posts/${t.slugs[0]}`, headers: t.auth }),
  },
  {
    key: 'searchRare',
    label: `search, a word in 5 posts ("${RARE_WORD}")`,
    opts: (t) => ({ path: searchPath(RARE_WORD), headers: t.auth }),
  },
  {
    key: 'searchCommon',
    label: 'search, a word in ~99 % of posts ("risk")',
    opts: (t) => ({ path: searchPath('risk'), headers: t.auth }),
  },
  { key: 'tags', label: '/api/posts/tags', opts: (t) => ({ path: '/api/posts/tags', headers: t.auth }) },
  {
    key: 'categories',
    label: '/api/posts/categories',
    opts: (t) => ({ path: '/api/posts/categories', headers: t.auth }),
  },
  { key: 'report', label: '/api/report', opts: (t) => ({ path: '/api/report', headers: t.auth }) },
  { key: 'deep', label: 'a page deep in the list', opts: (t) => ({ path: t.deepPath, headers: t.auth }) },
  {
    key: 'mixed',
    label: 'mixed 70/15/10/5 (list/read/search/writes)',
    opts: (t) => ({ requests: mixedRequests(t) }),
  },
];

/**
 * A page about `depth` posts down. When the first page names a next cursor (body or header), follow it;
 * otherwise ask with offset, the only way the API offers.
 */
export async function findDeepPage(
  base: string,
  auth: Record<string, string>,
  depth: number,
): Promise<{ path: string; kind: string }> {
  const pageSize = 100;
  let path = `/api/posts?status=published&limit=${pageSize}`;
  const first = await fetch(`${base}${path}`, { headers: auth });
  const cursorOf = async (res: Response): Promise<string | null> => {
    const header = res.headers.get('x-next-cursor');
    if (header) return header;
    const body = (await res.json()) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const b = body as Record<string, unknown>;
      const c = b.next_cursor ?? b.nextCursor ?? b.cursor;
      if (typeof c === 'string' && c) return c;
    }
    return null;
  };
  let cursor = await cursorOf(first);
  if (cursor === null) {
    return { path: `/api/posts?status=published&limit=50&offset=${depth}`, kind: `offset=${depth}` };
  }
  let seen = pageSize;
  const until = Date.now() + 60_000;
  while (cursor && seen < depth && Date.now() < until) {
    path = `/api/posts?status=published&limit=${pageSize}&cursor=${encodeURIComponent(cursor)}`;
    const next = await cursorOf(await fetch(`${base}${path}`, { headers: auth }));
    if (!next) break;
    cursor = next;
    seen += pageSize;
  }
  return {
    path: `/api/posts?status=published&limit=50&cursor=${encodeURIComponent(cursor ?? '')}`,
    kind: `cursor after ${seen} posts`,
  };
}
