// Compiles the API into one file for plain `node` (docs/decisions/0028-process-lifecycle.md), the way the
// edge is built (services/edge/build.mjs): its TypeScript and the workspace packages it imports (@app/*,
// TypeScript sources) are bundled by esbuild; npm dependencies stay external, resolved from node_modules at
// run time, which keeps native and optional modules (better-sqlite3, @node-rs/argon2, pg's optional
// pg-native) and anything that requires by a computed name working as installed.
// The administration CLI (src/admin.ts: backup, restore, create-admin, deploy-token, reset-2fa, …) is built
// the same way into dist/admin.mjs (issue 48), so production runs both with plain `node` and no tsx:
// `node dist/main.mjs` (the server), `node dist/admin.mjs <command>` (infra/systemd/README.md).
// dist/main.mjs is the process's tiny entry (src/main.ts): it starts the traces, then imports the server,
// bundled apart as dist/server-process.mjs (@app/server-telemetry/build), so that node:http and the rest are loaded
// after OpenTelemetry's instrumentation is in place (docs/decisions/0044-traces.md).
// The search workers' file (src/db/read-worker.mjs, plain JavaScript) is copied beside the bundles: read-pool
// finds it relative to the running module, in the sources and in dist/ alike. So is the seed's content
// (src/db/seed-data/, issue 49): dist/seed-data/, found by db/seed-data.ts the same way.
// `pnpm --filter @app/api-server build`, and `pnpm start` / scripts/api-process.mjs before they start it.
import fs from 'node:fs';
import path from 'node:path';
import { buildVersionDefine } from '@app/server-metrics/build-version';
import { separateServerProcess } from '@app/server-telemetry/build';
import { build } from 'esbuild';

const here = import.meta.dirname;
export const API_BUNDLE = path.join(here, 'dist', 'main.mjs');
/** The administration CLI, for plain node: `node dist/admin.mjs <command>`. */
export const ADMIN_BUNDLE = path.join(here, 'dist', 'admin.mjs');

/**
 * Builds dist/main.mjs (the entry), dist/server-process.mjs (the server it imports) and dist/admin.mjs
 * (each a bundle of its own, sharing no chunk) and copies dist/read-worker.mjs and dist/seed-data/; returns the
 * entry's path.
 */
export async function buildApi() {
  const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@app/'));
  await build({
    entryPoints: {
      main: path.join(here, 'src', 'main.ts'),
      'server-process': path.join(here, 'src', 'server-process.ts'),
      admin: path.join(here, 'src', 'admin.ts'),
    },
    plugins: [separateServerProcess],
    outdir: path.join(here, 'dist'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // valibot is also a dependency of the workspace packages the bundle takes in; pg-native is pg's
    // optional native driver, never installed here.
    external: [...external, 'valibot', 'pg-native'],
    sourcemap: true,
    // The revision /metrics reports as the build's version (@app/server-metrics).
    define: buildVersionDefine(here),
    logLevel: 'warning',
    // Bundled code that uses require() would need it in an ES module.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  fs.copyFileSync(
    path.join(here, 'src', 'db', 'read-worker.mjs'),
    path.join(here, 'dist', 'read-worker.mjs'),
  );
  // Replaced whole, so a data file removed from the sources is gone from dist/ too.
  fs.rmSync(path.join(here, 'dist', 'seed-data'), { recursive: true, force: true });
  fs.cpSync(path.join(here, 'src', 'db', 'seed-data'), path.join(here, 'dist', 'seed-data'), {
    recursive: true,
  });
  return API_BUNDLE;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildApi();
  console.log(
    `built ${[API_BUNDLE, ADMIN_BUNDLE].map((file) => path.relative(process.cwd(), file)).join(', ')}`,
  );
}
