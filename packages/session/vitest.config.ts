import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: '@emotion/react' },
  test: { environment: 'jsdom', setupFiles: ['./src/test/setup.ts'] },
});
