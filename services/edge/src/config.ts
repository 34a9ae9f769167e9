// The edge's one configuration module (issue 35): every variable the edge's processes read (the edge itself,
// src/main.ts, and the remotes' file servers, src/files-main.ts), with its default, read and checked here
// and nowhere else. docs/configuration.md lists them; the defaults below are the ones it states.
import path from 'node:path';
import { isProxyEntry } from '@app/client-address';
import { type LimitSpec, parseLimitSpec } from '@app/client-address/limit-spec';
import { ENVIRONMENT_NAME_PATTERN } from '@app/rollout';
import { type RolloutPaths, rolloutPaths } from '@app/rollout/node';
import { OTEL_VARIABLES } from '@app/server-telemetry';
import { DEFAULT_NEW_VISITOR_LIMIT } from './new-visitors';
import { corsOriginsFrom } from './security-headers';

type Env = Record<string, string | undefined>;

/**
 * Every variable the edge's processes read, and the few any Node process needs. A launcher hands the edge
 * these and nothing more (edgeEnvironment): the API's secrets (DATABASE_URL, SMTP_URL, …) and the deploy
 * folder (DEPLOY_DIR) never reach the edge, nor, through it, a release's code (issue 44).
 */
const EDGE_VARIABLES = [
  'PORT',
  'HOST',
  'DEPLOY_ENV',
  'EXTRA_ENVIRONMENTS',
  'API_URL',
  'API_BASE_URL',
  'SHELL_DIST',
  'SHELL_CONFIG',
  'RELEASE_STORE_DIR',
  'EDGE_SECRET',
  'CORS_ORIGINS',
  'ALLOWED_ORIGINS',
  'SERVE_SOURCE_MAPS',
  'CSP_REPORT_FILE',
  'DRAIN_TIMEOUT_MS',
  'TRUSTED_PROXIES',
  'PUBLIC_SITE_URL',
  'NEW_VISITORS_PER_ADDRESS',
  'RENDER_TIMEOUT_MS',
  'RENDER_WORKERS_MAX',
  'RENDER_MEMORY_MB',
  'FILE_SERVERS',
  'LOG_LEVEL',
  // Traces (@app/server-telemetry): the endpoint and the few settings of the SDK the docs name.
  ...OTEL_VARIABLES,
  'NODE_ENV',
  'PATH',
  'TZ',
  'LANG',
];

export function edgeEnvironment(env: Env): Record<string, string> {
  return Object.fromEntries(
    EDGE_VARIABLES.filter((name) => env[name] !== undefined).map((name) => [name, env[name] as string]),
  );
}

/** What every server of this package reads, pages or plain files (serve.ts's defaults). */
export interface FileServingConfig {
  /** CORS_ORIGINS: origins whose pages may read these files cross-origin (the API's CORS_ORIGINS too). */
  corsOrigins: string[];
  /** SERVE_SOURCE_MAPS=1 serves *.map files; otherwise they are a 404. */
  serveSourceMaps: boolean;
  /** EDGE_SECRET: the visitor cookie's key; undefined: one of this process's own (tests, a lone instance). */
  edgeSecret: string | undefined;
  /** CSP_REPORT_FILE: where CSP violation reports are appended; undefined: logged only. */
  cspReportFile: string | undefined;
  /**
   * TRUSTED_PROXIES: addresses (or CIDR ranges) whose X-Forwarded-For names the client, as for the API;
   * default: this machine (a proxy on loopback, as nginx in the cluster).
   */
  trustedProxies: string[];
  /** NEW_VISITORS_PER_ADDRESS (`300/1h`): new counted visitors one client address may become (new-visitors.ts). */
  newVisitorLimit: LimitSpec;
  /**
   * PUBLIC_SITE_URL: the site's public origin, as the API's. When it is https every cookie the edge sets is
   * Secure, whatever the scheme of the hop that reached the edge (issue 46).
   */
  publicSiteUrl: string | undefined;
}

function trustedProxiesFrom(env: Env): string[] {
  const entries = (env.TRUSTED_PROXIES ?? '127.0.0.1,::1')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!isProxyEntry(entry))
      throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
  }
  return entries;
}

