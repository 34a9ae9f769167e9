import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Vitest 4 transforms with oxc: emotion's JSX runtime so the css prop becomes styles, as in the build.
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  test: { environment: 'jsdom', globals: true, testTimeout: 15_000, setupFiles: ['./src/test/setup.ts'] },
});
