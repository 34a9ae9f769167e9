// `pnpm start`: builds whatever is missing or stale, then starts the API server (embedded SQLite, demo
// content) on 4000, releases each remote's current build through the API's deploy API (the first stable
// version of each remote in every environment, on a fresh clone), serves the remotes' production builds on
// 3001-3004 (one process from the edge's bundle) and starts the edge (the shell's pages, composed per
// visitor, docs/decisions/0026-edge.md; from its compiled bundle, as in the cluster): production on 3000
// and staging on 3010, one process, each following its deployment through the API's feed.
// The edge also serves the release store (/releases/) and each environment's manifest (/deployment.json).
// Env (read in scripts/start-config.mjs; every variable: docs/configuration.md): API_PORT moves the API and
// the pages with it (the edge is told API_BASE_URL); SHELL_CONFIG=<file> serves that file as the shell's
// /config.json; NO_API=1 skips the API server (pages then use config.json's addresses); RELEASE_STORE_DIR,
// DEPLOY_DIR place the release store and the deploy folder (the local deploy token, the secrets); DEPLOY_ENV
// (production) is what :3000 serves, STAGING_PORT (3010) where staging is served (when DEPLOY_ENVIRONMENTS,
// default staging,production, names it; 0: not at all); CORS_ORIGINS replaces the origins the API and the
// files admit; ROLLOUT_FOLLOW_BUILDS=1 makes each remote's current build its stable version in every
// environment (e2e, or to see your changes). The API's own variables (DB_PATH, …) pass through.
// Runs under tsx (`node --import tsx`), as it imports the workspace's TypeScript packages; the edge and the
// API themselves run from their compiled bundles with plain node (docs/decisions/0028-process-lifecycle.md).
import fs from 'node:fs';
import path from 'node:path';
import { bootstrapReleases } from '@app/release';
import { ensureEdgeSecret, rolloutPaths } from '@app/rollout/node';
import { startApi } from './api-process.mjs';
import { API } from './apps.mjs';
import { build } from './build.mjs';
import { startEdge, startFileServers } from './edge-process.mjs';
import { startConfig } from './start-config.mjs';

const config = startConfig();

const children = [];
function stopAll(code = 0) {
  for (const child of children) child.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

/**
 * Starts the API from its bundle as a direct child (no pnpm/tsx wrappers in between), so stopping start.mjs
 * stops it; resolves once it is ready.
 */
async function startApiServer(env) {
  if (config.noApi) return null;
  if (!fs.existsSync(path.join(API.dir, 'package.json'))) {
    console.warn('services/api-server is missing: starting the front ends only');
    return null;
  }
  const child = await startApi({ port: config.apiPort, host: config.host, env });
  watchChild(child, 'the API server');
  return child;
}

/** A child that stops by itself stops everything: `pnpm start` is all or nothing. */
function watchChild(child, what) {
  child.on('exit', (code, signal) => {
    if (signal !== 'SIGTERM') {
      console.error(`${what} stopped (exit ${code ?? signal})`);
      stopAll(1);
    }
  });
  children.push(child);
}

/**
 * The shell the edge serves and the gate reads: SHELL_DIST when set (filled from the build the first time:
 * from then on `pnpm ship-shell` changes it, checked against every live remote), else shell/dist.
 */
function liveShell(shell) {
  if (!config.shellDist) return shell;
  const dist = path.resolve(config.shellDist);
  if (!fs.existsSync(path.join(dist, 'index.html'))) fs.cpSync(shell.dist, dist, { recursive: true });
  return { ...shell, dist };
}

async function main() {
  await build({ missing: true });
  const paths = rolloutPaths();
  const shell = liveShell(config.apps.find((a) => a.name === 'shell'));
  const shellUrl = `http://localhost:${shell.port}`;
  const served = config.served;
  // One CORS_ORIGINS for the API and the files (every environment's pages are an origin of their own).
  const corsEnv = { CORS_ORIGINS: config.corsOrigins };
  // Nothing is served against an API that is not there yet: ready means migrated, seeded, and its local
  // deploy token written.
  const api = await startApiServer({
    ...corsEnv,
    RELEASE_STORE_DIR: paths.store,
    DEPLOY_DIR: paths.deployDir,
    // The compatibility gate's reference: the shell this stack serves.
    SHELL_MANIFEST: path.join(shell.dist, 'mf-manifest.json'),
  });
  const apiUrl = `http://127.0.0.1:${config.apiPort}`;
  if (api) {
    // Through the deploy API, as any team's pipeline would: each remote's current build uploaded (the same
    // bytes again are a no-op) and made the stable version wherever a remote has none (or everywhere, with
    // ROLLOUT_FOLLOW_BUILDS=1).
    const bootstrapped = await bootstrapReleases({
      apiUrl,
      env: { ...process.env, DEPLOY_DIR: paths.deployDir },
      log: (line) => console.log(line),
      followBuilds: config.followBuilds,
    });
    for (const { remote, stables } of bootstrapped)
      for (const [env, stable] of Object.entries(stables))
        if (!stable)
          console.warn(
            `warning: ${remote} has no stable version in ${env}: its pages use config.json's address`,
          );
  } else {
    console.warn("no API: pages use config.json's addresses (no deployment, no releases)");
  }
  const remotes = config.apps.filter((a) => a.name !== 'shell');
  const files = await startFileServers(
    remotes.map((app) => ({ name: app.name, dir: app.dist, port: app.port })),
    { quiet: true, env: corsEnv },
  );
  watchChild(files, "the remotes' file servers");
  for (const app of remotes) console.log(`${app.name.padEnd(16)} http://localhost:${app.port}`);
  // The edge starts last: when it answers, everything else does. One process, one listener per environment.
  const [mainEnv, ...others] = Object.keys(served);
  const edge = await startEdge({
    port: shell.port,
    env: {
      ...corsEnv,
      SHELL_DIST: shell.dist,
      ...(config.shellConfig ? { SHELL_CONFIG: path.resolve(config.shellConfig) } : {}),
      RELEASE_STORE_DIR: paths.store,
      // The deploy folder's edge-secret, which the API reads too (the edge itself never reads the folder).
      EDGE_SECRET: ensureEdgeSecret(paths),
      DEPLOY_ENV: mainEnv,
      EXTRA_ENVIRONMENTS: others.map((env) => `${env}:${served[env]}`).join(','),
      API_URL: apiUrl,
      // The pages' API address follows API_PORT (config.json's :4000 would be wrong when the API moves).
      ...(api ? { API_BASE_URL: config.apiBaseUrl } : {}),
    },
    // Without an API there is no deployment to wait for.
    readyPath: api ? '/_edge/ready' : '/_edge/live',
  });
  watchChild(edge, 'the edge');
  for (const [env, port] of Object.entries(served))
    console.log(`${`edge (${env})`.padEnd(16)} http://localhost:${port}`);
  console.log(`api-server       http://localhost:${config.apiPort}`);
  console.log(`releases         ${shellUrl}/releases/ (${paths.store})`);
  for (const [env, port] of Object.entries(served))
    console.log(
      `${`deployment`.padEnd(16)} http://localhost:${port}/deployment.json (${env}, from ${apiUrl})`,
    );
  const staging = served.staging ? `; staging: http://localhost:${served.staging}` : '';
  console.log(`\nOpen ${shellUrl} (${mainEnv}${staging}) — Ctrl+C stops everything.`);
}

main().catch((error) => {
  console.error(error.message);
  stopAll(1);
});
