// Every app of the product, declared once (issue 13): its folder, its Module Federation container and its
// default port. The webpack configs, `pnpm build/start/dev`, the benchmarks and the import rules read it;
// the runtime contract's REMOTE_NAMES (packages/federation) is checked against it by webpack.test.mjs.
// The runtime config files (shell/public/config.json, e2e/support/e2e-config.json) are deployment data:
// they name where each remote is served, which is these ports only on a developer's machine.
/** What every remote exposes (rule 2 of ARCHITECTURE.md): one module, './App', the shell renders. */
const EXPOSES = { './App': './src/app.tsx' };

export const APPS = [
  { name: 'shell', container: 'shell', port: 3000, spa: true },
  { name: 'mf-account', container: 'mf_account', port: 3001, exposes: EXPOSES },
  { name: 'mf-research', container: 'mf_research', port: 3002, exposes: EXPOSES },
  { name: 'mf-survey', container: 'mf_survey', port: 3003, exposes: EXPOSES },
  { name: 'mf-public-pages', container: 'mf_public_pages', port: 3004, exposes: EXPOSES },
];

/** The declaration of one app, by folder name; throws on a name that is not an app. */
export function appNamed(name) {
  const app = APPS.find((candidate) => candidate.name === name);
  if (!app) throw new Error(`${name} is not an app (tooling/webpack/apps.mjs)`);
  return app;
}
