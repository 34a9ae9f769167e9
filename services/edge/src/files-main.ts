// The remotes' builds as plain file servers (what `pnpm start` serves on 3001-3004), as one process from the
// edge's compiled bundle: `node services/edge/dist/files.mjs` (docs/decisions/0028-process-lifecycle.md: every
// server runs compiled, with plain node). Same headers, CORS and 404 rules as the edge's files; no pages.
//   FILE_SERVERS   JSON: [{ "name": "mf-account", "dir": "/abs/mf-account/dist", "port": 3001 }, ...]
//   HOST (0.0.0.0), DRAIN_TIMEOUT_MS (10000), CORS_ORIGINS, SERVE_SOURCE_MAPS, CSP_REPORT_FILE (src/config.ts)
import type { Server } from 'node:http';
import { drainServer, type Lifecycle, onStopSignals } from '@app/http-lifecycle';
import { fileServersConfig } from './config';
import { serveApp } from './serve';

const lifecycle: Lifecycle = { draining: false };

async function main() {
  const { servers: apps, host, drainTimeoutMs } = fileServersConfig();
  const servers: Server[] = [];
  for (const app of apps) {
    servers.push(await serveApp({ ...app, host, spa: false, lifecycle }));
    console.log(`${app.name} files on ${app.port} (${app.dir})`);
  }
  onStopSignals(
    () => {
      void Promise.all(servers.map((server) => drainServer(server, lifecycle, drainTimeoutMs))).then(() =>
        process.exit(0),
      );
    },
    () => process.exit(1),
  );
}

main().catch((error: unknown) => {
  console.error(`file servers: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
