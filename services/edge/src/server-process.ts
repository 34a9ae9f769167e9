// The edge as a process (docs/decisions/0026-edge.md), run from its compiled bundle in every topology:
// `node services/edge/dist/main.mjs`, whose entry (src/main.ts) starts the traces and then imports this. `pnpm start` runs one serving production on :3000 and staging on
// :3010; the cluster runs two or more behind nginx. Configuration, all optional, read in src/config.ts
// (defaults and meanings also in docs/configuration.md):
//   PORT (3000), HOST (0.0.0.0)      where it listens
//   DEPLOY_ENV (production)          the environment whose deployment it serves on PORT
//   EXTRA_ENVIRONMENTS               more environments from the same process, each on its own port:
//                                    `staging:3010` (comma-separated; one feed per environment)
//   API_URL                          the API as the edge reaches it, server to server: the deployment feed
//                                    (GET /api/deployment/<env>), a member's id, per-request renders.
//                                    Default: the runtime config's apiBaseUrl when it is absolute (what the
//                                    browser uses); a relative one needs API_URL
//   API_BASE_URL                     the API as the browser reaches it, in place of the runtime config's
//                                    apiBaseUrl (pages, their CSP, /config.json); `pnpm start` sets it
//   SHELL_DIST                        the shell's build (default: shell/dist)
//   SHELL_CONFIG                      the runtime config file (default: the build's config.json); watched
//   RELEASE_STORE_DIR                 the release store (read only)
//   EDGE_SECRET                       the visitor cookie's key; the API needs the same (health tickets)
//   TRUSTED_PROXIES, NEW_VISITORS_PER_ADDRESS   whose X-Forwarded-For counts; new visitors per address
//   RENDER_TIMEOUT_MS, RENDER_WORKERS_MAX, RENDER_MEMORY_MB   the release renderers' sandbox (decision 0036)
//   CORS_ORIGINS, SERVE_SOURCE_MAPS, CSP_REPORT_FILE   as for every app (services/edge/README.md)
//   DRAIN_TIMEOUT_MS (10000)          on SIGTERM/SIGINT, how long requests in flight may take
//   LOG_LEVEL (info)                  `info`: one JSON line per page on stdout; `error`, `silent`: none
//   OTEL_EXPORTER_OTLP_ENDPOINT       traces on, sent there (src/main.ts; docs/operations.md, "Traces")
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import { drainServer, type Lifecycle, onStopSignals } from '@app/http-lifecycle';
import { stopTelemetry } from '@app/server-telemetry';
import { writeLogLine } from '@app/server-telemetry/log';
import { type EdgeConfig, edgeConfig, renderSandboxConfig } from './config';
import { deploymentFeed, type ManifestFeed } from './deployment-feed';
import { validConfig, withApiBaseUrl } from './deployment-state';
import { type OverrideUseReporter, overrideUseReporter } from './override-use';
import { RenderFigures } from './render-figures';
import { type RenderReporter, renderReporter } from './render-reporter';
import { DEFAULT_LIMITS } from './render-sandbox/launch';
import { RenderPool } from './render-sandbox/pool';
import { serveApp } from './serve';
import { watchedFile } from './watched-file';

function fail(message: string): never {
  console.error(`edge: ${message}`);
  process.exit(1);
}

