import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LimitSpec, parseLimitSpec } from '@app/client-address/limit-spec';
import { SAME_STOP_MS } from '@app/http-lifecycle';
import { DEFAULT_CORS_ORIGINS, EnvironmentNameSchema } from '@app/rollout';
import { overrideOriginsFrom } from '@app/rollout/dev-override';
import { type RolloutPaths, rolloutPaths } from '@app/rollout/node';
import * as v from 'valibot';
import { DEFAULT_SITE, SiteConfigSchema, siteFrom } from './config-site';
import { isProxyEntry } from './rate-limit/client-address';
import { shellManifestFile } from './services/deploy-compat';

/** Where the package lives, so the default DB path does not depend on the working directory. */
const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_DB_PATH = path.join(PACKAGE_DIR, 'data', 'app.db');

const Int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const AbsPath = v.pipe(v.string(), v.nonEmpty(), v.check(path.isAbsolute, 'must be an absolute path'));

const DAY_MS = 86_400_000;
const LimitSchema = v.object({ limit: Int(1, 10_000_000), windowMs: Int(1, 30 * DAY_MS) });

/** Every rate limit by name (src/rate-limit/limits.ts says which requests each one counts). */
export const LIMIT_NAMES = [
  'register',
  'login',
  'assessment',
  'health',
  'anonymous',
  'post',
  'comment',
  'like',
  'account',
  'reset',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

const RolloutPathsSchema = v.object({
  root: AbsPath,
  store: AbsPath,
  deployDir: AbsPath,
  environment: EnvironmentNameSchema,
  manifestFile: AbsPath,
  auditFile: AbsPath,
  lockFile: AbsPath,
}) satisfies v.GenericSchema<RolloutPaths>;

export const ConfigSchema = v.object({
  port: Int(0, 65535),
  host: v.string(),
  dbPath: v.pipe(v.string(), v.nonEmpty()),
  /** PostgreSQL instead of the SQLite file at dbPath (issue 12): DATABASE_URL=postgres://user@host:port/db. */
  databaseUrl: v.nullable(
    v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\/\S+$/, 'DATABASE_URL must be a postgres:// URL')),
  ),
  /** PG_BIN_DIR: where pg_dump and pg_restore are (backups); null: Debian's newest, else the PATH. */
  pgBinDir: v.nullable(v.pipe(v.string(), v.nonEmpty())),
  requiresActivation: v.boolean(),
  corsOrigins: v.array(v.pipe(v.string(), v.url())),
  logLevel: v.picklist(['info', 'error', 'silent']),
  sessionTtlMs: Int(1000, 365 * 24 * 3600 * 1000),
  /** SESSION_IDLE_MS (issue 46): a session unused this long ends, whatever SESSION_TTL_MS still allows. */
  sessionIdleMs: Int(60_000, 365 * 24 * 3600 * 1000),
  sessionCacheMs: Int(0, 60_000),
  listCacheSize: Int(0, 100_000),
  searchCacheSize: Int(0, 100_000),
  bodyLimitBytes: Int(1024, 50 * 1024 * 1024),
  /** Expensive endpoints (full-text search): see src/expensive-limit.ts. */
  expensive: v.object({
    concurrency: Int(1, 1000),
    maxWaitMs: Int(0, 60_000),
    retryAfterSeconds: Int(1, 3600),
  }),
  /** Worker threads that run full-text search off the event loop (src/db/read-pool.ts); 0 runs it inline. */
  searchWorkers: Int(0, 16),
  /** JSON answers at least this large are compressed (brotli or gzip) when the client accepts it. */
  compressMinBytes: Int(0, 10 * 1024 * 1024),
  /** On SIGTERM/SIGINT, how long requests in flight may take before their connections are closed. */
  drainTimeoutMs: Int(0, 10 * 60_000),
  /** A second SIGTERM/SIGINT this soon after the first is the same stop (logged, ignored); later, exit at once. */
  stopRepeatWindowMs: Int(0, 60_000),
  lockout: v.object({
    maxAttempts: Int(1, 1000),
    windowMs: Int(1, 86_400_000),
    durationMs: Int(1, 86_400_000),
    /** Issue 46: failed logins from one client address, across accounts, before the address is locked. */
    addressMaxAttempts: v.optional(Int(1, 100_000), 30),
  }),
  /** Issue 46: the second factor. A sensitive admin action needs a code verified this long ago at most. */
  twoFactor: v.object({ stepUpMs: Int(1000, DAY_MS) }),
  argon2: v.object({ memoryCost: Int(8, 4_194_304), timeCost: Int(1, 20), parallelism: Int(1, 16) }),
  seedDemo: v.boolean(),
  rollout: v.object({
    /** Release store and deployment files (RELEASE_STORE_DIR, DEPLOY_DIR, DEPLOY_ENV), as the CLI sees them. */
    paths: RolloutPathsSchema,
    /**
     * EDGE_SECRET, the edge's key, from which health tickets' key is derived (docs/decisions/0027-health-gate.md);
     * when null, the deploy folder's edge-secret file (made by whichever of the edge and the API comes first).
     */
    edgeSecret: v.nullable(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  }),
  /** The deploy control plane (issue 33, docs/decisions/0030-deploy-control-plane.md). */
  deploy: v.object({
    /** DEPLOY_ENVIRONMENTS, in promotion order: `adopt` takes a version from the one before. */
    environments: v.pipe(
      v.array(EnvironmentNameSchema),
      v.minLength(1, 'must name at least one environment'),
    ),
    /** DEPLOY_ENV: the environment the admin view shows and the CLI changes by default. */
    environment: EnvironmentNameSchema,
    /** DEPLOY_BUNDLE_MAX_BYTES: the largest release upload, counted on the raw request stream. */
    bundleMaxBytes: Int(1024, 10 * 1024 * 1024 * 1024),
    /** RELEASE_KEEP: releases of a remote kept after an upload (plus every version a manifest names). */
    releaseKeep: Int(1, 10_000),
    /** The live shell's mf-manifest.json, the compatibility gate's reference (SHELL_MANIFEST). */
    shellManifest: AbsPath,
    /** Where preview links point unless the request names a base URL (PREVIEW_BASE_URL, else PUBLIC_SITE_URL). */
    previewBaseUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:/i, 'must be an http or https URL')),
    /** DEV_OVERRIDE_ORIGINS: dev server origins accepted for override links beside loopback and private ones. */
    overrideOrigins: v.array(v.string()),
    /** How long the public feed holds a `?after=N` request before a 204 (DEPLOY_FEED_TIMEOUT_MS). */
    feedTimeoutMs: Int(10, 120_000),
    /** Feed requests waiting at once on this instance; more are told to come back (503 Retry-After). */
    feedMaxWaiters: Int(1, 100_000),
  }),
  /** Peers whose X-Forwarded-For is believed (IPs or CIDR ranges): the reverse proxy, nothing else. */
  /**
   * ACCOUNT_SECRET: the key that seals account secrets at rest (src/secret-box.ts); when null, the file
   * account-secret beside DB_PATH. API instances that share a PostgreSQL database must share it.
   */
  accountSecret: v.nullable(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  trustedProxies: v.array(v.pipe(v.string(), v.check(isProxyEntry, 'must be an IP address or CIDR range'))),
  /** Issue 19: per address, per account, counted in the database (docs/decisions/0014-rate-limits.md). */
  rateLimits: v.object({
    /** Off only to measure the limiter's cost (bench:api): every limit below then counts nothing. */
    enabled: v.boolean(),
    limits: v.object(
      Object.fromEntries(LIMIT_NAMES.map((name) => [name, LimitSchema])) as Record<
        LimitName,
        typeof LimitSchema
      >,
    ),
    /** A market assessment from an email already received within this window is answered as a repeat. */
    assessmentRepeatMs: Int(0, 30 * DAY_MS),
  }),
  /** Mail (issue 34, docs/decisions/0031-outbox-and-mail.md): the outbox and its sender. */
  mail: v.object({
    /** SMTP_URL (smtp://user:pass@host:port or smtps://): null keeps every mail in the outbox, unsent. */
    smtpUrl: v.nullable(
      v.pipe(v.string(), v.regex(/^smtps?:\/\/\S+$/, 'SMTP_URL must be an smtp:// or smtps:// URL')),
    ),
    /** MAIL_FROM: the sender of every mail. */
    from: v.pipe(v.string(), v.nonEmpty(), v.maxLength(300)),
    /** MAIL_ADMINS: addresses told about waiting registrations and consultations, besides every active admin. */
    admins: v.array(v.pipe(v.string(), v.email())),
    /** MAIL_RETRY_BASE_MS, MAIL_RETRY_FACTOR, MAIL_RETRY_MAX_MS: the wait after attempt n is base*factor^(n-1), capped. */
    retryBaseMs: Int(1, DAY_MS),
    retryFactor: v.pipe(v.number(), v.minValue(1), v.maxValue(100)),
    retryMaxMs: Int(1, 7 * DAY_MS),
    /** MAIL_MAX_ATTEMPTS: after this many failed attempts a mail is `failed` and no longer tried. */
    maxAttempts: Int(1, 100),
    /** MAIL_POLL_MS: how often the sender looks for due mail. */
    pollMs: Int(10, 3_600_000),
    /** MAIL_SEND_TIMEOUT_MS: connection, greeting and socket timeouts of one delivery. */
    sendTimeoutMs: Int(100, 600_000),
    /**
     * MAIL_RESET_PER_ACCOUNT (`3/1h`): reset mails one account may be sent in the window; past it a request
     * sends nothing and voids nothing, with the same answer (issue 46). Counted in the database.
     */
    resetPerAccount: LimitSchema,
    /**
     * MAIL_ASSESSMENT_PER_ADDRESS (`3/1d`): market assessment confirmations one address may be sent in the
     * window; past it the assessment is still stored, only its mail to that address is left out (issue 46).
     */
    assessmentPerAddress: LimitSchema,
  }),
  /** PUBLIC_SITE_URL: the origin links in mail point to (the shell), e.g. the reset link. */
  publicSiteUrl: v.pipe(v.string(), v.url(), v.regex(/^https?:/i, 'must be an http or https URL')),
  /** The company's details: defaults for the first start, and the SITE_* / CONTACT_* set (config-site.ts). */
  site: SiteConfigSchema,
});
export type Config = v.InferOutput<typeof ConfigSchema>;

