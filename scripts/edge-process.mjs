// Starts the edge (packages/edge, docs/decisions/0026-edge.md) as its own process from its compiled bundle:
// what `pnpm start` runs on :3000 and the cluster runs behind nginx. The bundle is rebuilt first (~0.3 s),
// so it always matches the sources.
import { spawn } from 'node:child_process';
import { buildEdge } from '@app/edge/build';

/**
 * @param {object} o
 * @param {number} o.port
 * @param {string} [o.host]
 * @param {Record<string, string | undefined>} [o.env]  SHELL_CONFIG, RELEASE_STORE_DIR, DEPLOY_DIR, … (main.ts)
 * @param {boolean} [o.quiet]
 * @returns {Promise<import('node:child_process').ChildProcess>} once it answers
 */
export async function startEdge({ port, host = '0.0.0.0', env = {}, quiet = false }) {
  const bundle = await buildEdge();
  const child = spawn(process.execPath, [bundle], {
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: host },
  });
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/_edge/status`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the edge on ${port} exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`the edge did not answer on ${port} within 20 s`);
}