function configOrFail(): EdgeConfig {
  try {
    return edgeConfig();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
}

const config = configOrFail();
const { paths, drainTimeoutMs } = config;
const dir = config.shellDist;
const configFile = config.shellConfig;
const apiUrlFromEnv = config.apiUrl;
const configOf = watchedFile(
  configFile,
  (text) => validConfig(withApiBaseUrl(JSON.parse(text), config.apiBaseUrl)),
  () => undefined,
);
/** The feed's base URL, asked before each poll: API_URL, else the config's apiBaseUrl if absolute. */
function apiUrl(): string | null {
  if (apiUrlFromEnv) return apiUrlFromEnv;
  const base = configOf()?.apiBaseUrl;
  return base && URL.canParse(base) ? base : null;
}

const lifecycle: Lifecycle = { draining: false };
const log = (line: Record<string, unknown>) =>
  writeLogLine({ level: 'info', time: new Date().toISOString(), ...line });

/** A feed whose outages are logged once each (with the recovery), and every manifest refused. */
function feedFor(environment: string): ManifestFeed {
  let down = false;
  return deploymentFeed({
    apiUrl,
    environment,
    onError(kind, error) {
      const message = error instanceof Error ? error.message : String(error);
      if (kind === 'manifest-invalid')
        return console.warn(`edge: ${environment}'s manifest refused: ${message}`);
      if (!down) console.warn(`edge: ${environment}'s deployment feed is unreachable (retrying): ${message}`);
      down = true;
    },
    onRecovered(failures) {
      down = false;
      console.warn(`edge: ${environment}'s deployment feed is back after ${failures} failed attempts`);
    },
  });
}

/**
 * EDGE_SECRET: the visitor cookie's key, from which health tickets' key derives; the API needs the same to
 * count reports. Never read from the deploy folder: the edge has no access to it (issue 44). Without it the
 * edge makes a key of its own, valid while this process lives, and says what that costs.
 */
function edgeSecretOrEphemeral(): string {
  if (config.edgeSecret) return config.edgeSecret;
  console.warn(
    'edge: EDGE_SECRET is not set: visitor cookies last while this process runs, and the API refuses its health tickets',
  );
  return randomBytes(32).toString('hex');
}

/** One pool of render workers for every environment this process serves (a release renders the same in each). */
function renderPool(): RenderPool {
  const sandbox = renderSandboxConfig();
  const pool = new RenderPool({
    workerScript: path.join(import.meta.dirname, 'render-worker.mjs'),
    limits: { ...DEFAULT_LIMITS, memoryMb: sandbox.memoryMb, heapMb: Math.floor((sandbox.memoryMb * 3) / 8) },
    timeoutMs: sandbox.timeoutMs,
    startTimeoutMs: 15_000,
    maxWorkers: sandbox.maxWorkers,
    idleMs: 10 * 60_000,
    log: (release, line) =>
      process.stderr.write(
        `${JSON.stringify({ level: 'warn', msg: 'render output', remote: release.remote, version: release.version, line })}\n`,
      ),
  });
  const { namespaces, rlimits } = pool.isolation;
  if (!namespaces || !rlimits) {
    console.warn(
      `edge: render workers run without ${[!namespaces && 'their own network and process namespaces (unshare)', !rlimits && 'memory and CPU limits (prlimit)'].filter(Boolean).join(' and ')}: docs/security.md`,
    );
  }
  return pool;
}

async function main() {
  const edgeSecret = edgeSecretOrEphemeral();
  const pool = renderPool();
  const servers: Server[] = [];
  const feeds: ManifestFeed[] = [];
  // What is sent to the API in batches, flushed before the exit: dev override links' use, server renders.
  const reporters: Array<OverrideUseReporter | RenderReporter> = [];
  for (const { environment, port } of config.listeners) {
    const feed = feedFor(environment);
    feeds.push(feed);
    const overrideUses = overrideUseReporter({ environment });
    reporters.push(overrideUses);
    // This environment's server renders, sent to the API for the gate (docs/decisions/0043).
    const renderFigures = new RenderFigures();
    reporters.push(renderReporter({ figures: renderFigures, apiUrl, environment, edgeSecret }));
    servers.push(
      await serveApp({
        name: 'edge',
        dir,
        port,
        host: config.host,
        spa: true,
        configFile,
        releases: { store: paths.store },
        feed,
        environment,
        renderPool: pool,
        ...(apiUrlFromEnv ? { apiUrl: apiUrlFromEnv } : {}),
        ...(config.apiBaseUrl ? { apiBaseUrl: config.apiBaseUrl } : {}),
        edgeSecret,
        lifecycle,
        overrideUses,
        processMetrics: true,
        renderFigures,
        ...(config.logLevel === 'info' ? { pageLog: writeLogLine } : {}),
      }),
    );
    console.log(
      `edge listening on ${port} (${environment}: pages of ${dir}, deployment from the API's feed)`,
    );
  }
  drainOnSignals(servers, feeds, pool, reporters);
}

/**
 * SIGTERM (a supervisor, a rolling restart) and SIGINT drain: /_edge/ready answers 503, no new connections,
 * what is in flight finishes within DRAIN_TIMEOUT_MS, the render figures and dev override page views counted
 * meanwhile are sent (within their reports' timeout), exit 0. The feeds' polls are aborted at once (a poll
 * may wait 25 s for a change). A second signal exits at once.
 */
function drainOnSignals(
  servers: Server[],
  feeds: ManifestFeed[],
  pool: RenderPool,
  reporters: ReadonlyArray<OverrideUseReporter | RenderReporter>,
) {
  onStopSignals(
    (signal) => {
      log({ msg: 'edge draining', signal, timeoutMs: drainTimeoutMs });
      for (const feed of feeds) feed.stop();
      pool.close();
      void Promise.all(servers.map((server) => drainServer(server, lifecycle, drainTimeoutMs))).then(
        async (results) => {
          await Promise.all(reporters.map((reporter) => reporter.stop()));
          // The spans of the last pages (and of the reports just sent), before the exit.
          await stopTelemetry();
          log({
            msg: 'edge drained',
            ms: Math.max(...results.map((r) => r.ms)),
            forced: results.some((r) => r.forced),
          });
          process.exit(0);
        },
      );
    },
    (signal) => {
      log({ msg: 'edge stopping at once', signal });
      process.exit(1);
    },
  );
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
