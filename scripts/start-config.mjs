// `pnpm start`'s one configuration module (issue 35): every variable scripts/start.mjs reads, with its
// default (docs/configuration.md lists them). What the API and the edge read themselves is passed through
// the environment untouched; what start.mjs decides for them (ports, origins, the API's address) is here.
import { API, APPS } from './apps.mjs';

/** Both names a local origin has. */
const originsOf = (ports) =>
  ports.flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`]);

/**
 * PORT_OFFSET: added to every app's declared port (3000-3004) and to staging's default, so a second stack
 * (the e2e suite's) runs beside a `pnpm start` without sharing a port with it.
 */
function portOffset(env) {
  const offset = Number(env.PORT_OFFSET ?? 0);
  if (!Number.isInteger(offset) || offset < 0 || offset > 20_000)
    throw new Error(`PORT_OFFSET must be a whole number from 0 to 20000, not "${env.PORT_OFFSET}"`);
  return offset;
}

/** Where each environment is served: DEPLOY_ENV on the shell's port, staging beside it on STAGING_PORT. */
function servedEnvironments(env, shellPort, offset) {
  const main = env.DEPLOY_ENV || 'production';
  const known = (env.DEPLOY_ENVIRONMENTS || 'staging,production').split(',').map((e) => e.trim());
  const stagingPort = Number(env.STAGING_PORT ?? 3010 + offset);
  const staging =
    stagingPort > 0 && main !== 'staging' && known.includes('staging') ? { staging: stagingPort } : {};
  return { [main]: shellPort, ...staging };
}

/**
 * @param {Record<string, string | undefined>} [env]
 * @param {{ apiPort?: number, apps?: { name: string, port: number }[] }} [o]  API_PORT as apps.mjs read it
 */
export function startConfig(env = process.env, { apiPort = API.port, apps: declared = APPS } = {}) {
  const offset = portOffset(env);
  const apps = declared.map((app) => ({ ...app, port: app.port + offset }));
  const shell = apps.find((a) => a.name === 'shell');
  const served = servedEnvironments(env, shell.port, offset);
  return {
    /** Every app with the port it is served on here (its declared port plus PORT_OFFSET). */
    apps,
    /** NO_API=1: no API server (pages then use config.json's addresses). */
    noApi: env.NO_API === '1',
    host: env.HOST ?? '0.0.0.0',
    apiPort,
    /**
     * The API as the browser reaches it, handed to the edge as API_BASE_URL: from API_PORT, so the pages
     * follow the API when it moves (shell/public/config.json names :4000); API_BASE_URL set wins.
     */
    apiBaseUrl: env.API_BASE_URL || `http://localhost:${apiPort}`,
    /** environment -> port of the edge's listener. */
    served,
    /**
     * CORS_ORIGINS for the API and the files alike: every environment's pages and the remotes' own (their
     * dev frames call the API), unless CORS_ORIGINS says otherwise.
     */
    corsOrigins:
      env.CORS_ORIGINS ||
      [
        ...originsOf(Object.values(served)),
        ...originsOf(apps.filter((a) => a !== shell).map((a) => a.port)),
      ].join(','),
    /** SHELL_CONFIG=<file>: served as the shell's /config.json instead of the build's. */
    shellConfig: env.SHELL_CONFIG || undefined,
    /**
     * SHELL_DIST=<folder>: the live shell, where `pnpm ship-shell` writes (issue 45); filled from shell/dist
     * when it has no build yet. The API's compatibility gate reads its mf-manifest.json (SHELL_MANIFEST).
     * Unset: shell/dist itself, which `pnpm build` replaces.
     */
    shellDist: env.SHELL_DIST || undefined,
    /** ROLLOUT_FOLLOW_BUILDS=1: each remote's current build becomes its stable version everywhere. */
    followBuilds: env.ROLLOUT_FOLLOW_BUILDS === '1',
  };
}
