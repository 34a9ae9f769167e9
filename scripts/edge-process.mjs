// Starts the edge (packages/edge, docs/decisions/0026-edge.md) as its own process from its compiled bundle:
// what `pnpm start` runs on :3000 and the cluster runs behind nginx. The bundle is rebuilt first (~0.3 s,
// once per process), so it always matches the sources.
import { spawn } from 'node:child_process';
import { buildEdge } from '@app/edge/build';
import { waitForHttp } from './wait-for.mjs';

/**
 * @param {object} o
 * @param {number} o.port
 * @param {string} [o.host]
 * @param {Record<string, string | undefined>} [o.env]  SHELL_CONFIG, RELEASE_STORE_DIR, DEPLOY_DIR, … (main.ts)
 * @param {boolean} [o.quiet]
 * @returns {Promise<import('node:child_process').ChildProcess>} once it answers
 */
let bundled = null;

export async function startEdge({ port, host = '0.0.0.0', env = {}, quiet = false }) {
  // Built once per process, however many instances it starts.
  bundled ??= buildEdge();
  const bundle = await bundled;
  const child = spawn(process.execPath, [bundle], {
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: host },
  });
  // Readiness (docs/decisions/0028-process-lifecycle.md): the shell's build is readable, not draining.
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/_edge/ready`;
  try {
    await waitForHttp(url, 20_000, () => child.exitCode === null);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return child;
}
