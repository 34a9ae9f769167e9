// The pages whose first screen is the same for every guest, pre-rendered at build time into
// dist/prerender.json (tooling/webpack/prerender.mjs): the shell's page shows them before any script runs.
// Pages behind lazy() (Plans, Impressum, dashboards) would pre-render as their loading line, and Contact's
// channels come from the API into a space not reserved (the picture would make their arrival a layout
// shift), so they are left out.
import App from './app';

export const prerenderPaths = ['/', '/about'];

export function Prerender(_props: { path: string }) {
  return <App />;
}
