// Compiles the edge into one file for plain `node` (docs/decisions/0026-edge.md): its own TypeScript and the
// workspace packages it imports are bundled by esbuild; npm dependencies stay external (node_modules).
// `pnpm --filter @app/edge build`, and `pnpm start` / the cluster before they start it (about 0.3 s).
import fs from 'node:fs';
import path from 'node:path';
import { buildVersionDefine } from '@app/server-metrics/build-version';
import { separateServerProcess } from '@app/server-telemetry/build';
import { build } from 'esbuild';

const here = import.meta.dirname;
export const EDGE_BUNDLE = path.join(here, 'dist', 'main.mjs');
/** The remotes' file servers of `pnpm start` (src/files-main.ts), from the same sources. */
export const FILES_BUNDLE = path.join(here, 'dist', 'files.mjs');
/**
 * The process a release's server renderer runs in (src/render-sandbox/worker.ts): the edge starts it beside
 * main.mjs, and it may read nothing but itself, jsdom and the release (docs/decisions/0036-render-sandbox.md).
 */
export const RENDER_WORKER_BUNDLE = path.join(here, 'dist', 'render-worker.mjs');

export async function buildEdge() {
  const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@app/'));
  await build({
    entryPoints: {
      main: path.join(here, 'src', 'main.ts'),
      // What main.ts imports once the traces are started: a bundle apart (@app/server-telemetry/build).
      'server-process': path.join(here, 'src', 'server-process.ts'),
      files: path.join(here, 'src', 'files-main.ts'),
      'render-worker': path.join(here, 'src', 'render-sandbox', 'worker.ts'),
    },
    plugins: [separateServerProcess],
    outdir: path.dirname(EDGE_BUNDLE),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // valibot is a dependency of the workspace packages the bundle takes in.
    external: [...external, 'valibot'],
    sourcemap: true,
    // The revision /metrics reports as the build's version (@app/server-metrics).
    define: buildVersionDefine(here),
    logLevel: 'warning',
    // Bundled code that uses require() (none today) would need it in an ES module.
    banner: {
      js: "import { createRequire as __edgeCreateRequire } from 'node:module'; const require = __edgeCreateRequire(import.meta.url);",
    },
  });
  return EDGE_BUNDLE;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildEdge();
  console.log(
    `built ${path.relative(process.cwd(), EDGE_BUNDLE)} and ${path.relative(process.cwd(), FILES_BUNDLE)}`,
  );
}
