// The edge as a process (docs/decisions/0026-edge.md), run from its compiled bundle in every topology:
// `node packages/edge/dist/main.mjs`. `pnpm start` runs one on :3000; the cluster runs two or more behind
// nginx. Configuration, all optional:
//   PORT (3000), HOST (0.0.0.0)      where it listens
//   SHELL_DIST                        the shell's build (default: shell/dist)
//   SHELL_CONFIG                      the runtime config file (default: the build's config.json); watched
//   RELEASE_STORE_DIR, DEPLOY_DIR, DEPLOY_ENV   the release store and the deployment (@app/rollout)
//   EDGE_SECRET                       the visitor cookie's key (default: <DEPLOY_DIR>/edge-secret, made once)
//   ROLLOUT_PREVIEW_SECRET            preview links' key (default: <DEPLOY_DIR>/preview-secret)
//   ALLOWED_ORIGINS, SERVE_SOURCE_MAPS, CSP_REPORT_FILE   as for every app (packages/edge/README.md)
//   DRAIN_TIMEOUT_MS (10000)          on SIGTERM/SIGINT, how long requests in flight may take
import type { Server } from 'node:http';
import path from 'node:path';
import { drainServer, type Lifecycle, onStopSignals } from '@app/http-lifecycle';
import { ensureEdgeSecret, rolloutPaths } from '@app/rollout/node';
import { serveApp } from './serve';
import { watchedFile } from './watched-file';

const paths = rolloutPaths();
const dir = path.resolve(process.env.SHELL_DIST ?? path.join(paths.root, 'shell', 'dist'));
const port = Number(process.env.PORT ?? 3000);
const drainTimeoutMs = Number(process.env.DRAIN_TIMEOUT_MS ?? 10_000);
if (!Number.isSafeInteger(drainTimeoutMs) || drainTimeoutMs < 0) {
  console.error(
    `edge: DRAIN_TIMEOUT_MS must be a whole number of milliseconds, not ${process.env.DRAIN_TIMEOUT_MS}`,
  );
  process.exit(1);
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

serveApp({
  name: 'edge',
  dir,
  port,
  host: process.env.HOST ?? '0.0.0.0',
  spa: true,
  configFile: process.env.SHELL_CONFIG
    ? path.resolve(process.env.SHELL_CONFIG)
    : path.join(dir, 'config.json'),
  releases: { store: paths.store, manifestFile: paths.manifestFile },
  edgeSecret: ensureEdgeSecret(paths),
  // Read again only when the file changes (`pnpm rollout preview` makes it on first use).
  previewSecret: previewSecretOf(),
  lifecycle,
}).then(
  (server) => {
    console.log(`edge listening on ${port} (pages of ${dir}, ${paths.manifestFile})`);
    drainOnSignals(server);
  },
  (error: unknown) => {
    console.error(`edge: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

/**
 * SIGTERM (a supervisor, a rolling restart) and SIGINT drain: /_edge/ready answers 503, no new connections,
 * what is in flight finishes within DRAIN_TIMEOUT_MS, exit 0. A second signal exits at once.
 */
function drainOnSignals(server: Server) {
  onStopSignals(
    (signal) => {
      log({ msg: 'edge draining', signal, timeoutMs: drainTimeoutMs });
      void drainServer(server, lifecycle, drainTimeoutMs).then(({ forced, ms }) => {
        log({ msg: 'edge drained', ms, forced });
        process.exit(0);
      });
    },
    (signal) => {
      log({ msg: 'edge stopping at once', signal });
      process.exit(1);
    },
  );
}
