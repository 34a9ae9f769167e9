import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Vitest 4 transforms with oxc (its esbuild option is ignored): emotion's JSX runtime gives the css prop.
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  test: { environment: 'jsdom', setupFiles: ['./src/test/setup.ts'] },
});
