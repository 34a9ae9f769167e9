import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { API_PATHS, type Post, type PostInput } from '@app/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
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

/** A registered, activated, logged-in member with the given roles ('paid-tier-1', 'paid-tier-2', 'admin'). */
export async function createMember(
  request: APIRequestContext,
  roles: string[] = [],
  prefix = 'member',
): Promise<TestUser> {
  const user = await registerUser(request, uniqueName(prefix));
  admin('activate', user.email);
  for (const role of roles) admin('grant', user.email, role);
  return { ...user, token: await login(request, user.email, user.password) };
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
