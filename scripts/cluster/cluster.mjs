// The product on several API and edge instances behind nginx, on this one machine (issue 12, issue 30;
// docs/decisions/0016-cluster.md, 0026-edge.md). `pnpm start:cluster` (scripts/run-cluster.sh on a fresh
// machine) runs it until Ctrl+C; the cluster test starts it through startCluster().
//   nginx  http://localhost:8080  the front door. Pages and /_edge/ -> the edge instances; /api -> the API
//                                 instances; the shell's files, the remotes' builds, the release store,
//                                 config.json and deployment.json from disk, itself
//   edge   127.0.0.1:3101, 3102   compose each page for its visitor (packages/edge, from its compiled
//                                 bundle): their versions, that release's first screen, the plan; they
//                                 share the visitor cookie's secret and read the deployment manifest and
//                                 the cluster's config.json, so a rollout reaches each at its next page
//   API    127.0.0.1:4001, 4002   one database for all of them: PostgreSQL (DATABASE_URL, or a local server
//                                 of its own on 5433, data in data/cluster-postgres), or with
//                                 CLUSTER_DATABASE=sqlite one SQLite file in WAL mode
// Runs under tsx (`node --import tsx`), as it imports the workspace's TypeScript packages.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrapReleases } from '@app/release';
import { ensureEdgeSecret, rolloutPaths } from '@app/rollout/node';
import { API, APPS, ROOT } from '../apps.mjs';
import { build } from '../build.mjs';
import { startEdge } from '../edge-process.mjs';
import { startLocalPostgres } from '../pg/local-postgres.mjs';
import { waitForHttp as waitFor } from '../wait-for.mjs';
import { renderNginxConf } from './nginx-conf.mjs';

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

