import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { API_PATHS, type Post, type PostInput } from '@app/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { E2E_API_PORT } from './ports';
import { databaseEnv } from './server-env';

/** Helpers that set up data through the real API and the admin CLI, on the run's database. */
/** The API as the shell's config names it: its own port under `pnpm start`, nginx's origin in the cluster run. */
export const API_URL = process.env.E2E_API_URL ?? `http://localhost:${E2E_API_PORT}`;
const ROOT = path.resolve(import.meta.dirname, '..', '..');

let counter = 0;
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

/** Runs `pnpm admin <args>` against the e2e database (the one the running servers use). */
export function admin(...args: string[]): string {
  return execFileSync('pnpm', ['--silent', 'admin', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...databaseEnv(), LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
}

export interface TestUser {
  username: string;
  email: string;
  password: string;
  token: string;
  /** Issue 46: the authenticator's secret when the account has a second factor (every admin by default). */
  totpSecret?: string;
}

const STEP_MS = 30_000;
/** The last time step a code was used for, per secret: the API never accepts a code twice. */
const lastStep = new Map<string, number>();

/** The authenticator's code for `secret` at `atMs`, as an app computes it. */
export const totpCode = (secret: string, atMs = Date.now()) =>
  generateSync({ secret, epoch: Math.floor(atMs / 1000) });

/**
 * A code of `secret` not used before: the current step's, or the next one's (the API accepts a code one
 * step early) when the current one was used; when both were, it waits for the clock to reach the next.
 */
export async function freshCode(secret: string): Promise<string> {
  const used = lastStep.get(secret) ?? 0;
  let current = Math.floor(Date.now() / STEP_MS);
  if (used > current) {
    await new Promise((resolve) => setTimeout(resolve, used * STEP_MS - Date.now() + 200));
    current = Math.floor(Date.now() / STEP_MS);
  }
  const step = Math.max(current, used + 1);
  lastStep.set(secret, step);
  return totpCode(secret, step * STEP_MS);
}

/** Records that `code` of `secret` was used now (a code a test typed into the page itself). */
export function usedCode(secret: string): void {
  lastStep.set(secret, Math.max(lastStep.get(secret) ?? 0, Math.floor(Date.now() / STEP_MS)));
}

const authorized = (token: string) => ({ authorization: `Bearer ${token}` });

/** Sets up TOTP for `user` through the API, as the profile does; the secret is kept on the user. */
export async function enrolTwoFactor(request: APIRequestContext, user: TestUser): Promise<string[]> {
  const setup = await request.post(`${API_URL}${API_PATHS.twoFactorSetup}`, {
    data: { password: user.password },
    headers: authorized(user.token),
  });
  if (!setup.ok()) throw new Error(`2FA setup failed: ${setup.status()} ${await setup.text()}`);
  const secret = ((await setup.json()) as { secret: string }).secret;
  const confirm = await request.post(`${API_URL}${API_PATHS.twoFactorConfirm}`, {
    data: { code: await freshCode(secret) },
    headers: authorized(user.token),
  });
  if (!confirm.ok()) throw new Error(`2FA confirm failed: ${confirm.status()} ${await confirm.text()}`);
  user.totpSecret = secret;
  return ((await confirm.json()) as { recoveryCodes: string[] }).recoveryCodes;
}

/** Step-up for the user's session: sensitive admin actions then pass for TWO_FACTOR_STEP_UP_MS (15 min). */
export async function stepUp(request: APIRequestContext, user: TestUser): Promise<void> {
  if (!user.totpSecret) throw new Error(`${user.username} has no second factor`);
  const r = await request.post(`${API_URL}${API_PATHS.twoFactorVerify}`, {
    data: { code: await freshCode(user.totpSecret) },
    headers: authorized(user.token),
  });
  if (!r.ok()) throw new Error(`step-up failed: ${r.status()} ${await r.text()}`);
}

export const DEFAULT_PASSWORD = 'Str0ngPassw0rd';

export async function registerUser(
  request: APIRequestContext,
  username = uniqueName(),
): Promise<Omit<TestUser, 'token'>> {
  const email = `${username}@example.com`;
  const response = await request.post(`${API_URL}${API_PATHS.register}`, {
    data: {
      username,
      password: DEFAULT_PASSWORD,
      name: { first: 'Test', last: 'User' },
      email,
      address: { street: '1 Test Street', city: 'Berlin', postal_code: '10115', country: 'Germany' },
    },
  });
  if (!response.ok()) throw new Error(`register failed: ${response.status()} ${await response.text()}`);
  return { username, email, password: DEFAULT_PASSWORD };
}

export async function login(request: APIRequestContext, email: string, password: string): Promise<string> {
  const response = await request.post(`${API_URL}${API_PATHS.login}`, {
    data: { username: email, password },
  });
  if (!response.ok()) throw new Error(`login failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * A registered, activated, logged-in member with the given roles ('paid-tier-1', 'paid-tier-2', 'admin').
 * An administrator also has a second factor and a session that passed step-up (issue 46), so the admin
 * screens and their sensitive actions work as before; `{ twoFactor: false }` gives one without.
 */
export async function createMember(
  request: APIRequestContext,
  roles: string[] = [],
  prefix = 'member',
  opts: { twoFactor?: boolean } = {},
): Promise<TestUser> {
  const user = await registerUser(request, uniqueName(prefix));
  admin('activate', user.email);
  for (const role of roles) admin('grant', user.email, role);
  const member: TestUser = { ...user, token: await login(request, user.email, user.password) };
  if (opts.twoFactor ?? roles.includes('admin')) {
    await enrolTwoFactor(request, member);
    await stepUp(request, member);
  }
  return member;
}

/** Puts the token where the app keeps it before any page script runs. */
export async function useToken(page: Page, token: string): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('token', value), token);
}

/**
 * A post created straight through the API, for tests that are not about writing. What the input leaves out
 * takes the API's defaults; a refusal fails the test with the API's answer.
 */
export async function createPost(
  request: APIRequestContext,
  user: TestUser,
  input: Partial<PostInput> & { title: string },
): Promise<Post> {
  const response = await request.post(`${API_URL}${API_PATHS.posts}`, {
    data: input,
    headers: { Authorization: `Bearer ${user.token}` },
  });
  if (!response.ok()) throw new Error(`create post failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as Post;
}
