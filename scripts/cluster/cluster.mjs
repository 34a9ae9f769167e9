// The product on several API and edge instances behind nginx, on this one machine (issue 12, issue 30;
// docs/decisions/0016-cluster.md, 0026-edge.md). `pnpm start:cluster` (scripts/run-cluster.sh on a fresh
// machine) runs it until Ctrl+C; the cluster test starts it through startCluster().
//   nginx  http://localhost:8080  the front door. Pages, /_edge/ and deployment.json -> the edge instances;
//                                 /api -> the API instances; the shell's files, the remotes' builds, the
//                                 release store and config.json from disk, itself
//   edge   127.0.0.1:3101, 3102   compose each page for its visitor (services/edge, from its compiled
//                                 bundle): their versions, that release's first screen, the plan; they
//                                 share the visitor cookie's secret, read the cluster's config.json and
//                                 follow DEPLOY_ENV's deployment (production) through the API's feed via
//                                 nginx (API_URL), so a rollout through any API instance reaches each
//                                 within the feed's ~200 ms
//   API    127.0.0.1:4001, 4002   from its compiled bundle (scripts/api-process.mjs); one database for all
//                                 of them: PostgreSQL (DATABASE_URL, or a local server
//                                 of its own on 5433, data in data/cluster-postgres; no demo content
//                                 unless SEED_DEMO=true), or with
//                                 CLUSTER_DATABASE=sqlite one SQLite file in WAL mode; one release store
//                                 and deploy folder (RELEASE_STORE_DIR, DEPLOY_DIR: this one machine)
//   Prometheus 127.0.0.1:9090    only when asked (--prometheus, CLUSTER_PROMETHEUS=1; prometheus.mjs): Debian's
//                                 prometheus scraping every API and edge instance's /metrics
// Every process is supervised (issue 32, supervisor.mjs): one that dies is started again with a back-off
// while the others keep serving; only Ctrl+C (or stop()) ends them all. `pnpm cluster reload`
// (scripts/cluster-cli.mjs, through the control socket <runDir>/control.sock) restarts the API and edge
// instances one at a time: SIGTERM (it drains), a new one, ready, then the next.
// Runs under tsx (`node --import tsx`), as it imports the workspace's TypeScript packages.
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { edgeEnvironment } from '@app/edge';
import { buildEdge } from '@app/edge/build';
import { startLocalPostgres } from '@app/local-postgres';
import { bootstrapReleases } from '@app/release';
import { ensureEdgeSecret, rolloutPaths } from '@app/rollout/node';
import { startApi } from '../api-process.mjs';
import { APPS, ROOT } from '../apps.mjs';
import { build } from '../build.mjs';
import { requirePrerequisites } from '../prerequisites.mjs';
import { waitForHttp as waitFor } from '../wait-for.mjs';
import { FAIL_TIMEOUT_S, renderNginxConf } from './nginx-conf.mjs';
import { PROMETHEUS_DEFAULTS, prometheusLauncher } from './prometheus.mjs';
import { hasExited, supervise } from './supervisor.mjs';

/**
 * Where nginx connects to the API and edge instances from: loopback, as every instance runs on this
 * machine. Their TRUSTED_PROXIES (the API's and the edge's), so each counts limits per real client.
 */
export const NGINX_PEERS = '127.0.0.1,::1';

export const CLUSTER_DEFAULTS = {
  port: 8080,
  apiPorts: [4001, 4002],
  edgePorts: [3101, 3102],
  database: 'postgres',
  pgPort: 5433,
  pgDir: path.join(ROOT, 'data', 'cluster-postgres'),
};

/**
 * The shell's runtime config behind nginx: everything on nginx's one origin. SHELL_CONFIG=<file> may add
 * `features` and `remoteLoadBudgetMs` (the e2e suite's crash-test route and short load budget).
 */
function clusterRuntimeConfig(origin) {
  const extra = process.env.SHELL_CONFIG ? JSON.parse(fs.readFileSync(process.env.SHELL_CONFIG, 'utf8')) : {};
  const remotes = Object.fromEntries(
    APPS.filter((app) => app.name !== 'shell').map((app) => [
      app.name.replaceAll('-', '_'),
      { url: `${origin}/remotes/${app.name}/mf-manifest.json` },
    ]),
  );
  return {
    apiBaseUrl: origin,
    remotes,
    deployment: { manifestUrl: '/deployment.json', releasesUrl: '/releases/' },
    ...(extra.features ? { features: extra.features } : {}),
    ...(extra.remoteLoadBudgetMs ? { remoteLoadBudgetMs: extra.remoteLoadBudgetMs } : {}),
  };
}

