import {
  API_PATHS,
  type ContentType,
  NamedCountListSchema,
  type Post,
  PostListSchema,
  type PostOrTeaser,
  PostOrTeaserListSchema,
  type Stats,
  StatsSchema,
  type Visibility,
} from '@app/contracts';
import { researchApi as api } from '../../../lib/session-expiry';

// Calls go through researchApi: no redirect on 401, and the pages are told (lib/session-expiry.ts).

export const EXPLORE_LIMIT = 50;

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
  signal?: AbortSignal,
): Promise<PostOrTeaser[]> {
  const { path, params } = buildExploreRequest(visibilities, filters);
  return api.get(path, PostOrTeaserListSchema, { searchParams: params, signal });
}

export function fetchMyPosts(signal?: AbortSignal): Promise<Post[]> {
  return api.get(API_PATHS.myPosts, PostListSchema, {
    searchParams: { limit: 100 },
    signal,
  });
}

export function fetchStats(signal?: AbortSignal): Promise<Stats> {
  return api.get(API_PATHS.stats, StatsSchema, { signal });
}

export function fetchTerms(kind: 'tags' | 'categories', signal?: AbortSignal) {
  return api.get(API_PATHS[kind], NamedCountListSchema, { signal });
}
