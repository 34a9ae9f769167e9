import { devices, type PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';

/**
 * What a run of the suite is, whatever the topology under test (`pnpm start`, or the cluster behind nginx):
 * one worker in order, one retry in CI, Debian's Chromium, and the run failing on any collected CSP report.
 */
export function suiteSettings(baseURL: string): PlaywrightTestConfig {
  return {
    testDir: './tests',
    globalTeardown: './support/csp-teardown.ts',
    fullyParallel: false,
    workers: 1,
    retries: process.env.CI ? 1 : 0,
    timeout: 30_000,
    expect: { timeout: 10_000 },
    reporter: [['list']],
    use: {
      baseURL,
      trace: 'retain-on-failure',
      screenshot: 'only-on-failure',
      launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    },
    projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  };
}
