// The pages whose first screen is the same for every guest, pre-rendered (tooling/webpack/prerender.mjs):
// - at build time into dist/prerender.json: the shell's page shows them before any script runs;
// - Home also per request, by the edge, with its articles and dashboards from the API
//   (docs/decisions/0021-first-screen-with-data.md): the picture shows them instead of their loading
//   state, and the live page starts from the same answers.
// Pages behind lazy() (Plans, Impressum, dashboards) would pre-render as their loading line, and Contact's
// channels come from the API into a space not reserved (the picture would make their arrival a layout
// shift), so they are left out.
import App from './app';
import { homeRequests } from './features/home/api/load-home';

export const prerenderPaths = ['/', '/about'];

/** The API requests (path and query) whose answers the picture of `path` is rendered from, or null. */
export function serverRequests(path: string): string[] | null {
  return path === '/' ? homeRequests() : null;
}

export function Prerender(_props: { path: string }) {
  return <App />;
}
