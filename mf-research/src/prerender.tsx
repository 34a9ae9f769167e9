// The Research Center as a guest first sees it (heading, tabs, the list loading), pre-rendered at build time
// into dist/prerender.json (tooling/webpack/prerender.mjs). A post's page depends on the post and the
// visitor's tier, so it is not pre-rendered.
import App from './app';

export const prerenderPaths = ['/research-center'];

export function Prerender(_props: { path: string }) {
  return <App />;
}