export const DEFAULT_CONFIG: Config = {
  port: 4000,
  host: '0.0.0.0',
  dbPath: DEFAULT_DB_PATH,
  databaseUrl: null,
  pgBinDir: null,
  requiresActivation: true,
  // The same default as the edge's files (one name, one default: issue 35).
  corsOrigins: [...DEFAULT_CORS_ORIGINS],
  logLevel: 'info',
  sessionTtlMs: 7 * 24 * 3600 * 1000,
  sessionIdleMs: 12 * 3600 * 1000,
  sessionCacheMs: 5000,
  listCacheSize: 1000,
  searchCacheSize: 100,
  bodyLimitBytes: 1024 * 1024,
  // Two at once keeps one core free for everything else; a wait over 2 s is worth a retry, not a queue.
  expensive: { concurrency: 2, maxWaitMs: 2000, retryAfterSeconds: 1 },
  // As many as the expensive limit lets run at once: each search that may start has a thread to run on.
  searchWorkers: 2,
  compressMinBytes: 1024,
  drainTimeoutMs: 10_000,
  stopRepeatWindowMs: SAME_STOP_MS,
  // An office behind one address fails now and then; a script trying one password on many accounts does not
  // stop at 30. Browsers that logged in before are not held by either lock (services/login-throttle.ts).
  lockout: { maxAttempts: 5, windowMs: 15 * 60 * 1000, durationMs: 15 * 60 * 1000, addressMaxAttempts: 30 },
  twoFactor: { stepUpMs: 15 * 60 * 1000 },
  // OWASP's argon2id recommendation: m=19 MiB, t=2, p=1.
  argon2: { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  seedDemo: true,
  rollout: { paths: rolloutPaths({}), edgeSecret: null },
  deploy: {
    environments: ['staging', 'production'],
    environment: 'production',
    bundleMaxBytes: 100 * 1024 * 1024,
    releaseKeep: 10,
    shellManifest: shellManifestFile(rolloutPaths({}).root),
    previewBaseUrl: 'http://localhost:3000',
    overrideOrigins: [],
    feedTimeoutMs: 25_000,
    feedMaxWaiters: 500,
  },
  accountSecret: null,
  trustedProxies: [],
  // Far above what a person does, far below what a script does (issue 19's examples for the first three).
  rateLimits: {
    enabled: true,
    limits: {
      register: { limit: 10, windowMs: 3_600_000 },
      login: { limit: 30, windowMs: 60_000 },
      assessment: { limit: 20, windowMs: 3_600_000 },
      // One report a page view (sent when it is hidden), each needing its ticket: room for an office behind one address.
      health: { limit: 600, windowMs: 60_000 },
      anonymous: { limit: 60, windowMs: 60_000 },
      post: { limit: 60, windowMs: 3_600_000 },
      comment: { limit: 30, windowMs: 600_000 },
      like: { limit: 120, windowMs: 600_000 },
      account: { limit: 20, windowMs: 3_600_000 },
      // Forgot and reset password per address: each forgot request may send a mail.
      reset: { limit: 10, windowMs: 900_000 },
    },
    assessmentRepeatMs: DAY_MS,
  },
  // Retries at 30 s, 2 min, 8 min, 32 min, then hourly: a mail server back within hours still gets it.
  mail: {
    smtpUrl: null,
    from: '"Risk & Opportunity Intelligence" <no-reply@risk-intel.example>',
    admins: [],
    retryBaseMs: 30_000,
    retryFactor: 4,
    retryMaxMs: 3_600_000,
    maxAttempts: 8,
    pollMs: 1000,
    sendTimeoutMs: 15_000,
    // A person locked out asks again once or twice; a flood past three an hour is someone else's.
    resetPerAccount: { limit: 3, windowMs: 3_600_000 },
    assessmentPerAddress: { limit: 3, windowMs: DAY_MS },
  },
  publicSiteUrl: 'http://localhost:3000',
  site: DEFAULT_SITE,
};

type Env = Record<string, string | undefined>;

function num(env: Env, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`Invalid configuration: ${key} must be a number, got "${raw}"`);
  return n;
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new Error(`Invalid configuration: ${key} must be true or false, got "${raw}"`);
}

