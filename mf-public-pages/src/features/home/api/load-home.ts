import { api, errorMessage } from '@app/api-client';
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

/**
 * SPEC §7: posts and dashboards load in parallel. A failed call leaves its list empty and yields one error
 * message; the other list still shows, since nothing is gained by hiding data that did arrive.
 */
export async function loadHome(signal?: AbortSignal): Promise<HomeData> {
  const [posts, dashboards] = await Promise.allSettled([
    api.get(API_PATHS.posts, PostCardListSchema, {
      signal,
      searchParams: { status: 'published', visibility: 'public', limit: HOME_ARTICLE_LIMIT },
    }),
    api.get(API_PATHS.dashboards, DashboardListSchema, { signal }),
  ]);
  const failure = [posts, dashboards].find((r) => r.status === 'rejected');
  return {
    // The server already limits, but the page promises at most 6 whatever it answers.
    posts: posts.status === 'fulfilled' ? posts.value.slice(0, HOME_ARTICLE_LIMIT) : [],
    dashboards: dashboards.status === 'fulfilled' ? dashboards.value : [],
    error: failure ? errorMessage(failure.reason, MESSAGES.home.loadFailed) : null,
  };
}
