import { api, errorMessage, requestKey } from '@app/api-client';
import {
  API_PATHS,
  type Dashboard,
  DashboardListSchema,
  MESSAGES,
  type PostCard,
  PostCardListSchema,
} from '@app/contracts';

/** SPEC §9: Home shows the 6 latest articles. */
export const HOME_ARTICLE_LIMIT = 6;

export interface HomeData {
  posts: PostCard[];
  dashboards: Dashboard[];
  /** The message to show when a call failed (SPEC §8): the server's error or 'Error loading homepage data'. */
  error: string | null;
}

/** The latest articles' query: one place, so the page asks exactly what the server primed (homeRequests). */
const latestArticles = () =>
  new URLSearchParams({ status: 'published', visibility: 'public', limit: String(HOME_ARTICLE_LIMIT) });

// The server already limits, but the page promises at most 6 whatever it answers.
const atMostSix = (posts: PostCard[]) => posts.slice(0, HOME_ARTICLE_LIMIT);

/**
 * SPEC §7: posts and dashboards load in parallel. A failed call leaves its list empty and yields one error
 * message; the other list still shows, since nothing is gained by hiding data that did arrive.
 */
export async function loadHome(signal?: AbortSignal): Promise<HomeData> {
  const [posts, dashboards] = await Promise.allSettled([
    api.get(API_PATHS.posts, PostCardListSchema, { signal, searchParams: latestArticles() }),
    api.get(API_PATHS.dashboards, DashboardListSchema, { signal }),
  ]);
  const failure = [posts, dashboards].find((r) => r.status === 'rejected');
  return {
    posts: posts.status === 'fulfilled' ? atMostSix(posts.value) : [],
    dashboards: dashboards.status === 'fulfilled' ? dashboards.value : [],
    error: failure ? errorMessage(failure.reason, MESSAGES.home.loadFailed) : null,
  };
}

/**
 * What Home's first screen is made from (the same for every visitor: public articles and the dashboards):
 * the edge fetches these and renders the page with them (src/prerender.tsx, decision 0021).
 */
export const homeRequests = (): string[] => [
  requestKey(API_PATHS.posts, latestArticles()),
  API_PATHS.dashboards,
];

/** loadHome's answer from what the server primed the page with (a guest's first visit), else undefined. */
export function peekHome(): HomeData | undefined {
  const posts = api.peek(API_PATHS.posts, PostCardListSchema, { searchParams: latestArticles() });
  const dashboards = api.peek(API_PATHS.dashboards, DashboardListSchema);
  if (!posts || !dashboards) return undefined;
  return { posts: atMostSix(posts), dashboards, error: null };
}
