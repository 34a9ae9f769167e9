import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Vite 8 transforms with oxc (esbuild options are ignored): emotion's JSX runtime makes the css prop work.
  oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
  test: { environment: 'jsdom', globals: true, setupFiles: ['./src/test/setup.ts'] },
});
