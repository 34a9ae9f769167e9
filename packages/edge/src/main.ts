// The edge as a process (docs/decisions/0026-edge.md), run from its compiled bundle in every topology:
// `node packages/edge/dist/main.mjs`. `pnpm start` runs one serving production on :3000 and staging on
// :3010; the cluster runs two or more behind nginx. Configuration, all optional:
//   PORT (3000), HOST (0.0.0.0)      where it listens
//   DEPLOY_ENV (production)          the environment whose deployment it serves on PORT
//   EXTRA_ENVIRONMENTS               more environments from the same process, each on its own port:
//                                    `staging:3010` (comma-separated; one feed per environment)
//   API_URL                          the API as the edge reaches it, server to server: the deployment feed
//                                    (GET /api/deployment/<env>), a member's id, per-request renders.
//                                    Default: the runtime config's apiBaseUrl when it is absolute (what the
//                                    browser uses); a relative one needs API_URL
//   SHELL_DIST                        the shell's build (default: shell/dist)
//   SHELL_CONFIG                      the runtime config file (default: the build's config.json); watched
//   RELEASE_STORE_DIR, DEPLOY_DIR     the release store (read) and the secrets' folder (@app/rollout)
//   EDGE_SECRET                       the visitor cookie's key (default: <DEPLOY_DIR>/edge-secret, made once)
//   ROLLOUT_PREVIEW_SECRET            preview links' key (default: <DEPLOY_DIR>/preview-secret)
//   ALLOWED_ORIGINS, SERVE_SOURCE_MAPS, CSP_REPORT_FILE   as for every app (packages/edge/README.md)
//   DRAIN_TIMEOUT_MS (10000)          on SIGTERM/SIGINT, how long requests in flight may take
import type { Server } from 'node:http';
import path from 'node:path';
import { drainServer, type Lifecycle, onStopSignals } from '@app/http-lifecycle';
import { ENVIRONMENT_NAME_PATTERN } from '@app/rollout';
import { ensureEdgeSecret, rolloutPaths } from '@app/rollout/node';
import { deploymentFeed, type ManifestFeed } from './deployment-feed';
import { validConfig } from './deployment-state';
import { serveApp } from './serve';
import { watchedFile } from './watched-file';

function fail(message: string): never {
  console.error(`edge: ${message}`);
  process.exit(1);
}

const paths = rolloutPaths();
const dir = path.resolve(process.env.SHELL_DIST ?? path.join(paths.root, 'shell', 'dist'));
const configFile = process.env.SHELL_CONFIG
  ? path.resolve(process.env.SHELL_CONFIG)
  : path.join(dir, 'config.json');
const drainTimeoutMs = Number(process.env.DRAIN_TIMEOUT_MS ?? 10_000);
if (!Number.isSafeInteger(drainTimeoutMs) || drainTimeoutMs < 0)
  fail(`DRAIN_TIMEOUT_MS must be a whole number of milliseconds, not ${process.env.DRAIN_TIMEOUT_MS}`);

/** Every environment this process serves, and where: DEPLOY_ENV on PORT, then EXTRA_ENVIRONMENTS. */
function listeners(): Array<{ environment: string; port: number }> {
  const main = {
    environment: process.env.DEPLOY_ENV || 'production',
    port: Number(process.env.PORT ?? 3000),
  };
  const extra = (process.env.EXTRA_ENVIRONMENTS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [environment = '', port = ''] = item.split(':');
      return { environment, port: Number(port) };
    });
  const all = [main, ...extra];
  for (const { environment, port } of all) {
    if (!ENVIRONMENT_NAME_PATTERN.test(environment))
      fail(`"${environment}" is not an environment name (DEPLOY_ENV, EXTRA_ENVIRONMENTS=<env>:<port>)`);
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`no valid port for ${environment}`);
  }
  return all;
}

const apiUrlFromEnv = process.env.API_URL;
if (apiUrlFromEnv && !URL.canParse(apiUrlFromEnv))
  fail(`API_URL must be an absolute URL, not ${apiUrlFromEnv}`);
const configOf = watchedFile(
  configFile,
  (text) => validConfig(JSON.parse(text)),
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
  process.stdout.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), ...line })}\n`);

function previewSecretOf(): () => string | null {
  const fromEnv = process.env.ROLLOUT_PREVIEW_SECRET;
  if (fromEnv) return () => fromEnv;
  return watchedFile(
    paths.secretFile,
    (text) => text.trim() || null,
    () => undefined,
  );
}

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

async function main() {
  const edgeSecret = ensureEdgeSecret(paths);
  // Read again only when the file changes (`pnpm rollout preview` makes it on first use).
  const previewSecret = previewSecretOf();
  const servers: Server[] = [];
  const feeds: ManifestFeed[] = [];
  for (const { environment, port } of listeners()) {
    const feed = feedFor(environment);
    feeds.push(feed);
    servers.push(
      await serveApp({
        name: 'edge',
        dir,
        port,
        host: process.env.HOST ?? '0.0.0.0',
        spa: true,
        configFile,
        releases: { store: paths.store },
        feed,
        ...(apiUrlFromEnv ? { apiUrl: apiUrlFromEnv } : {}),
        edgeSecret,
        previewSecret,
        lifecycle,
      }),
    );
    console.log(
      `edge listening on ${port} (${environment}: pages of ${dir}, deployment from the API's feed)`,
    );
  }
  drainOnSignals(servers, feeds);
}

/**
 * SIGTERM (a supervisor, a rolling restart) and SIGINT drain: /_edge/ready answers 503, no new connections,
 * what is in flight finishes within DRAIN_TIMEOUT_MS, exit 0. The feeds' polls are aborted at once (a poll
 * may wait 25 s for a change). A second signal exits at once.
 */
function drainOnSignals(servers: Server[], feeds: ManifestFeed[]) {
  onStopSignals(
    (signal) => {
      log({ msg: 'edge draining', signal, timeoutMs: drainTimeoutMs });
      for (const feed of feeds) feed.stop();
      void Promise.all(servers.map((server) => drainServer(server, lifecycle, drainTimeoutMs))).then(
        (results) => {
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
