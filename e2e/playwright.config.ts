import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SERVER_TEST_ENV } from './support/server-env';
import { suiteSettings } from './support/suite';

/**
 * The whole system in Debian's Chromium: production builds served by `pnpm start` (the edge and the remotes' file servers on
 * 3000-3004, the API on 4000) on a fresh database under a temp folder, created anew for every run.
 */
// One well-known database file for e2e, so the admin CLI the tests run writes to the database the server
// reads. CI starts from an empty file every run.
export const DB_PATH = process.env.E2E_DB_PATH ?? path.join(os.tmpdir(), 'app-e2e', 'e2e.db');
if (process.env.CI && !process.env.E2E_DB_READY) {
  fs.rmSync(path.dirname(DB_PATH), { recursive: true, force: true });
  process.env.E2E_DB_READY = '1'; // workers load this file again: delete only once
}
fs.mkdirSync(path.dirname(DB_PATH), { recursive: true });
process.env.E2E_DB_PATH = DB_PATH;
export const RELEASE_STORE_DIR = path.join(path.dirname(DB_PATH), 'releases');
export const DEPLOY_DIR = path.join(path.dirname(DB_PATH), 'deploy');
/**
 * Where the API delivers mail (issue 34): tests/password-reset.spec.ts listens here with a real SMTP server
 * while it runs. At other times nothing listens: mail waits in the outbox and is retried, as in production.
 */
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2525);
process.env.E2E_SMTP_PORT = String(E2E_SMTP_PORT);
process.env.E2E_RELEASE_STORE_DIR = RELEASE_STORE_DIR;
// CSP violation reports the edge and the file servers receive (support/csp-teardown.ts fails the run on any new one).
export const CSP_REPORT_FILE = path.join(path.dirname(DB_PATH), 'csp-reports.jsonl');
process.env.E2E_CSP_REPORT_FILE = CSP_REPORT_FILE;
process.env.E2E_CSP_REPORT_START ??= String(
  fs.existsSync(CSP_REPORT_FILE) ? fs.statSync(CSP_REPORT_FILE).size : 0,
);
process.env.E2E_DEPLOY_DIR = DEPLOY_DIR;

export default defineConfig({
  ...suiteSettings('http://localhost:3000'),
  // Two API instances and two edge instances: the cluster's (playwright.cluster.config.ts).
  testIgnore: ['deploy-propagation.spec.ts'],
  webServer: {
    command: 'node --import tsx scripts/start.mjs',
    cwd: '..',
    // start.mjs serves the shell last, after the API and the remotes answer.
    url: 'http://localhost:3000/config.json',
    // Never reused: a `pnpm start` already on these ports (its own database, its own deployment) would be
    // tested in place of the stack this run starts, while the admin commands write to the e2e database.
    // Playwright refuses to start instead, naming the port in use (issue 35).
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DB_PATH,
      // A release store and deployment of the run's own, started from the current builds.
      RELEASE_STORE_DIR,
      DEPLOY_DIR,
      // The builds under test are what visitors get, also when a local store is reused between runs.
      ROLLOUT_FOLLOW_BUILDS: '1',
      CSP_REPORT_FILE,
      // The origins the API and the remotes' files admit (one list, CORS_ORIGINS): what `pnpm start` admits
      // (production 3000, staging 3010, the remotes 3001-3004) and shell.spec.ts's second shell on 3100.
      CORS_ORIGINS: [3000, 3010, 3001, 3002, 3003, 3004]
        .flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`])
        .concat('http://localhost:3100')
        .join(','),
      ...SERVER_TEST_ENV,
      // Mail through the spec's SMTP server, retried quickly: a mail enqueued while it is not listening is
      // tried again within seconds, never given up on during a run.
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      MAIL_POLL_MS: '200',
      MAIL_RETRY_BASE_MS: '500',
      MAIL_RETRY_FACTOR: '1.5',
      MAIL_RETRY_MAX_MS: '2000',
      MAIL_MAX_ATTEMPTS: '100',
      MAIL_SEND_TIMEOUT_MS: '5000',
      PUBLIC_SITE_URL: 'http://localhost:3000',
    },
  },
});
