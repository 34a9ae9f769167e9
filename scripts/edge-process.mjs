// Starts the edge (services/edge, docs/decisions/0026-edge.md) as its own process from its compiled bundle:
// what `pnpm start` runs on :3000 and the cluster runs behind nginx. The bundle is rebuilt first (~0.3 s,
// once per process), so it always matches the sources.
import { spawn } from 'node:child_process';
import { edgeEnvironment } from '@app/edge';
import { buildEdge, FILES_BUNDLE } from '@app/edge/build';
import { waitForHttp } from './wait-for.mjs';

/**
 * @param {object} o
 * @param {number} o.port
 * @param {string} [o.host]
 * @param {Record<string, string | undefined>} [o.env]  SHELL_CONFIG, RELEASE_STORE_DIR, EDGE_SECRET, API_URL,
 *   DEPLOY_ENV, EXTRA_ENVIRONMENTS, … (main.ts); of this and the process's own environment the edge gets only
 *   the variables it reads (edgeEnvironment): never the API's secrets nor the deploy folder
 * @param {boolean} [o.quiet]
 * @param {string} [o.readyPath]  what "up" means: /_edge/ready (default: its first deployment from the API
 *   has arrived), or /_edge/live (it answers; without an API)
 * @returns {Promise<import('node:child_process').ChildProcess>} once it answers
 */
let bundled = null;

export async function startEdge({
  port,
  host = '0.0.0.0',
  env = {},
  quiet = false,
  readyPath = '/_edge/ready',
}) {
  // Built once per process, however many instances it starts.
  bundled ??= buildEdge();
  const bundle = await bundled;
  const child = spawn(process.execPath, [bundle], {
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: edgeEnvironment({ ...process.env, ...env, PORT: String(port), HOST: host }),
  });
  // Readiness (docs/decisions/0028-process-lifecycle.md): the shell's build is readable, not draining, and
  // the deployment has come from the API's feed.
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}${readyPath}`;
  try {
    await waitForHttp(url, 20_000, () => child.exitCode === null);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return child;
}

/**
 * The remotes' builds as plain file servers (services/edge/src/files-main.ts), one process from the same
 * compiled bundle; resolves once every port answers.
 * @param {{ name: string, dir: string, port: number }[]} apps
 * @param {{ host?: string, quiet?: boolean, env?: Record<string, string> }} [o]
 * @returns {Promise<import('node:child_process').ChildProcess>}
 */
export async function startFileServers(apps, { host = '0.0.0.0', quiet = false, env = {} } = {}) {
  bundled ??= buildEdge();
  await bundled;
  const child = spawn(process.execPath, [FILES_BUNDLE], {
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: edgeEnvironment({ ...process.env, ...env, HOST: host, FILE_SERVERS: JSON.stringify(apps) }),
  });
  const local = host === '0.0.0.0' ? '127.0.0.1' : host;
  try {
    for (const app of apps)
      await waitForHttp(
        `http://${local}:${app.port}/mf-manifest.json`,
        20_000,
        () => child.exitCode === null,
      );
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return child;
}