const str = (env: Env, key: string, fallback: string) => env[key] ?? fallback;

function list(env: Env, key: string, fallback: string[]): string[] {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A `<count>/<window>` variable (parseLimitSpec), or its default when unset or blank. */
function limitOf(env: Env, key: string, fallback: LimitSpec): LimitSpec {
  const raw = env[key]?.trim();
  return raw ? parseLimitSpec(key, raw) : fallback;
}

/** RATE_LIMIT_<NAME>=<count>/<window>; ROLLOUT_HEALTH_RATE_PER_MINUTE (issue 9's name) still sets health. */
function limitsFrom(env: Env): Config['rateLimits']['limits'] {
  const defaults = DEFAULT_CONFIG.rateLimits.limits;
  const legacyHealth = env.ROLLOUT_HEALTH_RATE_PER_MINUTE?.trim()
    ? `${num(env, 'ROLLOUT_HEALTH_RATE_PER_MINUTE', 0)}/1m`
    : undefined;
  const entries = LIMIT_NAMES.map((name): [LimitName, LimitSpec] => {
    const key = `RATE_LIMIT_${name.toUpperCase()}`;
    const raw = env[key]?.trim() || (name === 'health' ? legacyHealth : undefined);
    return [name, raw ? parseLimitSpec(key, raw) : defaults[name]];
  });
  return Object.fromEntries(entries) as Config['rateLimits']['limits'];
}

/** DB_PATH as the server, the admin CLI and the rollout CLI read it. */
export function dbPathFrom(env: Env = process.env): string {
  // pnpm runs scripts in the package folder; INIT_CWD is where the user typed the command.
  return env.DB_PATH ? path.resolve(env.INIT_CWD ?? process.cwd(), env.DB_PATH) : DEFAULT_DB_PATH;
}

/** Which database the server, the admin CLI and the rollout CLI use: DATABASE_URL, else the file at DB_PATH. */
export function databaseFrom(env: Env = process.env): Pick<Config, 'dbPath' | 'databaseUrl' | 'pgBinDir'> {
  return {
    dbPath: dbPathFrom(env),
    databaseUrl: env.DATABASE_URL?.trim() || null,
    pgBinDir: env.PG_BIN_DIR?.trim() || null,
  };
}

/** SHELL_MANIFEST, relative to where the command was typed; else the shell's build in the repository. */
function shellManifestFrom(env: Env, root: string): string {
  const file = env.SHELL_MANIFEST?.trim();
  return shellManifestFile(root, file ? path.resolve(env.INIT_CWD ?? process.cwd(), file) : undefined);
}

function rolloutPathsFrom(env: Env): RolloutPaths {
  try {
    return rolloutPaths(env);
  } catch (error) {
    throw new Error(`Invalid configuration: ${(error as Error).message}`);
  }
}

/** Read the environment once, validate it, and fail loudly with the offending key. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const d = DEFAULT_CONFIG;
  const publicSiteUrl = (str(env, 'PUBLIC_SITE_URL', '') || d.publicSiteUrl).replace(/\/+$/, '');
  const raw: Config = {
    port: num(env, 'PORT', d.port),
    host: str(env, 'HOST', d.host),
    ...databaseFrom(env),
    requiresActivation: bool(env, 'REQUIRES_ACTIVATION', d.requiresActivation),
    corsOrigins: list(env, 'CORS_ORIGINS', d.corsOrigins),
    logLevel: str(env, 'LOG_LEVEL', d.logLevel) as Config['logLevel'],
    sessionTtlMs: num(env, 'SESSION_TTL_MS', d.sessionTtlMs),
    sessionIdleMs: num(env, 'SESSION_IDLE_MS', d.sessionIdleMs),
    sessionCacheMs: num(env, 'SESSION_CACHE_MS', d.sessionCacheMs),
    listCacheSize: num(env, 'LIST_CACHE_SIZE', d.listCacheSize),
    searchCacheSize: num(env, 'SEARCH_CACHE_SIZE', d.searchCacheSize),
    bodyLimitBytes: num(env, 'BODY_LIMIT_BYTES', d.bodyLimitBytes),
    expensive: {
      concurrency: num(env, 'EXPENSIVE_CONCURRENCY', d.expensive.concurrency),
      maxWaitMs: num(env, 'EXPENSIVE_MAX_WAIT_MS', d.expensive.maxWaitMs),
      retryAfterSeconds: num(env, 'EXPENSIVE_RETRY_AFTER_S', d.expensive.retryAfterSeconds),
    },
    searchWorkers: num(env, 'SEARCH_WORKERS', d.searchWorkers),
    compressMinBytes: num(env, 'COMPRESS_MIN_BYTES', d.compressMinBytes),
    drainTimeoutMs: num(env, 'DRAIN_TIMEOUT_MS', d.drainTimeoutMs),
    stopRepeatWindowMs: num(env, 'STOP_REPEAT_WINDOW_MS', d.stopRepeatWindowMs),
    lockout: {
      maxAttempts: num(env, 'LOCKOUT_MAX_ATTEMPTS', d.lockout.maxAttempts),
      windowMs: num(env, 'LOCKOUT_WINDOW_MS', d.lockout.windowMs),
      durationMs: num(env, 'LOCKOUT_DURATION_MS', d.lockout.durationMs),
      addressMaxAttempts: num(env, 'LOCKOUT_ADDRESS_MAX_ATTEMPTS', d.lockout.addressMaxAttempts),
    },
    twoFactor: { stepUpMs: num(env, 'TWO_FACTOR_STEP_UP_MS', d.twoFactor.stepUpMs) },
    argon2: {
      memoryCost: num(env, 'ARGON2_MEMORY_KIB', d.argon2.memoryCost),
      timeCost: num(env, 'ARGON2_TIME_COST', d.argon2.timeCost),
      parallelism: num(env, 'ARGON2_PARALLELISM', d.argon2.parallelism),
    },
    seedDemo: bool(env, 'SEED_DEMO', d.seedDemo),
    rollout: {
      paths: rolloutPathsFrom(env),
      edgeSecret: env.EDGE_SECRET || null,
    },
    deploy: {
      environments: list(env, 'DEPLOY_ENVIRONMENTS', d.deploy.environments),
      environment: str(env, 'DEPLOY_ENV', '') || d.deploy.environment,
      bundleMaxBytes: num(env, 'DEPLOY_BUNDLE_MAX_BYTES', d.deploy.bundleMaxBytes),
      releaseKeep: num(env, 'RELEASE_KEEP', d.deploy.releaseKeep),
      shellManifest: shellManifestFrom(env, rolloutPathsFrom(env).root),
      // Preview links open the public site unless they are told another (a staging host): one default.
      previewBaseUrl: str(env, 'PREVIEW_BASE_URL', '') || publicSiteUrl,
      // Checked here so a typo stops the API at startup rather than refusing every override later.
      overrideOrigins: overrideOriginsFrom(env.DEV_OVERRIDE_ORIGINS),
      feedTimeoutMs: num(env, 'DEPLOY_FEED_TIMEOUT_MS', d.deploy.feedTimeoutMs),
      feedMaxWaiters: num(env, 'DEPLOY_FEED_MAX_WAITERS', d.deploy.feedMaxWaiters),
    },
    accountSecret: env.ACCOUNT_SECRET || null,
    trustedProxies: list(env, 'TRUSTED_PROXIES', d.trustedProxies),
    rateLimits: {
      enabled: bool(env, 'RATE_LIMITS', d.rateLimits.enabled),
      limits: limitsFrom(env),
      assessmentRepeatMs: num(env, 'ASSESSMENT_REPEAT_WINDOW_MS', d.rateLimits.assessmentRepeatMs),
    },
    mail: {
      smtpUrl: env.SMTP_URL?.trim() || null,
      from: str(env, 'MAIL_FROM', '') || d.mail.from,
      admins: list(env, 'MAIL_ADMINS', d.mail.admins),
      retryBaseMs: num(env, 'MAIL_RETRY_BASE_MS', d.mail.retryBaseMs),
      retryFactor: num(env, 'MAIL_RETRY_FACTOR', d.mail.retryFactor),
      retryMaxMs: num(env, 'MAIL_RETRY_MAX_MS', d.mail.retryMaxMs),
      maxAttempts: num(env, 'MAIL_MAX_ATTEMPTS', d.mail.maxAttempts),
      pollMs: num(env, 'MAIL_POLL_MS', d.mail.pollMs),
      sendTimeoutMs: num(env, 'MAIL_SEND_TIMEOUT_MS', d.mail.sendTimeoutMs),
      resetPerAccount: limitOf(env, 'MAIL_RESET_PER_ACCOUNT', d.mail.resetPerAccount),
      assessmentPerAddress: limitOf(env, 'MAIL_ASSESSMENT_PER_ADDRESS', d.mail.assessmentPerAddress),
    },
    publicSiteUrl,
    site: siteFrom(env, d.site),
    ...overrides,
  };
  return validateConfig(raw);
}

export function validateConfig(raw: unknown): Config {
  const result = v.safeParse(ConfigSchema, raw);
  if (!result.success) {
    const issue = result.issues[0];
    throw new Error(`Invalid configuration at ${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
  }
  const { environment, environments } = result.output.deploy;
  // The default environment must be one the deploy API knows, or every default command would be a 404.
  if (!environments.includes(environment)) {
    throw new Error(
      `Invalid configuration: DEPLOY_ENV "${environment}" is not one of DEPLOY_ENVIRONMENTS (${environments.join(', ')})`,
    );
  }
  return result.output;
}
