// The vitest setup every React app and package shares, so the seven configs cannot drift apart again
// (they had: globals in some, a longer timeout in one, the JSX runtime commented three different ways).
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';

/**
 * jsdom, the test globals, Testing Library's 5 s wait (dom-timeouts.mjs), `./src/test/setup.ts`, and emotion's JSX runtime, as in the webpack build, so
 * the css prop becomes styles. Vitest 4 transforms with oxc (its esbuild option is ignored), hence `oxc`.
 * @param {import('vitest/config').UserConfig} [overrides] what one package needs beyond that
 */
export function reactTestConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      oxc: { jsx: { runtime: 'automatic', importSource: '@emotion/react' } },
      test: {
        environment: 'jsdom',
        globals: true,
        setupFiles: [fileURLToPath(new URL('./dom-timeouts.mjs', import.meta.url)), './src/test/setup.ts'],
        // Whole screens with user-event on a busy 2-core CI machine take seconds, not milliseconds.
        testTimeout: 15_000,
      },
    }),
    overrides,
  );
}
