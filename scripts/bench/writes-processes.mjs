// The processes of `pnpm bench:writes` (scripts/bench/writes.mjs): a checkout's compiled API, built when
// missing, and its instances, each in a process group of its own, stopped by the caller's cleanup.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { waitForHttp } from '../wait-for.mjs';

export const portFree = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });

/** The checkout's compiled API: built when missing (or asked); a warning when its sources are newer. */
export function apiBundle(checkout, { build = false, log }) {
  const apiDir = path.join(checkout, 'services', 'api-server');
  const bundle = path.join(apiDir, 'dist', 'main.mjs');
  if (!fs.existsSync(bundle) || build) {
    if (!fs.existsSync(path.join(checkout, 'node_modules')))
      throw new Error(`${checkout} has no node_modules: run \`pnpm install --offline\` there first`);
    log(`building the API in ${checkout}`);
    execFileSync('pnpm', ['--filter', '@app/api-server', 'build'], { cwd: checkout, stdio: 'inherit' });
  }
  const built = fs.statSync(bundle).mtimeMs;
  const newer = fs
    .readdirSync(path.join(apiDir, 'src'), { recursive: true })
    .filter((f) => fs.statSync(path.join(apiDir, 'src', f)).mtimeMs > built);
  if (newer.length)
    log(
      `WARNING: ${checkout}: ${newer.length} source file(s) newer than dist (e.g. src/${newer[0]}): pass --build`,
    );
  // What the bundle runs: does it take the global write lock?
  const split = path.join(apiDir, 'dist', 'server-process.mjs'); // an older bundle is main.mjs alone
  const server = fs.readFileSync(fs.existsSync(split) ? split : bundle, 'utf8');
  let rev = '?';
  try {
    rev = execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {}
  return { apiDir, bundle, rev, globalLock: server.includes('pg_advisory_xact_lock(1201)') };
}

/** One API instance from the bundle, its own process group; resolves once /api/health/ready answers. */
export async function startApi({ api, port, env, logFile, onStop }) {
  if (!(await portFree(port))) throw new Error(`port ${port} is in use`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [api.bundle], {
    cwd: api.apiDir,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    // It drains (DRAIN_TIMEOUT_MS, 10 s at most); SIGKILL to its group only after 15 s.
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, 15_000);
    await exited;
    clearTimeout(timer);
  };
  onStop(stop);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/api/health/ready`, 60_000, () => child.exitCode === null);
    return { stop, url };
  } catch {
    // Said below with the end of its log.
  }
  const tail = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-20).join('\n  ');
  throw new Error(`the API on ${port} did not become ready:\n  ${tail}`);
}
