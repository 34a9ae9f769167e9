// For the services' build.mjs (plain JavaScript: build scripts run on plain `node`). A service's entry
// (src/main.ts) starts the traces and then does `await import('./server-process')`; esbuild would inline
// that module into main.mjs and hoist its imports (node:http, hono, …) above the telemetry's start, so
// node:http would be loaded before OpenTelemetry's instrumentation is in place. This plugin leaves the
// import as one of the sibling bundle dist/server-process.mjs (its own entry point in build.mjs).

/** esbuild plugin: `./server-process` imported from an entry main.ts stays an import of ./server-process.mjs. */
export const separateServerProcess = {
  name: 'separate-server-process',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\/server-process$/ }, (args) =>
      /[\\/]main\.ts$/.test(args.importer) ? { path: './server-process.mjs', external: true } : undefined,
    );
  },
};
