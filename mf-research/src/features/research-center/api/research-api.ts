import { api, requestKey, type WithHeaders } from '@app/api-client';
import {
  API_PATHS,
  type ContentType,
  exploreVisibilities,
  NamedCountListSchema,
  NEXT_CURSOR_HEADER,
  type PostCard,
  PostCardListSchema,
  type PostCardOrTeaser,
  PostCardOrTeaserListSchema,
  type Stats,
  StatsSchema,
  type Visibility,
} from '@app/contracts';
import type * as v from 'valibot';

// A 401 ends the session; research screens then say so in place (@app/session, the shell's route table).

export const EXPLORE_LIMIT = 50;
export const MY_POSTS_LIMIT = 100;

/** One page of a list: its cards and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Lists are keyset-paged: the server sends X-Next-Cursor while more exists, and the next page is the same
 * request with `cursor` set to it. An empty header counts as none, so a stray blank never loops.
 */
function toPage<T>({ data, headers }: WithHeaders<T[]>): Page<T> {
  const next = headers.get(NEXT_CURSOR_HEADER)?.trim();
  return { items: data, nextCursor: next ? next : null };
}

async function getPage<T>(
  path: string,
  schema: v.GenericSchema<unknown, T[]>,
  params: URLSearchParams,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<T>> {
  if (cursor) params.set('cursor', cursor);
  return toPage(await api.getWithHeaders(path, schema, { searchParams: params, signal }));
}

/** The first page as the server primed it into the page (a guest's first visit), else undefined. */
function peekFirstPage<T>(path: string, schema: v.GenericSchema<unknown, T[]>, params: URLSearchParams) {
  const primed = api.peekWithHeaders(path, schema, { searchParams: params });
  return primed && toPage(primed);
}

export interface ExploreFilters {
  q: string;
  tag: string;
  category: string;
  contentType: ContentType | '';
}

export const NO_FILTERS: ExploreFilters = { q: '', tag: '', category: '', contentType: '' };

export const hasFilters = (f: ExploreFilters) =>
  f.q.trim() !== '' || f.tag !== '' || f.category !== '' || f.contentType !== '';

/**
 * The Explore request (docs/decisions/0007-explore-visibilities.md). Without filters it is exactly SPEC §6:
 * status=published and one `visibility` param per visibility the session asks for. A search goes to
 * /api/posts/search, and tag/category/type filters go to /api/posts without a visibility list: in both the
 * server answers with every post the caller may open (the §6 access table). `teasers=1` adds the published
 * posts above the caller's tier as teasers (no content), so Explore shows what an upgrade opens.
 */
export function buildExploreRequest(
  visibilities: readonly Visibility[],
  filters: ExploreFilters,
): { path: string; params: URLSearchParams } {
  const params = new URLSearchParams();
  const q = filters.q.trim();
  if (q) params.set('q', q);
  else params.set('status', 'published');
  if (!hasFilters(filters)) for (const vis of visibilities) params.append('visibility', vis);
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.category) params.set('category', filters.category);
  if (filters.contentType) params.set('content_type', filters.contentType);
  params.set('teasers', '1');
  params.set('limit', String(EXPLORE_LIMIT));
  return { path: q ? API_PATHS.searchPosts : API_PATHS.posts, params };
}

export function fetchExplore(
  visibilities: readonly Visibility[],
  filters: ExploreFilters,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<PostCardOrTeaser>> {
  const { path, params } = buildExploreRequest(visibilities, filters);
  return getPage(path, PostCardOrTeaserListSchema, params, cursor, signal);
}

export function peekExplore(
  visibilities: readonly Visibility[],
  filters: ExploreFilters,
): Page<PostCardOrTeaser> | undefined {
  const { path, params } = buildExploreRequest(visibilities, filters);
  return peekFirstPage(path, PostCardOrTeaserListSchema, params);
}

export function fetchMyPosts(cursor: string | null, signal?: AbortSignal): Promise<Page<PostCard>> {
  const params = new URLSearchParams({ limit: String(MY_POSTS_LIMIT) });
  return getPage(API_PATHS.myPosts, PostCardListSchema, params, cursor, signal);
}

export function fetchStats(signal?: AbortSignal): Promise<Stats> {
  return api.get(API_PATHS.stats, StatsSchema, { signal });
}

export function fetchTerms(kind: 'tags' | 'categories', signal?: AbortSignal) {
  return api.get(API_PATHS[kind], NamedCountListSchema, { signal });
}

export const peekTerms = (kind: 'tags' | 'categories') => api.peek(API_PATHS[kind], NamedCountListSchema);

/**
 * What a guest's Research Center asks the API for on arrival (Explore's first page, the tag and category
 * lists): the edge fetches these and primes the page with them (src/prerender.tsx).
 */
export function guestArrivalRequests(): string[] {
  const explore = buildExploreRequest(exploreVisibilities(null), NO_FILTERS);
  return [requestKey(explore.path, explore.params), API_PATHS.tags, API_PATHS.categories];
}
