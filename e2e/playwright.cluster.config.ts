import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SERVER_TEST_ENV } from './support/server-env';
import { suiteSettings } from './support/suite';

/**
 * Issue 12 and 30: a named subset of the suite once against the cluster topology (`pnpm test:e2e:cluster`):
 * nginx on 8280 in front of two edge instances (4211, 4212: the pages) and two API instances (4201, 4202)
 * on one PostgreSQL database, everything on nginx's origin.
 * It covers login and the account, research writes, the survey, each remote's faults, the edge's pages
 * (edge.spec.ts) and a deployment change through one API instance seen by another edge instance within 1 s
 * (deploy-propagation.spec.ts). A fresh database, release store and deployment under a temp folder every run.
 */
const PORT = 8280;
const ORIGIN = `http://localhost:${PORT}`;
const WORK = path.join(os.tmpdir(), 'app-e2e-cluster');
if (!process.env.E2E_CLUSTER_READY) {
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(WORK, { recursive: true, mode: 0o755 });
  process.env.E2E_CLUSTER_READY = '1'; // workers load this file again: clear only once
}
const RUN_DIR = path.join(WORK, 'run');
// The cluster's release store and deployment: the suite's `pnpm release` and `pnpm rollout` calls
// (support/rollout.ts) change what both edge instances serve.
const RELEASE_STORE_DIR = path.join(WORK, 'releases');
const DEPLOY_DIR = path.join(WORK, 'deploy');
process.env.E2E_RELEASE_STORE_DIR = RELEASE_STORE_DIR;
process.env.E2E_DEPLOY_DIR = DEPLOY_DIR;
process.env.E2E_DB_PATH = path.join(WORK, 'e2e.db');
const PG_PORT = 5442;
// The cluster's PostgreSQL (fresh every run): the suite's `pnpm admin` and `pnpm rollout` calls use it too.
process.env.E2E_DATABASE_URL = `postgres://postgres@127.0.0.1:${PG_PORT}/app`;
process.env.E2E_API_URL = ORIGIN;
process.env.E2E_SHELL_URL = ORIGIN;
// `pnpm release` and `pnpm rollout` (support/rollout.ts) go through nginx like a team's pipeline would, with
// the token the API instances wrote in DEPLOY_DIR; the edges serve production.
process.env.E2E_DEPLOY_API_URL = ORIGIN;
process.env.E2E_DEPLOY_ENV = 'production';
// deploy-propagation.spec.ts addresses one API instance and one edge instance directly.
process.env.E2E_CLUSTER_API_PORTS = '4201,4202';
process.env.E2E_CLUSTER_EDGE_PORTS = '4211,4212';
// nginx logs each CSP report it receives: any line fails the run (support/csp-teardown.ts).
process.env.E2E_CSP_REPORT_FILE = path.join(RUN_DIR, 'csp-reports.log');
process.env.E2E_CSP_REPORT_START ??= '0';

export default defineConfig({
  ...suiteSettings(ORIGIN),
  testMatch: [
    'account.spec.ts',
    'research.spec.ts',
    'survey.spec.ts',
    'faults.spec.ts',
    'edge.spec.ts',
    'deploy-propagation.spec.ts',
    // Issue 47: a dev override through nginx and two edges.
    'dev-override.spec.ts',
  ],
  // Not e2e/test-results: a run of the other config (which empties that folder when it starts) may be under
  // way at the same time.
  outputDir: path.join(WORK, 'test-results'),
  webServer: {
    command: 'node --import tsx scripts/cluster/cluster.mjs',
    cwd: '..',
    url: `${ORIGIN}/api/health`,
    reuseExistingServer: false,
    // SIGTERM lets the cluster stop its PostgreSQL server too (a SIGKILL would leave it running).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      CLUSTER_PORT: String(PORT),
      CLUSTER_API_PORTS: process.env.E2E_CLUSTER_API_PORTS,
      // Ports of its own, never the defaults (3101, 3102) of a `pnpm start:cluster` on this machine.
      CLUSTER_EDGE_PORTS: process.env.E2E_CLUSTER_EDGE_PORTS,
      CLUSTER_RUN_DIR: RUN_DIR,
      // PostgreSQL of its own, fresh every run (testing/local-postgres).
      CLUSTER_PG_DIR: path.join(WORK, 'postgres'),
      CLUSTER_PG_PORT: String(PG_PORT),
      CLUSTER_FRESH_DATABASE: '1',
      // The demo posts the suite reads (the cluster seeds none unless asked, issue 48).
      SEED_DEMO: 'true',
      DB_PATH: process.env.E2E_DB_PATH,
      RELEASE_STORE_DIR,
      DEPLOY_DIR,
      ...SERVER_TEST_ENV,
    },
  },
});
