import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * The whole system in Debian's Chromium: production builds served by `pnpm start` (static servers on
 * 3000-3004, the API on 4000) on a fresh database under a temp folder, created anew for every run.
 */
export const RUN_DIR = process.env.E2E_RUN_DIR ?? path.join(os.tmpdir(), `e2e-${process.pid}`);
process.env.E2E_RUN_DIR = RUN_DIR;
export const DB_PATH = path.join(RUN_DIR, 'e2e.db');
fs.mkdirSync(RUN_DIR, { recursive: true });
process.env.E2E_DB_PATH = DB_PATH;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: 'http://localhost:3000',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: '..',
    url: 'http://localhost:4000/api/health',
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DB_PATH,
      SHELL_CONFIG: path.join(import.meta.dirname, 'support', 'e2e-config.json'),
      REQUIRES_ACTIVATION: 'true',
      LOG_LEVEL: 'silent',
      LOGIN_MAX_ATTEMPTS: '5',
    },
  },
});