/**
 * Builds what is missing, releases the current builds, starts the API instances one after the other (the
 * first one migrates and seeds), the edge instances, and nginx in front of them. Resolves once nginx answers
 * for a page, the edge and the API. `stop()` ends every process it started.
 * @param {object} [o]
 * @param {number} [o.port]       nginx's port
 * @param {number[]} [o.apiPorts] one API instance per port
 * @param {number[]} [o.edgePorts] one edge instance per port
 * @param {string} [o.runDir]     nginx's files, the runtime config (default: .cluster/ in the repository)
 * @param {Record<string,string>} [o.env] extra environment for the API instances
 * @param {boolean} [o.quiet]     no logs from the instances
 * @param {'postgres'|'sqlite'} [o.database] PostgreSQL (default) or one SQLite file (DB_PATH)
 * @param {number} [o.pgPort]     the local PostgreSQL's port (when DATABASE_URL names none)
 * @param {string} [o.pgDir]      its folder; kept between runs unless `freshDatabase`
 * @param {boolean} [o.freshDatabase] start from an empty database (tests, benchmarks)
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
  const runDir = path.resolve(o.runDir ?? path.join(ROOT, '.cluster'));
  fs.mkdirSync(runDir, { recursive: true });
  const origin = `http://localhost:${port}`;
  const children = [];
  const edges = [];
  let postgres = null;
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    postgres?.stop();
  };
  try {
    const database = o.database ?? CLUSTER_DEFAULTS.database;
    let databaseUrl = null;
    if (database === 'postgres') {
      databaseUrl = process.env.DATABASE_URL ?? null;
      if (!databaseUrl) {
        postgres = startLocalPostgres({
          dir: o.pgDir ?? CLUSTER_DEFAULTS.pgDir,
          port: o.pgPort ?? CLUSTER_DEFAULTS.pgPort,
          keep: !o.freshDatabase,
          fast: Boolean(o.freshDatabase),
        });
        databaseUrl = postgres.ensureDatabase('app');
      }
    }
    await build({ missing: true });
    const paths = rolloutPaths();
    await bootstrapReleases({
      paths,
      log: o.quiet ? () => {} : (line) => console.log(line),
      followBuilds: true,
    });

    const apiEnv = {
      ...process.env,
      DB_PATH: process.env.DB_PATH ?? path.join(ROOT, 'data', 'cluster.db'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      RELEASE_STORE_DIR: paths.store,
      DEPLOY_DIR: paths.deployDir,
      // Every request comes through nginx: the client is the address nginx names in X-Forwarded-For.
      TRUSTED_PROXIES: '127.0.0.1,::1',
      HOST: '127.0.0.1',
      ...(o.quiet ? { LOG_LEVEL: 'silent' } : {}),
      ...o.env,
    };
    for (const [index, apiPort] of apiPorts.entries()) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: path.join(ROOT, 'packages', API.name),
        stdio: ['ignore', o.quiet ? 'ignore' : 'inherit', 'inherit'],
        // Only the first instance seeds the demo content; the others find it there.
        env: { ...apiEnv, PORT: String(apiPort), ...(index > 0 ? { SEED_DEMO: 'false' } : {}) },
      });
      children.push(child);
      await waitFor(`http://127.0.0.1:${apiPort}/api/health`, 60_000, () => child.exitCode === null);
    }

    const configJson = path.join(runDir, 'config.json');
    fs.writeFileSync(configJson, `${JSON.stringify(clusterRuntimeConfig(origin), null, 2)}\n`);
    const shell = APPS.find((app) => app.name === 'shell');

    // Every edge instance must sign and check visitor cookies with one key: made here, before any starts
    // (EDGE_SECRET if set, else <DEPLOY_DIR>/edge-secret, which each instance then reads).
    ensureEdgeSecret(paths);
    for (const edgePort of edgePorts) {
      const edge = await startEdge({
        port: edgePort,
        host: '127.0.0.1',
        quiet: o.quiet,
        env: {
          SHELL_DIST: shell.dist,
          SHELL_CONFIG: configJson,
          RELEASE_STORE_DIR: paths.store,
          DEPLOY_DIR: paths.deployDir,
        },
      });
      children.push(edge);
      edges.push(edge);
    }

    const { file } = renderNginxConf({
      port,
      runDir,
      shellDir: shell.dist,
      remoteDirs: Object.fromEntries(APPS.filter((app) => app !== shell).map((app) => [app.name, app.dist])),
      releaseStore: paths.store,
      deploymentJson: paths.manifestFile,
      configJson,
      apiPorts,
      edgePorts,
    });
    const check = spawnSync('nginx', ['-t', '-q', '-p', runDir, '-c', file], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`nginx -t refused ${file}:\n${check.stderr}`);
    const nginx = spawn('nginx', ['-p', runDir, '-c', file], { stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(nginx);
    await waitFor(`${origin}/config.json`, 20_000, () => nginx.exitCode === null);
    await waitFor(`${origin}/api/health`, 20_000, () => nginx.exitCode === null);
    await waitFor(`${origin}/_edge/status`, 20_000, () => nginx.exitCode === null);
    // children: the API instances, the edge instances, nginx, in that order; edges: the edge instances.
    return {
      origin,
      apiPorts,
      edgePorts,
      runDir,
      nginxConf: file,
      configJson,
      children,
      edges,
      stop,
      database,
      databaseUrl,
    };
  } catch (error) {
    stop();
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // CLUSTER_PORT (nginx), CLUSTER_API_PORTS and CLUSTER_EDGE_PORTS (comma-separated) and CLUSTER_RUN_DIR
  // move it (the e2e run).
  const ports = (value) => value?.split(',').map(Number);
  const apiPorts = ports(process.env.CLUSTER_API_PORTS);
  const edgePorts = ports(process.env.CLUSTER_EDGE_PORTS);
  // CLUSTER_DATABASE (postgres or sqlite), CLUSTER_PG_PORT, CLUSTER_PG_DIR and CLUSTER_FRESH_DATABASE=1
  // choose the database.
  const cluster = await startCluster({
    port: process.env.CLUSTER_PORT ? Number(process.env.CLUSTER_PORT) : undefined,
    apiPorts,
    edgePorts,
    runDir: process.env.CLUSTER_RUN_DIR,
    database: process.env.CLUSTER_DATABASE,
    pgPort: process.env.CLUSTER_PG_PORT ? Number(process.env.CLUSTER_PG_PORT) : undefined,
    pgDir: process.env.CLUSTER_PG_DIR,
    freshDatabase: process.env.CLUSTER_FRESH_DATABASE === '1',
  }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
  const stopAll = () => {
    cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);
  for (const child of cluster.children) {
    child.on('exit', (code, signal) => {
      if (signal === 'SIGTERM') return;
      console.error(`a cluster process stopped (exit ${code ?? signal}): stopping the rest`);
      cluster.stop();
      process.exit(1);
    });
  }
  console.log(`\nnginx            ${cluster.origin} (config ${cluster.nginxConf})`);
  for (const edgePort of cluster.edgePorts) console.log(`edge             http://127.0.0.1:${edgePort}`);
  for (const apiPort of cluster.apiPorts) console.log(`api-server       http://127.0.0.1:${apiPort}`);
  console.log(
    `database         ${cluster.databaseUrl ?? `SQLite ${process.env.DB_PATH ?? 'data/cluster.db'}`}`,
  );
  console.log(`\nOpen ${cluster.origin} — Ctrl+C stops everything.`);
}
