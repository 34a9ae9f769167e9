// The Research Center's first screen, pre-rendered (tooling/webpack/prerender.mjs).
// - At build time, as a guest first sees it while its list loads (heading, tabs, skeleton cards):
//   dist/prerender.json, the picture used when the API cannot be asked.
// - Per request, by the static server, with the answers a guest's arrival needs (Explore's first page, the
//   tag and category lists; docs/decisions/0021-first-screen-with-data.md): the picture then shows the
//   cards, and the live page starts from the same answers, so the largest paint no longer waits for
//   JavaScript and the API.
// A post's page needs its body's HTML sanitised with a DOM (lib/markdown.ts), so it is not pre-rendered.

import App from './app';
import { guestArrivalRequests } from './features/research-center';

export const prerenderPaths = ['/research-center'];

/** The API requests (path and query) whose answers the picture of `path` is rendered from, or null. */
export function serverRequests(path: string): string[] | null {
  return path === '/research-center' ? guestArrivalRequests() : null;
}

export function Prerender(_props: { path: string }) {
  return <App />;
}
