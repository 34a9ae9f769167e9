import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_PATHS, type Role } from '@app/contracts';
import { rolloutPaths } from '@app/rollout/node';
import { generateSync } from 'otplib';
import { afterEach } from 'vitest';
import { type Config, LIMIT_NAMES, loadConfig } from '../src/config';
import { type RunningServer, startServer } from '../src/server';

/** One caller per tier of SPEC §6, by the roles their account holds (null: a guest, no account). */
export const ROLES: Record<string, Role[] | null> = {
  guest: null,
  basic: [],
  premium: ['paid-tier-1'],
  'premium pro': ['paid-tier-2'],
  admin: ['admin'],
};

export function tempDbPath(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'api-test-')), 'app.db');
}

/** The suite runs against PostgreSQL (`pnpm test:postgres`; test/postgres-setup.ts starts the server). */
export const ON_POSTGRES = Boolean(process.env.TEST_POSTGRES_URL);
let databases = 0;

/**
 * A fresh, empty database for one test server, or for two that share it: a temp SQLite file, or, when
 * the suite runs on PostgreSQL, a new database on the test server (made with its psql: a config is built
 * synchronously).
 */
export function tempDatabase(): Pick<Config, 'dbPath' | 'databaseUrl'> {
  const base = process.env.TEST_POSTGRES_URL;
  if (!base) return { dbPath: tempDbPath(), databaseUrl: null };
  databases += 1;
  const name = `t${process.pid}_${databases}_${Math.random().toString(36).slice(2, 8)}`;
  const made = spawnSync(
    process.env.TEST_POSTGRES_PSQL ?? 'psql',
    [base, '-q', '-c', `CREATE DATABASE ${name}`],
    {
      encoding: 'utf8',
    },
  );
  if (made.status !== 0) throw new Error(`CREATE DATABASE ${name} failed: ${made.stderr}`);
  return { dbPath: tempDbPath(), databaseUrl: base.replace(/\/[^/]*$/, `/${name}`) };
}

/** The edge's secret in API tests: health tickets are signed with a key derived from it. */
export const TEST_EDGE_SECRET = 'test-edge-secret-0123456789abcdef';

/** Rollout settings over an empty temp release store and deploy folder (environment `test`). */
export function tempRollout(over: Partial<Config['rollout']> = {}): Config['rollout'] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-rollout-'));
  const paths = rolloutPaths({
    RELEASE_STORE_DIR: path.join(dir, 'releases'),
    DEPLOY_DIR: path.join(dir, 'deploy'),
    DEPLOY_ENV: 'test',
  });
  fs.mkdirSync(paths.store, { recursive: true });
  fs.mkdirSync(paths.deployDir, { recursive: true });
  return { paths, edgeSecret: TEST_EDGE_SECRET, ...over };
}

/**
 * Rate limits for tests: every limit at a count no suite reaches (each test file registers and writes from
 * one address), except those given. test/rate-limits*.test.ts set small ones to hit them.
 */
export function limitsWith(
  over: Partial<Config['rateLimits']['limits']> = {},
  repeatMs = 0,
): Config['rateLimits'] {
  const generous = Object.fromEntries(
    LIMIT_NAMES.map((name) => [name, { limit: 1_000_000, windowMs: 3_600_000 }]),
  ) as Config['rateLimits']['limits'];
  return { enabled: true, limits: { ...generous, ...over }, assessmentRepeatMs: repeatMs };
}

/** Test config: a temp DB, a random port, no logs, and a cheap argon2 so the suite stays fast. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    {},
    {
      port: 0,
      host: '127.0.0.1',
      ...tempDatabase(),
      logLevel: 'silent',
      seedDemo: false,
      argon2: { memoryCost: 256, timeCost: 1, parallelism: 1 },
      rollout: tempRollout(),
      rateLimits: limitsWith(),
      ...overrides,
    },
  );
}

/**
 * Two API instances on one database, as a cluster runs them (`over` adds to a fresh database's config, or
 * names the database itself): call at a test file's top level; the pair each test starts is closed after it.
 */
export function twoInstancesPerTest(): (over?: Partial<Config>) => Promise<[TestServer, TestServer]> {
  const open: TestServer[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  return async (over = {}) => {
    const config = { ...tempDatabase(), ...over };
    const pair: [TestServer, TestServer] = [await startTestServer(config), await startTestServer(config)];
    open.push(...pair);
    return pair;
  };
}

export async function startTestServer(
  overrides: Partial<Config> = {},
  now?: () => number,
): Promise<TestServer> {
  return new TestServer(await startServer(testConfig(overrides), now));
}

// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not by types
type Json = any;

export interface Res<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
  /** Issue 46: the authenticator's secret when the account has a second factor (every admin by default). */
  totpSecret?: string;
  recoveryCodes?: string[];
  /** The last time step a code of this user was used for: a code is never accepted twice (TestServer.code). */
  lastStep?: number;
}

/** The authenticator's code for `secret` at `atMs` (otplib, as an app computes it). */
export const totpCode = (secret: string, atMs: number) =>
  generateSync({ secret, epoch: Math.floor(atMs / 1000) });

let counter = 0;

