// `pnpm start`: builds whatever is missing or stale, then serves the production builds of the shell and
// the remotes on 3000-3004 and starts the API server (embedded SQLite, demo content) on 4000.
// The shell's server also serves the release store (/releases/) and the deployment manifest
// (/deployment.json); on a fresh clone each remote's current build is released as its first stable version.
// Env: API_PORT, DB_PATH, REQUIRES_ACTIVATION (see packages/api-server/README.md); SHELL_CONFIG=<file>
// serves that file as the shell's /config.json; NO_API=1 skips the API server; RELEASE_STORE_DIR,
// DEPLOY_DIR, DEPLOY_ENV place the release store and the deployment (packages/release/README.md);
// ROLLOUT_FOLLOW_BUILDS=1 makes each remote's current build its stable version (e2e, or to see your changes).
// Runs under tsx (`node --import tsx`), as it imports the workspace's TypeScript packages.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrapReleases } from '@app/release';
import { rolloutPaths } from '@app/rollout/node';
import { serveApp } from '@app/static-server';
import { API, APPS, ROOT, SHELL_URL } from './apps.mjs';
import { build } from './build.mjs';

const children = [];
function stopAll(code = 0) {
  for (const child of children) child.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

/** Starts the API as a direct child (no pnpm/tsx wrappers in between), so stopping start.mjs stops it. */
export function startApi() {
  if (process.env.NO_API === '1') return null;
  const dir = path.join(ROOT, 'packages', API.name);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    console.warn('packages/api-server is missing: starting the front ends only');
    return null;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, PORT: String(API.port) },
  });
  child.on('exit', (code, signal) => {
    if (signal !== 'SIGTERM') {
      console.error(`the API server stopped (exit ${code ?? signal})`);
      stopAll(1);
    }
  });
  children.push(child);
  return child;
}

/** Resolves once /api/health answers, so nothing is served against an API that is not there yet. */
async function waitForApi(timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://localhost:${API.port}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not answer on port ${API.port} within ${timeoutMs / 1000} s`);
}

async function main() {
  await build({ missing: true });
  const paths = rolloutPaths();
  await bootstrapReleases({
    paths,
    log: (line) => console.log(line),
    followBuilds: process.env.ROLLOUT_FOLLOW_BUILDS === '1',
  });
  const runtimeConfig = process.env.SHELL_CONFIG
    ? JSON.parse(fs.readFileSync(process.env.SHELL_CONFIG, 'utf8'))
    : undefined;
  if (startApi()) await waitForApi();
  // The shell (port 3000) starts last: when it answers, everything else does.
  for (const app of [...APPS].reverse()) {
    await serveApp({
      name: app.name,
      dir: app.dist,
      port: app.port,
      spa: app.spa,
      runtimeConfig: app.name === 'shell' ? runtimeConfig : undefined,
      releases: app.name === 'shell' ? { store: paths.store, manifestFile: paths.manifestFile } : undefined,
    });
    console.log(`${app.name.padEnd(16)} http://localhost:${app.port}`);
  }
  console.log(`api-server       http://localhost:${API.port}`);
  console.log(`releases         ${SHELL_URL}/releases/ (${paths.store})`);
  console.log(`deployment       ${SHELL_URL}/deployment.json (${paths.manifestFile})`);
  console.log(`\nOpen ${SHELL_URL} — Ctrl+C stops everything.`);
}

main().catch((error) => {
  console.error(error.message);
  stopAll(1);
});
