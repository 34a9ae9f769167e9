import path from 'node:path';
import { E2E_API_PORT } from './ports';

/**
 * The API's settings for every e2e run (`pnpm start` and the cluster): what the suite does many times from
 * one machine must not meet the limits a real visitor never meets.
 */
export const API_TEST_ENV: Record<string, string> = {
  // Every page of the suite reports remote loads from one address.
  RATE_LIMIT_HEALTH: '5000/1m',
  // Rate limits (issue 19): the suite registers, logs in and writes from 127.0.0.1 many times, so it
  // gets limits far above its needs (also across local runs on a reused database). 127.0.0.1 is the
  // trusted proxy: tests/rate-limits.spec.ts names its own client in X-Forwarded-For and uses up that
  // address's budget. survey.spec.ts stores two assessments of one email, so no repeat window here.
  TRUSTED_PROXIES: '127.0.0.1,::1',
  RATE_LIMIT_REGISTER: '1000/1h',
  RATE_LIMIT_LOGIN: '1000/1m',
  RATE_LIMIT_ASSESSMENT: '1000/1h',
  RATE_LIMIT_ANONYMOUS: '1000/1m',
  RATE_LIMIT_POST: '10000/1h',
  RATE_LIMIT_COMMENT: '10000/1h',
  RATE_LIMIT_LIKE: '10000/1h',
  RATE_LIMIT_ACCOUNT: '10000/1h',
  RATE_LIMIT_RESET: '1000/1h',
  // Issue 46: failed logins per client address; the suite fails logins on purpose, all from 127.0.0.1.
  LOCKOUT_ADDRESS_MAX_ATTEMPTS: '1000',
};

/** The servers' settings every topology shares: the e2e runtime config, activation, quiet logs, limits. */
export const SERVER_TEST_ENV: Record<string, string> = {
  SHELL_CONFIG: path.join(import.meta.dirname, 'e2e-config.json'),
  // Every browser of the suite is a new visitor from 127.0.0.1: far more than the edge lets one address
  // become (NEW_VISITORS_PER_ADDRESS, 300 an hour by default), so the suite's edges allow as many as it makes.
  NEW_VISITORS_PER_ADDRESS: '1000000/1h',
  REQUIRES_ACTIVATION: 'true',
  LOG_LEVEL: 'silent',
  LOCKOUT_MAX_ATTEMPTS: '5',
  ...API_TEST_ENV,
};

/**
 * The database of the servers under test, for the admin CLI the suite runs beside them (`pnpm admin`):
 * PostgreSQL in the cluster topology (E2E_DATABASE_URL), else the SQLite file.
 */
export const databaseEnv = (): Record<string, string> => ({
  DB_PATH: process.env.E2E_DB_PATH ?? '',
  ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
});

/**
 * What `pnpm release` and `pnpm rollout` need to reach the servers under test: only their deploy API (no
 * database, no deployment files). DEPLOY_DIR is where the API wrote its local token, which the CLI sends to
 * a loopback API without a DEPLOY_TOKEN.
 */
export const deployCliEnv = (): Record<string, string> => ({
  DEPLOY_API_URL:
    process.env.E2E_DEPLOY_API_URL ?? process.env.E2E_API_URL ?? `http://127.0.0.1:${E2E_API_PORT}`,
  DEPLOY_ENV: process.env.E2E_DEPLOY_ENV ?? 'production',
  DEPLOY_DIR: process.env.E2E_DEPLOY_DIR ?? '',
});
