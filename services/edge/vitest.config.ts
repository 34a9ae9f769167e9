import { defineConfig } from 'vitest/config';

/**
 * The edge's tests run its TypeScript sources, but a release's renderer runs in the compiled worker
 * (dist/render-worker.mjs, the file the sandbox lets a worker read): the global setup builds the edge first.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/build-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
