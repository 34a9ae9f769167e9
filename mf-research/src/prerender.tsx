// First screens pre-rendered (tooling/webpack/prerender.mjs).
// - At build time, the Research Center as a guest first sees it while its list loads (heading, tabs,
//   skeleton cards): dist/prerender.json, the picture used when the API cannot be asked.
// - Per request, by the edge, with the answers a guest's arrival needs: the Research Center's
//   cards (Explore's first page, the tag and category lists; docs/decisions/0021-first-screen-with-data.md)
//   and a post's page (the post; docs/decisions/0022-post-page-rendered-per-request.md). The picture then
//   shows the data, and the live page starts from the same answers, so the largest paint no longer waits
//   for JavaScript and the API.

import { matchPath } from '@app/router';
import type { WindowLike } from 'dompurify';
import App from './app';
import { preloadDeferred } from './components/deferred-component';
import { POST_ROUTE, postPageRequests } from './features/post';
import { guestArrivalRequests } from './features/research-center';
import { sanitiseWith } from './lib/markdown';

// renderToString cannot wait for a page evaluated on first use (components/deferred-component.ts).
await preloadDeferred();

export const prerenderPaths = ['/research-center'];

/** The API requests (path and query) whose answers the picture of `path` is rendered from, or null. */
export function serverRequests(path: string): string[] | null {
  if (path === '/research-center') return guestArrivalRequests();
  const id = matchPath(POST_ROUTE, path)?.params.id;
  return id ? postPageRequests(id) : null;
}

/** `dom`: the window the edge lends a per-request render to sanitise a post's body with. */
export function Prerender({ dom }: { path: string; dom?: WindowLike }) {
  if (dom) sanitiseWith(dom);
  return <App />;
}