export class TestServer {
  constructor(readonly server: RunningServer) {}
  get ctx() {
    return this.server.ctx;
  }
  get url() {
    return this.server.url;
  }
  close() {
    return this.server.close();
  }
  /** The database the server uses, whichever it is: for a test to look behind the API. */
  get sql() {
    return this.server.ctx.sql;
  }

  async req<T = Json>(method: string, p: string, opts: RequestOptions = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(this.url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // not JSON: the assertion on it will say so
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  get<T = Json>(p: string, token?: string | null) {
    return this.req<T>('GET', p, { token });
  }
  post<T = Json>(p: string, body?: unknown, token?: string | null) {
    return this.req<T>('POST', p, { body, token });
  }
  put<T = Json>(p: string, body?: unknown, token?: string | null) {
    return this.req<T>('PUT', p, { body, token });
  }
  del<T = Json>(p: string, token?: string | null) {
    return this.req<T>('DELETE', p, { token });
  }

  /**
   * Registers through the API, then activates and grants roles through the service (as an admin would). An
   * administrator also gets a second factor and a session that passed step-up (issue 46), so admin routes
   * answer as before; `{ twoFactor: false }` gives one without (admin APIs then answer 403).
   */
  async user(roles: Role[] = [], name = 'user', opts: { twoFactor?: boolean } = {}): Promise<TestUser> {
    counter += 1;
    const username = `${name}${counter}_${Math.random().toString(36).slice(2, 7)}`;
    const email = `${username}@example.com`.toLowerCase();
    const password = 'Secret123x';
    const reg = await this.post('/api/register', registration({ username, email, password }));
    if (reg.status !== 201) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
    const id = (await this.ctx.accounts.resolveUser(email))!.id;
    await this.ctx.accounts.activate(id);
    for (const role of roles) await this.ctx.accounts.grant(id, role);
    const login = await this.post('/api/login', { username: email, password });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    const user: TestUser = { id, username, email, password, token: login.body.token };
    if (opts.twoFactor ?? roles.includes('admin')) {
      await this.enrolTwoFactor(user);
      await this.stepUp(user);
    }
    return user;
  }

  /**
   * A code of `u`'s authenticator not used before: the current step's, or the next one's (accepted one
   * step early) when the current one was used. A test that needs more codes steps the server's clock.
   */
  code(u: TestUser): string {
    if (!u.totpSecret) throw new Error(`${u.username} has no second factor`);
    const now = this.ctx.now();
    const current = Math.floor(now / 30_000);
    const step = Math.max(current, (u.lastStep ?? 0) + 1);
    if (step > current + 1)
      throw new Error('no unused code until the clock moves: step the server clock 30 s');
    u.lastStep = step;
    return totpCode(u.totpSecret, step * 30_000);
  }

  /** Sets up TOTP through the API as the profile does (the code computed here from the secret shown). */
  async enrolTwoFactor(u: TestUser): Promise<void> {
    const setup = await this.post(API_PATHS.twoFactorSetup, { password: u.password }, u.token);
    if (setup.status !== 200) throw new Error(`2FA setup failed: ${JSON.stringify(setup.body)}`);
    u.totpSecret = setup.body.secret as string;
    u.lastStep = 0;
    const confirm = await this.post(API_PATHS.twoFactorConfirm, { code: this.code(u) }, u.token);
    if (confirm.status !== 200) throw new Error(`2FA confirm failed: ${JSON.stringify(confirm.body)}`);
    u.recoveryCodes = confirm.body.recoveryCodes;
  }

  /** Step-up for `u`'s session (or `token`): sensitive admin actions then pass for TWO_FACTOR_STEP_UP_MS. */
  async stepUp(u: TestUser, token = u.token): Promise<void> {
    const r = await this.post(API_PATHS.twoFactorVerify, { code: this.code(u) }, token);
    if (r.status !== 200) throw new Error(`step-up failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

export function registration(over: { username?: string; email?: string; password?: string } = {}) {
  counter += 1;
  const username = over.username ?? `reg${counter}_${Math.random().toString(36).slice(2, 7)}`;
  return {
    username,
    password: over.password ?? 'Secret123x',
    name: { first: 'Jane', last: 'Doe' },
    email: over.email ?? `${username}@example.com`,
    address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
  };
}

export const postInput = (over: Record<string, unknown> = {}) => ({
  title: 'A test post',
  summary: 'Summary text',
  content: '## Body\n\nSome **markdown** content.',
  content_type: 'research_report',
  visibility: 'public',
  status: 'published',
  tags: ['alpha'],
  categories: ['Testing'],
  ...over,
});

/** A complete market assessment (SPEC §3) a test can send, with what it changes laid over it. */
export const surveyAnswers = (over: Record<string, unknown> = {}) => ({
  companySize: '51-200',
  industry: 'technology',
  role: 'ceo',
  yearsInRole: '4-7',
  primaryChallenges: ['cybersecurity'],
  riskConcerns: ['cyber-attack'],
  growthGoals: [],
  intelligenceTopics: ['cyber-threats'],
  reportFrequency: 'monthly',
  urgency: 'immediate',
  email: 'Lead@Example.com',
  firstName: 'Lea',
  lastName: 'Lead',
  company: 'Acme',
  phone: '',
  communicationMethod: 'email',
  consultationInterest: true,
  ...over,
});
