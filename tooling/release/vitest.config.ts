import { defineConfig } from 'vitest/config';

/** Each test file starts a real API (tsx, migrations): slower hooks than a unit suite. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
