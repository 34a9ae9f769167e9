import fs from 'node:fs';
import path from 'node:path';
import { ENVIRONMENT_NAME_PATTERN } from '@app/rollout';
import { rolloutPaths } from '@app/rollout/node';
import { RolloutError } from './errors';

// The release and rollout CLIs' one configuration module (issue 35): every variable they read is read
// here: DEPLOY_API_URL, API_PORT, DEPLOY_TOKEN, DEPLOY_ENV, DEPLOY_DIR (through @app/rollout's paths),
// PREVIEW_BASE_URL, SHELL_DIST and INIT_CWD (docs/configuration.md).
type Env = Record<string, string | undefined>;

/** A path the person typed, relative to where they typed the command (pnpm runs us in the package folder). */
export function typedPath(file: string, env: Env = process.env): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), file);
}

/** PREVIEW_BASE_URL: where preview links point unless --base-url says; undefined: the API's default. */
export function previewBaseUrlFrom(env: Env = process.env): string | undefined {
  return env.PREVIEW_BASE_URL?.trim() || undefined;
}

/**
 * SHELL_DIST: the live shell's folder, which `pnpm ship-shell` writes into (the edge serves it and the API's
 * SHELL_MANIFEST defaults to its mf-manifest.json); relative to where the command was typed. Else
 * `<root>/shell/dist`, as the edge's default.
 */
export function shellDistFrom(root: string, env: Env = process.env): string {
  const dir = env.SHELL_DIST?.trim();
  return dir ? typedPath(dir, env) : path.join(root, 'shell', 'dist');
}

/** Where the CLI sends its calls, with which credential, for which environment. */
export interface DeployTarget {
  /** The API's base URL, without a trailing slash (a path prefix is kept). */
  url: string;
  token: string | null;
  /** Where the token came from, for the 401 message: a person needs to know what to fix. */
  tokenSource: string;
  environment: string;
}

/** The file the local API writes at start (its own admin token), read when no DEPLOY_TOKEN is given. */
export const LOCAL_TOKEN_FILE = 'local-deploy-token';

export function localTokenFile(env: Env = process.env): string {
  // rolloutPaths resolves DEPLOY_DIR as every other tool does (relative to where the command was typed).
  return path.join(rolloutPaths({ ...env, DEPLOY_ENV: undefined }).deployDir, LOCAL_TOKEN_FILE);
}

function baseUrlOf(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RolloutError(`${from} "${raw}" is not a URL (like https://deploy.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RolloutError(`${from} must be an http or https URL, got "${raw}"`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function environmentName(raw: string, from: string): string {
  if (!ENVIRONMENT_NAME_PATTERN.test(raw))
    throw new RolloutError(`${from} must be lowercase letters, digits and dashes, got "${raw}"`);
  return raw;
}

/**
 * `--to`, else DEPLOY_API_URL, else the local API (API_PORT, default 4000). The token: DEPLOY_TOKEN, else the
 * local install's own token file; that file is only ever sent to a loopback address, so an admin credential
 * of this machine never travels to whatever `--to` names. `--env`, else DEPLOY_ENV, else production.
 */
export function resolveTarget(
  options: { to?: string; env?: string } = {},
  env: Env = process.env,
): DeployTarget {
  const url = options.to
    ? baseUrlOf(options.to, '--to')
    : env.DEPLOY_API_URL?.trim()
      ? baseUrlOf(env.DEPLOY_API_URL.trim(), 'DEPLOY_API_URL')
      : `http://127.0.0.1:${env.API_PORT?.trim() || 4000}`;
  const environment = options.env
    ? environmentName(options.env, '--env')
    : env.DEPLOY_ENV?.trim()
      ? environmentName(env.DEPLOY_ENV.trim(), 'DEPLOY_ENV')
      : 'production';
  if (env.DEPLOY_TOKEN?.trim()) {
    return { url, token: env.DEPLOY_TOKEN.trim(), tokenSource: 'DEPLOY_TOKEN', environment };
  }
  const file = localTokenFile(env);
  if (!LOOPBACK.has(new URL(url).hostname)) {
    return { url, token: null, tokenSource: `DEPLOY_TOKEN is not set (needed for ${url})`, environment };
  }
  let token: string | null = null;
  try {
    token = fs.readFileSync(file, 'utf8').trim() || null;
  } catch {}
  return {
    url,
    token,
    tokenSource: token
      ? `the local API's token ${file}`
      : `DEPLOY_TOKEN is not set and ${file} does not exist (start the local API once)`,
    environment,
  };
}
