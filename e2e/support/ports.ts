/**
 * Where the single-topology suite runs its own stack (issue 35): `pnpm start`'s ports plus E2E_PORT_OFFSET
 * (default 300: the pages on 3300, the remotes' files on 3301-3304, staging on 3310) and the API on
 * E2E_API_PORT (4400). A `pnpm start` on 3000-3004, 3010 and 4000 keeps running beside it and is never the
 * stack under test. The cluster topology (playwright.cluster.config.ts) sets E2E_SHELL_URL to its nginx.
 */
export const E2E_PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 300);
export const E2E_API_PORT = Number(process.env.E2E_API_PORT ?? 4400);

/** A port `pnpm start` declares (tooling/webpack/apps.mjs), where the suite's own stack serves it. */
export const suitePort = (declared: number) => declared + E2E_PORT_OFFSET;

/** The origin of the pages under test. */
export const SHELL_URL = process.env.E2E_SHELL_URL ?? `http://localhost:${suitePort(3000)}`;

/** The remotes' own file servers of the suite's stack (the runtime config's plain `url`s). */
export const REMOTE_URLS = {
  mf_account: `http://localhost:${suitePort(3001)}/mf-manifest.json`,
  mf_research: `http://localhost:${suitePort(3002)}/mf-manifest.json`,
  mf_survey: `http://localhost:${suitePort(3003)}/mf-manifest.json`,
  mf_public_pages: `http://localhost:${suitePort(3004)}/mf-manifest.json`,
} as const;