/** A warning per remote and environment that has no stable version after bootstrapReleases. */
const withoutStable = (results) =>
  results.flatMap(({ remote, stables }) =>
    Object.entries(stables)
      .filter(([, stable]) => !stable)
      .map(
        ([env]) => `warning: ${remote} has no stable version in ${env}: its pages use config.json's address`,
      ),
  );

/** Control socket and pid file of a running cluster, in its run folder (scripts/cluster-cli.mjs uses them). */
export const controlPaths = (runDir) => ({
  socket: path.join(runDir, 'control.sock'),
  pidFile: path.join(runDir, 'cluster.pid'),
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `base + paths[0]` answers 2xx: the readiness URL. While it answers 404 (an instance from
 * before issue 32 has no readiness endpoint) the next path is asked instead (/api/health, /_edge/status).
 */
async function waitReady(base, paths, timeoutMs, isAlive) {
  const deadline = Date.now() + timeoutMs;
  let which = 0;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`gave up waiting for ${base}${paths[which]}: its process exited`);
    try {
      const res = await fetch(`${base}${paths[which]}`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return paths[which];
      if (res.status === 404 && which < paths.length - 1) {
        which += 1;
        continue;
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${base}${paths[which]} was not ready within ${timeoutMs / 1000} s`);
}

/** The pids whose parent is `pid` (an nginx master's workers), from /proc. */
function childPids(pid) {
  const found = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A PostgreSQL server that pg_ctl started (it is not our child) as a process the supervisor can watch:
 * its postmaster's pid from postmaster.pid, asked every second whether it still runs.
 */
function postgresHandle(server, dataDir) {
  const handle = new EventEmitter();
  handle.exitCode = null;
  handle.signalCode = null;
  handle.pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const timer = setInterval(() => {
    if (alive(handle.pid)) return;
    clearInterval(timer);
    handle.exitCode = 1;
    handle.emit('exit', 1, null);
  }, 1000);
  handle.kill = () => {
    clearInterval(timer);
    server.stop();
    handle.exitCode = 0;
    queueMicrotask(() => handle.emit('exit', 0, null));
  };
  return handle;
}

/**
 * Builds what is missing, starts the API instances one after the other (the first one migrates and seeds),
 * releases the current builds through the first one's deploy API (every environment's stable), starts nginx
 * and then the edge instances behind it (an edge is ready once its first manifest came through nginx from
 * the API's feed), each under a supervisor (supervisor.mjs). Resolves once nginx answers for a page, the edge and the API. `stop()` ends every
 * process it started; `reload()` restarts the API and edge instances one at a time.
 * @param {object} [o]
 * @param {number} [o.port]       nginx's port
 * @param {number[]} [o.apiPorts] one API instance per port
 * @param {number[]} [o.edgePorts] one edge instance per port
 * @param {string} [o.runDir]     nginx's files, the runtime config, control.sock (default: .cluster/)
 * @param {Record<string,string>} [o.env] extra environment for the API instances
 * @param {boolean} [o.quiet]     no logs from the instances
 * @param {(line: string) => void} [o.log] the supervisor's lines (deaths, restarts, reloads); stderr
 *                                unless quiet
 * @param {'postgres'|'sqlite'} [o.database] PostgreSQL (default) or one SQLite file (DB_PATH)
 * @param {number} [o.pgPort]     the local PostgreSQL's port (when DATABASE_URL names none)
 * @param {string} [o.pgDir]      its folder; kept between runs unless `freshDatabase`
 * @param {boolean} [o.freshDatabase] start from an empty database (tests, benchmarks)
 * @param {boolean} [o.fastDatabase] PostgreSQL without fsync and synchronous commits (default: as
 *                                freshDatabase); the chaos run keeps them, as it kills PostgreSQL
 * @param {boolean|{ port?: number, intervalS?: number, dataDir?: string }} [o.prometheus] also start
 *                                Debian's Prometheus scraping every instance (prometheus.mjs; default port
 *                                9090, every 5 s, data in <runDir>/prometheus-data); off unless given
 * @param {boolean} [o.control]   listen on <runDir>/control.sock and write <runDir>/cluster.pid (the
 *                                runner of `pnpm start:cluster` does; tests may)
 */
export async function startCluster(o = {}) {
  const port = o.port ?? CLUSTER_DEFAULTS.port;
  const apiPorts = o.apiPorts ?? CLUSTER_DEFAULTS.apiPorts;
  const edgePorts = o.edgePorts ?? CLUSTER_DEFAULTS.edgePorts;
  for (const [what, list] of [
    ['API', apiPorts],
    ['edge', edgePorts],
  ]) {
    if (list.length === 0 || !list.every((p) => Number.isInteger(p) && p > 0 && p < 65536))
      throw new Error(`startCluster: ${what} ports must be one or more port numbers, not [${list}]`);
  }
  const database = o.database ?? CLUSTER_DEFAULTS.database;
  // Options left undefined keep their defaults (the runner passes CLUSTER_PROMETHEUS_PORT only when set).
  const prometheus = o.prometheus
    ? {
        ...PROMETHEUS_DEFAULTS,
        ...Object.fromEntries(
          Object.entries(o.prometheus === true ? {} : o.prometheus).filter(([, v]) => v !== undefined),
        ),
      }
    : null;
  // Before anything starts: what this machine lacks (nginx; PostgreSQL's programs when the cluster runs a
  // server of its own), named with the command that installs it (scripts/prerequisites.mjs, which
  // scripts/install.sh asks too). nginx is run from the path found (/usr/sbin is not on a user's PATH).
  const programs = requirePrerequisites(
    [
      'nginx',
      ...(database === 'postgres' && !process.env.DATABASE_URL ? ['postgres'] : []),
      ...(prometheus ? ['prometheus'] : []),
    ],
    `The cluster (pnpm start:cluster${prometheus ? ' --prometheus' : ''})`,
  );
  const runDir = path.resolve(o.runDir ?? path.join(ROOT, '.cluster'));
  fs.mkdirSync(runDir, { recursive: true });
  const origin = `http://localhost:${port}`;
  const log = o.log ?? (o.quiet ? () => {} : (line) => console.error(line));
  const supervisors = { postgres: null, api: [], edge: [], nginx: null, prometheus: null };
  const all = () =>
    [
      ...supervisors.api,
      ...supervisors.edge,
      supervisors.nginx,
      supervisors.postgres,
      supervisors.prometheus,
    ].filter(Boolean);
  let control = null;
  let stopping = false;
  const stop = () => {
    stopping = true;
    control?.close();
    if (control) {
      for (const file of Object.values(controlPaths(runDir))) fs.rmSync(file, { force: true });
    }
    // Every SIGTERM is sent before this returns; PostgreSQL (pg_ctl stop) last. Resolves once all exited.
    const exits = [...supervisors.api, ...supervisors.edge, supervisors.nginx, supervisors.prometheus]
      .filter(Boolean)
      .map((s) => s.stop());
    return Promise.all([...exits, supervisors.postgres?.stop()]);
  };
  try {
    let databaseUrl = null;
    if (database === 'postgres') {
      databaseUrl = process.env.DATABASE_URL ?? null;
      if (!databaseUrl) {
        // Our own server, supervised like the rest: started again (its data kept) if it dies.
        const pgDir = o.pgDir ?? CLUSTER_DEFAULTS.pgDir;
        let first = true;
        const launchPostgres = async () => {
          const server = startLocalPostgres({
            dir: pgDir,
            port: o.pgPort ?? CLUSTER_DEFAULTS.pgPort,
            keep: !(first && o.freshDatabase),
            fast: o.fastDatabase ?? Boolean(o.freshDatabase),
          });
          if (first) databaseUrl = server.ensureDatabase('app');
          first = false;
          return postgresHandle(server, path.join(pgDir, 'data'));
        };
        supervisors.postgres = supervise({ name: 'postgres', launch: launchPostgres, log });
        await supervisors.postgres.start();
      }
    }
    await build({ missing: true });
    const paths = rolloutPaths();

    const apiEnv = {
      // No demo content unless asked (issue 48): SEED_DEMO=true in the environment (`SEED_DEMO=true pnpm
      // start:cluster`) or in o.env (the cluster test, the chaos run and the benches ask for it).
      SEED_DEMO: 'false',
      ...process.env,
      DB_PATH: process.env.DB_PATH ?? path.join(ROOT, 'data', 'cluster.db'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      RELEASE_STORE_DIR: paths.store,
      DEPLOY_DIR: paths.deployDir,
      // Every request comes through nginx: the client is the address nginx names in X-Forwarded-For, and
      // nginx connects from loopback here (issue 46: without it every limit is one bucket for all clients).
      TRUSTED_PROXIES: NGINX_PEERS,
      // Links in mail point at nginx's origin; cookies are Secure when that is https (issue 46).
      PUBLIC_SITE_URL: process.env.PUBLIC_SITE_URL || origin,
      HOST: '127.0.0.1',
      ...(o.quiet ? { LOG_LEVEL: 'silent' } : {}),
      ...o.env,
    };
    // An instance drains for up to DRAIN_TIMEOUT_MS (10 s) on SIGTERM: SIGKILL only 5 s after that.
    const stopTimeoutMs = Number(apiEnv.DRAIN_TIMEOUT_MS ?? 10_000) + 5_000;
    for (const [index, apiPort] of apiPorts.entries()) {
      let launches = 0;
      // From its compiled bundle (scripts/api-process.mjs builds it once per process); resolves once
      // /api/health/ready answers.
      const launchApi = () => {
        launches += 1;
        return startApi({
          port: apiPort,
          host: '127.0.0.1',
          quiet: o.quiet,
          // Only the first instance's first start seeds the demo content (when asked); the others find it.
          env: { ...apiEnv, ...(index > 0 || launches > 1 ? { SEED_DEMO: 'false' } : {}) },
        });
      };
      const s = supervise({ name: `api :${apiPort}`, launch: launchApi, log, stopTimeoutMs });
      supervisors.api.push(s);
      await s.start();
    }
    // The current builds, released and made stable in every environment through the deploy API (with the
    // local token the API instances share in DEPLOY_DIR), as a pipeline would.
    // Quiet (tests): its lines go to the supervisor's log, so a remote left without a stable is on record.
    const bootstrapLog = o.quiet ? (o.log ?? (() => {})) : (line) => console.log(line);
    const bootstrapped = await bootstrapReleases({
      apiUrl: `http://127.0.0.1:${apiPorts[0]}`,
      env: { ...process.env, DEPLOY_DIR: paths.deployDir },
      log: bootstrapLog,
      followBuilds: true,
    });
    for (const line of withoutStable(bootstrapped)) bootstrapLog(line);

    const configJson = path.join(runDir, 'config.json');
    fs.writeFileSync(configJson, `${JSON.stringify(clusterRuntimeConfig(origin), null, 2)}\n`);
    const shell = APPS.find((app) => app.name === 'shell');

    // nginx before the edges: they follow the deployment through it (API_URL), and each is ready only once
    // its first manifest came. Pages answer 502 for the moment before the first edge is up.
    const nginxOptions = {
      port,
      runDir,
      shellDir: shell.dist,
      remoteDirs: Object.fromEntries(APPS.filter((app) => app !== shell).map((app) => [app.name, app.dist])),
      releaseStore: paths.store,
      configJson,
      apiPorts,
      edgePorts,
    };
    const { file } = renderNginxConf(nginxOptions);
    const check = spawnSync(programs.nginx, ['-t', '-q', '-p', runDir, '-c', file], { encoding: 'utf8' });
    if (check.error) throw new Error(`${programs.nginx} -t could not run: ${check.error.message}`);
    if (check.status !== 0) throw new Error(`nginx -t refused ${file}:\n${check.stderr}`);
    // nginx's workers, last seen: killed before a new master starts, should the old master have been
    // killed (workers outlive a SIGKILLed master and keep its port).
    let nginxWorkers = [];
    const launchNginx = async () => {
      for (const pid of nginxWorkers) if (alive(pid)) process.kill(pid, 'SIGKILL');
      const nginx = spawn(programs.nginx, ['-p', runDir, '-c', file], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      try {
        await waitFor(`${origin}/config.json`, 20_000, () => !hasExited(nginx));
      } catch (error) {
        nginx.kill('SIGKILL');
        throw error;
      }
      nginxWorkers = childPids(nginx.pid);
      return nginx;
    };
    supervisors.nginx = supervise({ name: 'nginx', launch: launchNginx, log });
    const nginx = await supervisors.nginx.start();

    // Every edge instance must sign and check visitor cookies with one key, the API's too (health tickets):
    // EDGE_SECRET if set, else <DEPLOY_DIR>/edge-secret, handed to each edge (which never reads the folder).
    const edgeSecret = ensureEdgeSecret(paths);
    // The edge's compiled bundle, built once (~0.3 s) for every instance and every restart.
    const edgeBundle = await buildEdge();
    for (const edgePort of edgePorts) {
      const launchEdge = async () => {
        const child = spawn(process.execPath, [edgeBundle], {
          stdio: ['ignore', o.quiet ? 'ignore' : 'inherit', 'inherit'],
          env: edgeEnvironment({
            ...process.env,
            SHELL_DIST: shell.dist,
            SHELL_CONFIG: configJson,
            RELEASE_STORE_DIR: paths.store,
            EDGE_SECRET: edgeSecret,
            // The deployment each serves, from the API's feed through nginx (either API instance).
            DEPLOY_ENV: process.env.DEPLOY_ENV || 'production',
            API_URL: `http://127.0.0.1:${port}`,
            // The pages' API is nginx's own origin (the config above), whatever this shell exported.
            API_BASE_URL: undefined,
            // nginx's address, whose X-Forwarded-For (and X-Forwarded-Proto) the edge believes.
            TRUSTED_PROXIES: NGINX_PEERS,
            PUBLIC_SITE_URL: process.env.PUBLIC_SITE_URL || origin,
            PORT: String(edgePort),
            HOST: '127.0.0.1',
          }),
        });
        try {
          await waitReady(
            `http://127.0.0.1:${edgePort}`,
            ['/_edge/ready', '/_edge/status'],
            20_000,
            () => !hasExited(child),
          );
        } catch (error) {
          child.kill('SIGKILL');
          throw error;
        }
        return child;
      };
      const s = supervise({ name: `edge :${edgePort}`, launch: launchEdge, log, stopTimeoutMs });
      supervisors.edge.push(s);
      await s.start();
    }

    await waitFor(`${origin}/api/health`, 20_000, () => !hasExited(nginx));
    await waitFor(`${origin}/_edge/ready`, 20_000, () => !hasExited(nginx));

    // Last, once every instance answers: its first scrape finds them all up.
    let scraper = null;
    if (prometheus) {
      scraper = prometheusLauncher({
        ...prometheus,
        program: programs.prometheus,
        runDir,
        apiPorts,
        edgePorts,
        quiet: o.quiet,
      });
      supervisors.prometheus = supervise({ name: 'prometheus', launch: scraper.launch, log });
      await supervisors.prometheus.start();
    }

    let reloading = null;
    /**
     * The rolling restart: each API instance, then each edge instance, one at a time: SIGTERM (it stops
     * accepting, finishes what it has and exits), a new one, ready, then the next. Meanwhile nginx sends
     * the instance's requests to the other one (a refused connection is retried there), and waits out
     * nginx's fail_timeout before the next goes down. nginx is not
     * reloaded: a reload closes the clients' idle keep-alive connections, and a client that sends on one
     * at that moment sees an error. Only one reload runs at a time.
     */
    const reload = ({ log: say = log } = {}) => {
      reloading ??= (async () => {
        const started = Date.now();
        try {
          for (const s of [...supervisors.api, ...supervisors.edge]) {
            if (stopping) throw new Error('the cluster is stopping');
            say(`cluster reload: ${s.name} (pid ${s.current?.pid ?? 'none'}): SIGTERM, draining`);
            const child = await s.restart();
            say(`cluster reload: ${s.name} ready again (pid ${child.pid})`);
            // nginx counted the refused connections of its restart as failures and leaves it out until
            // fail_timeout has passed: the next one goes down only once nginx sends to this one again.
            await sleep(FAIL_TIMEOUT_S * 1000 + 200);
          }
          say(`cluster reload: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        } finally {
          reloading = null;
        }
      })();
      return reloading;
    };

    if (o.control) control = listenForControl(runDir, { reload, supervisors: all, log });

    // children: the API instances, the edge instances, nginx, in that order; edges: the edge instances
    // (the processes running now: a restart replaces them).
    return {
      origin,
      apiPorts,
      edgePorts,
      runDir,
      nginxConf: file,
      configJson,
      get children() {
        return [...supervisors.api, ...supervisors.edge, supervisors.nginx].map((s) => s.current);
      },
      get edges() {
        return supervisors.edge.map((s) => s.current);
      },
      supervisors,
      reload,
      stop,
      database,
      databaseUrl,
      // Its address and config file, or null when not asked for.
      prometheus: scraper && {
        url: scraper.url,
        config: scraper.configFile,
        intervalS: prometheus.intervalS,
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * The runner's control socket (`pnpm cluster reload|status`): one line in ("reload" or "status"), the
 * reload's log lines out as they happen, then "ok" or "error: …"; and the pid file.
 */
function listenForControl(runDir, { reload, supervisors, log }) {
  const { socket, pidFile } = controlPaths(runDir);
  fs.rmSync(socket, { force: true });
  const server = net.createServer((conn) => {
    let input = '';
    conn.setEncoding('utf8');
    conn.on('error', () => {});
    conn.on('data', (chunk) => {
      input += chunk;
      if (!input.includes('\n')) return;
      const command = input.split('\n')[0].trim();
      const say = (line) => {
        if (!conn.destroyed) conn.write(`${line}\n`);
      };
      if (command === 'status') {
        for (const s of supervisors()) {
          say(`${s.name.padEnd(12)} ${s.current ? `pid ${s.current.pid}` : 'down'}  restarts ${s.restarts}`);
        }
        conn.end('ok\n');
      } else if (command === 'reload') {
        reload({
          log: (line) => {
            log(line);
            say(line);
          },
        }).then(
          () => conn.end('ok\n'),
          (error) => conn.end(`error: ${error.message}\n`),
        );
      } else {
        conn.end(`error: unknown command ${JSON.stringify(command)} (reload, status)\n`);
      }
    });
  });
  server.listen(socket);
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // CLUSTER_PORT (nginx), CLUSTER_API_PORTS and CLUSTER_EDGE_PORTS (comma-separated) and CLUSTER_RUN_DIR
  // move it (the e2e run).
  const ports = (value) => value?.split(',').map(Number);
  const apiPorts = ports(process.env.CLUSTER_API_PORTS);
  const edgePorts = ports(process.env.CLUSTER_EDGE_PORTS);
  // CLUSTER_DATABASE (postgres or sqlite), CLUSTER_PG_PORT, CLUSTER_PG_DIR and CLUSTER_FRESH_DATABASE=1
  // choose the database. --prometheus or CLUSTER_PROMETHEUS=1 start Prometheus too, on
  // CLUSTER_PROMETHEUS_PORT (9090).
  const withPrometheus = process.argv.includes('--prometheus') || process.env.CLUSTER_PROMETHEUS === '1';
  const cluster = await startCluster({
    port: process.env.CLUSTER_PORT ? Number(process.env.CLUSTER_PORT) : undefined,
    apiPorts,
    edgePorts,
    runDir: process.env.CLUSTER_RUN_DIR,
    database: process.env.CLUSTER_DATABASE,
    pgPort: process.env.CLUSTER_PG_PORT ? Number(process.env.CLUSTER_PG_PORT) : undefined,
    pgDir: process.env.CLUSTER_PG_DIR,
    freshDatabase: process.env.CLUSTER_FRESH_DATABASE === '1',
    prometheus: withPrometheus && {
      port: process.env.CLUSTER_PROMETHEUS_PORT ? Number(process.env.CLUSTER_PROMETHEUS_PORT) : undefined,
    },
    control: true,
  }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
  const stopAll = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);
  // A process that dies is restarted by its supervisor; the others keep serving. SIGHUP (or
  // `pnpm cluster reload`) restarts the API and edge instances one at a time.
  process.on('SIGHUP', () => {
    cluster.reload().catch((error) => console.error(`cluster reload failed: ${error.message}`));
  });
  console.log(`\nnginx            ${cluster.origin} (config ${cluster.nginxConf})`);
  for (const edgePort of cluster.edgePorts) console.log(`edge             http://127.0.0.1:${edgePort}`);
  for (const apiPort of cluster.apiPorts) console.log(`api-server       http://127.0.0.1:${apiPort}`);
  console.log(
    `database         ${cluster.databaseUrl ?? `SQLite ${process.env.DB_PATH ?? 'data/cluster.db'}`}`,
  );
  if (cluster.prometheus) {
    console.log(
      `prometheus       ${cluster.prometheus.url} (every ${cluster.prometheus.intervalS} s: job api ${cluster.apiPorts.join(', ')}, job edge ${cluster.edgePorts.join(', ')}; config ${path.relative(ROOT, cluster.prometheus.config)})`,
    );
  }
  console.log(`runner           pid ${process.pid} (${path.relative(ROOT, cluster.runDir)}/cluster.pid)`);
  console.log(
    `\nOpen ${cluster.origin} — a process that dies is restarted; \`pnpm cluster reload\` restarts the instances one at a time; Ctrl+C stops everything.`,
  );
}
