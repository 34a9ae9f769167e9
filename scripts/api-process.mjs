// Starts the API (services/api-server) as its own process from its compiled bundle
// (docs/decisions/0028-process-lifecycle.md): what `pnpm start` runs on :4000, and what the cluster can run
// per instance. The bundle is rebuilt first (~0.2 s, once per process, however many instances it starts),
// so it always matches the sources. `pnpm dev` and the tests keep running the TypeScript through tsx.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { API_BUNDLE, buildApi } from '@app/api-server/build';
import { waitForHttp } from './wait-for.mjs';

export { API_BUNDLE };

const PACKAGE_DIR = path.dirname(path.dirname(API_BUNDLE));
/** Readiness: the database answers and the instance is not draining (API_PATHS.healthReady). */
export const API_READY_PATH = '/api/health/ready';

let bundled = null;

/**
 * @param {object} o
 * @param {number} o.port
 * @param {string} [o.host]
 * @param {Record<string, string | undefined>} [o.env]  DB_PATH or DATABASE_URL, DRAIN_TIMEOUT_MS, … (README)
 * @param {boolean} [o.quiet]  drop its stdout (one JSON line per request at LOG_LEVEL=info); stderr stays
 * @param {number} [o.timeoutMs]  how long it may take to become ready (migrations, demo seed): 60 s
 * @returns {Promise<import('node:child_process').ChildProcess>} once GET /api/health/ready answers 200
 */
export async function startApi({ port, host = '0.0.0.0', env = {}, quiet = false, timeoutMs = 60_000 }) {
  bundled ??= buildApi();
  const bundle = await bundled;
  // Its folder as working directory, as `pnpm --filter @app/api-server start` has: relative paths in the
  // environment mean the same in both.
  const child = spawn(process.execPath, [bundle], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port), HOST: host },
  });
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}${API_READY_PATH}`;
  try {
    await waitForHttp(url, timeoutMs, () => child.exitCode === null);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return child;
}
