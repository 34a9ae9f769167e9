// `pnpm start`: builds whatever is missing or stale, then starts the edge on 3000 (the shell's pages, composed
// per visitor, docs/decisions/0026-edge.md; from its compiled bundle, as in the cluster), serves the remotes'
// production builds on 3001-3004 (one process from the edge's bundle) and starts the API server (embedded SQLite, demo content) on 4000.
// The edge also serves the release store (/releases/) and the deployment manifest (/deployment.json); on a
// fresh clone each remote's current build is released as its first stable version.
// Env: API_PORT, DB_PATH, REQUIRES_ACTIVATION (see packages/api-server/README.md); SHELL_CONFIG=<file>
// serves that file as the shell's /config.json; NO_API=1 skips the API server; RELEASE_STORE_DIR,
// DEPLOY_DIR, DEPLOY_ENV place the release store and the deployment (packages/release/README.md);
// ROLLOUT_FOLLOW_BUILDS=1 makes each remote's current build its stable version (e2e, or to see your changes).
// Runs under tsx (`node --import tsx`), as it imports the workspace's TypeScript packages; the edge and the
// API themselves run from their compiled bundles with plain node (docs/decisions/0028-process-lifecycle.md).
import fs from 'node:fs';
import path from 'node:path';
import { bootstrapReleases } from '@app/release';
import { rolloutPaths } from '@app/rollout/node';
import { startApi } from './api-process.mjs';
import { API, APPS, ROOT, SHELL_URL } from './apps.mjs';
import { build } from './build.mjs';
import { startEdge, startFileServers } from './edge-process.mjs';

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
async function startApiServer() {
  if (process.env.NO_API === '1') return null;
  if (!fs.existsSync(path.join(ROOT, 'packages', API.name, 'package.json'))) {
    console.warn('packages/api-server is missing: starting the front ends only');
    return null;
  }
  const child = await startApi({ port: API.port, host: process.env.HOST ?? '0.0.0.0' });
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

async function main() {
  await build({ missing: true });
  const paths = rolloutPaths();
  await bootstrapReleases({
    paths,
    log: (line) => console.log(line),
    followBuilds: process.env.ROLLOUT_FOLLOW_BUILDS === '1',
  });
  // Nothing is served against an API that is not there yet.
  await startApiServer();
  const remotes = APPS.filter((a) => a.name !== 'shell');
  const files = await startFileServers(
    remotes.map((app) => ({ name: app.name, dir: app.dist, port: app.port })),
    { quiet: true },
  );
  watchChild(files, "the remotes' file servers");
  for (const app of remotes) console.log(`${app.name.padEnd(16)} http://localhost:${app.port}`);
  // The edge (port 3000) starts last: when it answers, everything else does.
  const shell = APPS.find((a) => a.name === 'shell');
  const edge = await startEdge({
    port: shell.port,
    env: {
      SHELL_DIST: shell.dist,
      ...(process.env.SHELL_CONFIG ? { SHELL_CONFIG: path.resolve(process.env.SHELL_CONFIG) } : {}),
      RELEASE_STORE_DIR: paths.store,
      DEPLOY_DIR: paths.deployDir,
    },
  });
  watchChild(edge, 'the edge');
  console.log(`${'edge (shell)'.padEnd(16)} http://localhost:${shell.port}`);
  console.log(`api-server       http://localhost:${API.port}`);
  console.log(`releases         ${SHELL_URL}/releases/ (${paths.store})`);
  console.log(`deployment       ${SHELL_URL}/deployment.json (${paths.manifestFile})`);
  console.log(`\nOpen ${SHELL_URL} — Ctrl+C stops everything.`);
}

main().catch((error) => {
  console.error(error.message);
  stopAll(1);
});
