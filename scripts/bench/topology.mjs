// The product the bench measures (scripts/bench-web.mjs documents the options): started from a checkout
// (`--root`, default this one) and stopped again, or one already running (`--base-url`, started by nobody
// here). Every started topology gets a release store, a deployment and a database of the run's own, in the
// run's folder, so a bench never touches the checkout's releases/, deploy/ or data/.
//   single   `node --import tsx scripts/start.mjs` in the checkout, ROLLOUT_FOLLOW_BUILDS=1: the edge (or, in an
//            older checkout, the static server) on 3000, the remotes on 3001-3004, the API on 4000 (SQLite)
//   cluster  startCluster() of the checkout's scripts/cluster/cluster.mjs (through cluster-runner.mjs, a
//            child process): nginx on 8380, API instances on 4381-4382, edge instances on 3381-3382 (an
//            older cluster.mjs ignores edgePorts and serves its pages from nginx), a fresh PostgreSQL on 5438

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { waitForHttp } from '../wait-for.mjs';

export const SINGLE = { baseUrl: 'http://localhost:3000', ports: [3000, 3001, 3002, 3003, 3004, 4000] };
export const CLUSTER = { port: 8380, apiPorts: [4381, 4382], edgePorts: [3381, 3382], pgPort: 5438 };
const CLUSTER_PORTS = [CLUSTER.port, ...CLUSTER.apiPorts, ...CLUSTER.edgePorts, CLUSTER.pgPort];

// The bench's browsers all come from one address, and what they do many times a minute would meet two of
// the API's per-address limits (a person never does): rollout health reports (120 a minute) and anonymous
// writes (60 a minute; an older shell checks each preview link with a POST). Reads are never limited.
const API_ENV = { ROLLOUT_HEALTH_RATE_PER_MINUTE: '5000', RATE_LIMIT_ANONYMOUS: '5000/1m' };

// What could make the topology another one than the bench asked for: it gets these from the bench only.
const INHERITED_NOT = [
  'DATABASE_URL',
  'DB_PATH',
  'API_PORT',
  'PORT',
  'HOST',
  'SHELL_CONFIG',
  'NO_API',
  'RELEASE_STORE_DIR',
  'DEPLOY_DIR',
  'DEPLOY_ENV',
  'ROLLOUT_FOLLOW_BUILDS',
  'SHELL_MANIFEST',
  'INIT_CWD',
];
export function cleanEnv(extra = {}) {
  const env = { ...process.env };
  for (const name of INHERITED_NOT) delete env[name];
  for (const name of Object.keys(env))
    if (name.startsWith('CLUSTER_') || name.startsWith('E2E_')) delete env[name];
  return { ...env, ...extra };
}

/** True when something accepts connections on the port (IPv4 or IPv6 loopback). */
export async function portInUse(port) {
  const tryConnect = (host) =>
    new Promise((resolve) => {
      const socket = net.connect({ port, host });
      const done = (used) => {
        socket.destroy();
        resolve(used);
      };
      socket.setTimeout(1000, () => done(false));
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
  return (await tryConnect('127.0.0.1')) || (await tryConnect('::1'));
}

async function busyPorts(ports) {
  const busy = [];
  for (const port of ports) if (await portInUse(port)) busy.push(port);
  return busy;
}

function tail(file, lines = 30) {
  try {
    const text = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    return `last lines of ${file}:\n  ${text.slice(-lines).join('\n  ')}`;
  } catch {
    return '';
  }
}

/**
 * A child in a process group of its own (a Ctrl+C of the bench reaches the bench only, which then stops it
 * in order). stop(): SIGTERM to the child (start.mjs and cluster-runner.mjs stop what they started), then,
 * if it has not exited within 20 s, SIGKILL to its group; then waits for its ports to be free.
 */
function managedChild(command, args, { cwd, env, logFile, ipc = false, ports }) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', out, out, ...(ipc ? ['ipc'] : [])],
  });
  fs.closeSync(out);
  let exited = false;
  const exit = new Promise((resolve) => child.once('exit', resolve)).then(() => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      let timer;
      await Promise.race([exit, new Promise((resolve) => (timer = setTimeout(resolve, 20_000)))]);
      clearTimeout(timer);
      if (!exited) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
        await exit;
      }
    }
    const deadline = Date.now() + 15_000;
    while ((await busyPorts(ports)).length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
  };
  return { child, isAlive: () => !exited, stop };
}

/**
 * Starts the topology (or describes the running one behind `baseUrl`). Returns { kind, root, baseUrl, store,
 * deployDir, commandEnv (for pnpm release / rollout in `root`), started, stop() }.
 */
