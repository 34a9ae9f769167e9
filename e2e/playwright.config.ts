import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_API_PORT, E2E_PORT_OFFSET, REMOTE_URLS, SHELL_URL, suitePort } from './support/ports';
import { SERVER_TEST_ENV } from './support/server-env';
import { suiteSettings } from './support/suite';

/**
 * The whole system in Debian's Chromium: production builds served by `pnpm start` on ports of the suite's
 * own (support/ports.ts: the edge on 3300, staging 3310, the remotes' files on 3301-3304, the API on 4400)
 * on a fresh database under a temp folder, created anew for every run.
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
// The live shell of this stack (SHELL_DIST): a copy of shell/dist made by start.mjs at each run, which
// tests/compatibility.spec.ts replaces with `pnpm ship-shell` as an operator would, leaving shell/dist alone.
export const SHELL_DIST = path.join(path.dirname(DB_PATH), 'shell');
if (!process.env.E2E_SHELL_DIST) {
  fs.rmSync(SHELL_DIST, { recursive: true, force: true });
  process.env.E2E_SHELL_DIST = SHELL_DIST; // workers load this file again: delete only once
}
// The runtime config the edge serves: the suite's e2e-config.json with the remotes' file servers where this
// stack runs them (the API's address the edge sets itself, from API_PORT).
const SHELL_CONFIG = path.join(path.dirname(DB_PATH), 'e2e-config.json');
const e2eConfig = JSON.parse(fs.readFileSync(SERVER_TEST_ENV.SHELL_CONFIG as string, 'utf8'));
for (const [name, url] of Object.entries(REMOTE_URLS)) e2eConfig.remotes[name].url = url;
fs.writeFileSync(SHELL_CONFIG, JSON.stringify(e2eConfig, null, 2));
const suiteOrigins = [3000, 3010, 3001, 3002, 3003, 3004]
  .map(suitePort)
  .flatMap((port) => [`http://localhost:${port}`, `http://127.0.0.1:${port}`]);

export default defineConfig({
  ...suiteSettings(SHELL_URL),
  // Two API instances and two edge instances: the cluster's (playwright.cluster.config.ts).
  testIgnore: ['deploy-propagation.spec.ts'],
  webServer: {
    command: 'node --import tsx scripts/start.mjs',
    cwd: '..',
    // start.mjs serves the shell last, after the API and the remotes answer.
    url: `${SHELL_URL}/config.json`,
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
      // on the suite's ports (production, staging, the remotes) and shell.spec.ts's second shell on 3100.
      CORS_ORIGINS: suiteOrigins.concat('http://localhost:3100').join(','),
      ...SERVER_TEST_ENV,
      SHELL_CONFIG,
      SHELL_DIST,
      PORT_OFFSET: String(E2E_PORT_OFFSET),
      API_PORT: String(E2E_API_PORT),
      // Mail through the spec's SMTP server, retried quickly: a mail enqueued while it is not listening is
      // tried again within seconds, never given up on during a run.
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      MAIL_POLL_MS: '200',
      MAIL_RETRY_BASE_MS: '500',
      MAIL_RETRY_FACTOR: '1.5',
      MAIL_RETRY_MAX_MS: '2000',
      MAIL_MAX_ATTEMPTS: '100',
      MAIL_SEND_TIMEOUT_MS: '5000',
      PUBLIC_SITE_URL: SHELL_URL,
      PREVIEW_BASE_URL: SHELL_URL,
    },
  },
});
