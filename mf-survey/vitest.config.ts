import { defineConfig } from 'vitest/config';

// Vitest 4 transforms with oxc (its esbuild option is ignored): emotion's JSX runtime gives the css prop.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  test: { environment: 'jsdom', globals: true, setupFiles: ['./src/test/setup.ts'] },
});