export async function startTopology({ kind, root, runDir, baseUrl, log }) {
  if (baseUrl) {
    // Already running: the release commands act on the store and deployment the bench's own environment
    // names, else the checkout's defaults (the same rule as `pnpm start`).
    const store = path.resolve(process.env.RELEASE_STORE_DIR ?? path.join(root, 'releases'));
    const deployDir = path.resolve(process.env.DEPLOY_DIR ?? path.join(root, 'deploy'));
    return {
      kind: 'external',
      root,
      baseUrl,
      store,
      deployDir,
      environment: process.env.DEPLOY_ENV || 'production',
      // The CLIs talk to the deploy API (DEPLOY_API_URL, else the local API on :4000) with DEPLOY_TOKEN, else
      // the local token in DEPLOY_DIR.
      commandEnv: { ...process.env, RELEASE_STORE_DIR: store, DEPLOY_DIR: deployDir },
      started: false,
      stop: async () => {},
    };
  }
  const store = path.join(runDir, 'releases');
  const deployDir = path.join(runDir, 'deploy');
  const logFile = path.join(runDir, `${kind}.log`);
  const common = { RELEASE_STORE_DIR: store, DEPLOY_DIR: deployDir, ...API_ENV };

  if (kind === 'single') {
    const busy = await busyPorts(SINGLE.ports);
    if (busy.length) {
      throw new Error(
        `port${busy.length > 1 ? 's' : ''} ${busy.join(', ')} already in use (a \`pnpm start\`, \`pnpm dev\` or an e2e ` +
          `run?): stop it first, or measure what runs there with --base-url ${SINGLE.baseUrl}`,
      );
    }
    const dbPath = path.join(runDir, 'app.db');
    const env = cleanEnv({ ...common, DB_PATH: dbPath, ROLLOUT_FOLLOW_BUILDS: '1' });
    log(`starting single: node --import tsx scripts/start.mjs in ${root} (log ${logFile})`);
    const started = managedChild(process.execPath, ['--import', 'tsx', 'scripts/start.mjs'], {
      cwd: root,
      env,
      logFile,
      ports: SINGLE.ports,
    });
    try {
      // start.mjs starts the shell's server (or the edge) last, once the API answers.
      await waitForHttp(`${SINGLE.baseUrl}/config.json`, 600_000, started.isAlive);
      await waitForHttp('http://localhost:4000/api/health', 60_000, started.isAlive);
    } catch (error) {
      await started.stop();
      throw new Error(`pnpm start: ${error.message}\n${tail(logFile)}`);
    }
    return {
      kind,
      root,
      baseUrl: SINGLE.baseUrl,
      store,
      deployDir,
      environment: 'production',
      dbPath,
      commandEnv: cleanEnv({ ...common, DEPLOY_API_URL: 'http://127.0.0.1:4000', DEPLOY_ENV: 'production' }),
      logFile,
      started: true,
      stop: started.stop,
    };
  }

  if (kind === 'cluster') {
    const busy = await busyPorts(CLUSTER_PORTS);
    if (busy.length)
      throw new Error(`the bench's cluster ports ${busy.join(', ')} are in use: another bench run?`);
    const options = {
      port: CLUSTER.port,
      apiPorts: CLUSTER.apiPorts,
      edgePorts: CLUSTER.edgePorts,
      runDir: path.join(runDir, 'cluster'),
      pgPort: CLUSTER.pgPort,
      // Not in the run's folder: started as root, PostgreSQL runs as the postgres user and gets a folder
      // of its own it may enter; made empty first.
      pgDir: path.join(path.dirname(runDir), `bench-web-postgres-${CLUSTER.pgPort}`),
      freshDatabase: true,
      quiet: true,
      // The demo content the pages show, as on `pnpm start` (the cluster seeds none unless asked).
      env: { ...API_ENV, SEED_DEMO: 'true' },
    };
    log(`starting cluster: startCluster() of ${root}/scripts/cluster/cluster.mjs (log ${logFile})`);
    const started = managedChild(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'cluster-runner.mjs'), JSON.stringify(options)],
      { cwd: root, env: cleanEnv(common), logFile, ipc: true, ports: CLUSTER_PORTS },
    );
    let info;
    try {
      info = await new Promise((resolve, reject) => {
        started.child.on('message', (message) => {
          if (message?.ready) resolve(message.ready);
          if (message?.error) reject(new Error(`startCluster failed: ${message.error}\n${tail(logFile)}`));
        });
        started.child.once('exit', (code) =>
          reject(new Error(`the cluster runner exited (${code})\n${tail(logFile)}`)),
        );
        // Not holding the bench open once the cluster has answered.
        setTimeout(
          () => reject(new Error(`the cluster did not start within 10 min\n${tail(logFile)}`)),
          600_000,
        ).unref();
      });
    } catch (error) {
      await started.stop();
      throw error;
    }
    return {
      kind,
      root,
      baseUrl: info.origin,
      store,
      deployDir,
      environment: 'production',
      // Through nginx, as a team's pipeline would reach the cluster.
      commandEnv: cleanEnv({ ...common, DEPLOY_API_URL: info.origin, DEPLOY_ENV: 'production' }),
      cluster: info,
      logFile,
      started: true,
      stop: async () => {
        await started.stop();
        fs.rmSync(options.pgDir, { recursive: true, force: true });
      },
    };
  }
  throw new Error(`--topology is single or cluster, not ${kind}`);
}

/** Polls until nothing listens on 3000-3004/4000, up to `seconds` (0: not at all). */
export async function waitForSinglePorts(seconds, log) {
  const deadline = Date.now() + seconds * 1000;
  let said = false;
  while (Date.now() < deadline) {
    const busy = await busyPorts(SINGLE.ports);
    if (!busy.length) return;
    const which = busy.length > 1 ? `ports ${busy.join(', ')} are` : `port ${busy[0]} is`;
    if (!said) log(`${which} in use: waiting up to ${seconds} s for the single topology's ports to be free`);
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
}