function publicSiteUrlOf(env: Env): string | undefined {
  const value = env.PUBLIC_SITE_URL?.trim();
  if (value && !/^https?:\/\/[^/\s]+/i.test(value))
    throw new Error(`PUBLIC_SITE_URL must be an http or https URL, not ${value}`);
  return value || undefined;
}

let warnedAlias = false;
/** ALLOWED_ORIGINS was the edge's name for CORS_ORIGINS until issue 35: still read, with one warning. */
function corsOriginsOf(env: Env, warn: (line: string) => void): string[] {
  const legacy = env.ALLOWED_ORIGINS?.trim();
  const current = env.CORS_ORIGINS?.trim();
  if (legacy && !warnedAlias) {
    warnedAlias = true;
    warn(
      current
        ? 'edge: ALLOWED_ORIGINS is ignored: CORS_ORIGINS is set (ALLOWED_ORIGINS is its old name; drop it)'
        : 'edge: ALLOWED_ORIGINS is deprecated: name the origins CORS_ORIGINS (the same as the API)',
    );
  }
  return corsOriginsFrom(current || legacy);
}

export function fileServingConfig(
  env: Env = process.env,
  warn: (line: string) => void = (line) => console.warn(line),
): FileServingConfig {
  return {
    corsOrigins: corsOriginsOf(env, warn),
    serveSourceMaps: env.SERVE_SOURCE_MAPS === '1',
    edgeSecret: env.EDGE_SECRET || undefined,
    cspReportFile: env.CSP_REPORT_FILE || undefined,
    trustedProxies: trustedProxiesFrom(env),
    newVisitorLimit: env.NEW_VISITORS_PER_ADDRESS
      ? parseLimitSpec('NEW_VISITORS_PER_ADDRESS', env.NEW_VISITORS_PER_ADDRESS)
      : DEFAULT_NEW_VISITOR_LIMIT,
    publicSiteUrl: publicSiteUrlOf(env),
  };
}

/** The sandbox each release's server renderer runs in (render-sandbox/, docs/decisions/0036-render-sandbox.md). */
export interface RenderSandboxConfig {
  /** RENDER_TIMEOUT_MS (1000): one render's budget; past it the worker is killed and the page goes without. */
  timeoutMs: number;
  /** RENDER_WORKERS_MAX (6): release workers at once; the least recently used makes room. */
  maxWorkers: number;
  /** RENDER_MEMORY_MB (512): a worker's writable memory; its V8 heap is capped at 3/8 of it. */
  memoryMb: number;
}

function wholeNumber(env: Env, key: string, fallback: number, min: number): number {
  const raw = env[key];
  const n = Number(raw ?? fallback);
  if (!Number.isSafeInteger(n) || n < min)
    throw new Error(`${key} must be a whole number of at least ${min}, not ${raw}`);
  return n;
}

export function renderSandboxConfig(env: Env = process.env): RenderSandboxConfig {
  return {
    timeoutMs: wholeNumber(env, 'RENDER_TIMEOUT_MS', 1000, 50),
    maxWorkers: wholeNumber(env, 'RENDER_WORKERS_MAX', 6, 1),
    memoryMb: wholeNumber(env, 'RENDER_MEMORY_MB', 512, 128),
  };
}

function drainTimeoutFrom(env: Env): number {
  const ms = Number(env.DRAIN_TIMEOUT_MS ?? 10_000);
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new Error(`DRAIN_TIMEOUT_MS must be a whole number of milliseconds, not ${env.DRAIN_TIMEOUT_MS}`);
  return ms;
}

/** The edge process (src/main.ts). */
export interface EdgeConfig {
  host: string;
  /** DEPLOY_ENV on PORT, then EXTRA_ENVIRONMENTS (`staging:3010,…`): one listener each. */
  listeners: Array<{ environment: string; port: number }>;
  /** RELEASE_STORE_DIR (@app/rollout's paths, as the API and the CLI read them; the edge reads the store only). */
  paths: RolloutPaths;
  /** SHELL_DIST: the shell's build. */
  shellDist: string;
  /** SHELL_CONFIG: the runtime config file (watched); default: the build's config.json. */
  shellConfig: string;
  /** API_URL: the API as the edge reaches it, server to server; undefined: the config's apiBaseUrl. */
  apiUrl: string | undefined;
  /** API_BASE_URL: the API as the browser reaches it, in place of the runtime config's apiBaseUrl. */
  apiBaseUrl: string | undefined;
  /** EDGE_SECRET; undefined: a key of this process's own (main.ts warns). */
  edgeSecret: string | undefined;
  drainTimeoutMs: number;
  /** LOG_LEVEL: `info` (default) writes one JSON line per page on stdout; `error` or `silent`: none. */
  logLevel: 'info' | 'error' | 'silent';
}

function listenersFrom(env: Env): EdgeConfig['listeners'] {
  const main = { environment: env.DEPLOY_ENV || 'production', port: Number(env.PORT ?? 3000) };
  const extra = (env.EXTRA_ENVIRONMENTS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [environment = '', port = ''] = item.split(':');
      return { environment, port: Number(port) };
    });
  const all = [main, ...extra];
  for (const { environment, port } of all) {
    if (!ENVIRONMENT_NAME_PATTERN.test(environment))
      throw new Error(
        `"${environment}" is not an environment name (DEPLOY_ENV, EXTRA_ENVIRONMENTS=<env>:<port>)`,
      );
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`no valid port for ${environment}`);
  }
  return all;
}

function absoluteUrl(env: Env, key: 'API_URL' | 'API_BASE_URL'): string | undefined {
  const value = env[key]?.trim();
  if (value && !URL.canParse(value)) throw new Error(`${key} must be an absolute URL, not ${value}`);
  return value || undefined;
}

export function edgeConfig(env: Env = process.env): EdgeConfig {
  const paths = rolloutPaths(env);
  const shellDist = path.resolve(env.SHELL_DIST ?? path.join(paths.root, 'shell', 'dist'));
  return {
    host: env.HOST ?? '0.0.0.0',
    listeners: listenersFrom(env),
    paths,
    shellDist,
    shellConfig: env.SHELL_CONFIG ? path.resolve(env.SHELL_CONFIG) : path.join(shellDist, 'config.json'),
    apiUrl: absoluteUrl(env, 'API_URL'),
    apiBaseUrl: absoluteUrl(env, 'API_BASE_URL'),
    edgeSecret: env.EDGE_SECRET || undefined,
    drainTimeoutMs: drainTimeoutFrom(env),
    logLevel: logLevelFrom(env),
  };
}

/** LOG_LEVEL, as the API reads it (`info`, `error`, `silent`). */
function logLevelFrom(env: Env): EdgeConfig['logLevel'] {
  const level = env.LOG_LEVEL || 'info';
  if (level !== 'info' && level !== 'error' && level !== 'silent')
    throw new Error(`LOG_LEVEL must be info, error or silent, not ${level}`);
  return level;
}

/** The remotes' file servers (src/files-main.ts). */
export interface FileServersConfig {
  /** FILE_SERVERS: JSON, [{ "name": "mf-account", "dir": "/abs/mf-account/dist", "port": 3001 }, …]. */
  servers: Array<{ name: string; dir: string; port: number }>;
  host: string;
  drainTimeoutMs: number;
}

export function fileServersConfig(env: Env = process.env): FileServersConfig {
  const parsed: unknown = JSON.parse(env.FILE_SERVERS ?? '[]');
  const valid = (s: unknown) => {
    const o = s as { name?: unknown; dir?: unknown; port?: unknown } | null;
    return !!o && typeof o.name === 'string' && typeof o.dir === 'string' && Number.isInteger(o.port);
  };
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(valid))
    throw new Error('FILE_SERVERS must be a JSON array of { name, dir, port }');
  return { servers: parsed, host: env.HOST ?? '0.0.0.0', drainTimeoutMs: drainTimeoutFrom(env) };
}
