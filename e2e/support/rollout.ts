import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { suitePort } from './ports';
import { deployCliEnv } from './server-env';

/**
 * Drives the real release and rollout commands against the servers under test, through their deploy API
 * (server-env.ts deployCliEnv). The release store is read directly only to look at (or break) a release.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

export const STORE_DIR = process.env.E2E_RELEASE_STORE_DIR as string;
export const DEPLOY_DIR = process.env.E2E_DEPLOY_DIR as string;

const env = () => {
  const inherited = { ...process.env };
  // The CLI never opens a database: a DB_PATH or DATABASE_URL in the runner's environment is not its.
  delete inherited.DB_PATH;
  delete inherited.DATABASE_URL;
  return { ...inherited, ...deployCliEnv(), LOG_LEVEL: 'silent' };
};

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function pnpm(args: string[], extra: Record<string, string> = {}): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run('pnpm', ['--silent', ...args], {
      cwd: ROOT,
      env: { ...env(), ...extra },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs a command that must succeed; its failure fails the test with what it printed. */
async function ok(args: string[]): Promise<string> {
  const result = await pnpm(args);
  if (result.code !== 0)
    throw new Error(`pnpm ${args.join(' ')} exited ${result.code}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/**
 * The edges that serve the suite's environment (DEPLOY_ENV): the cluster's instances each, else the one
 * behind the suite's base URL.
 */
function edgesUnderTest(): string[] {
  const ports = (process.env.E2E_CLUSTER_EDGE_PORTS ?? '').split(',').filter(Boolean);
  return ports.length > 0
    ? ports.map((port) => `http://127.0.0.1:${port}`)
    : [`http://127.0.0.1:${suitePort(3000)}`];
}

/**
 * A change reaches every edge through the API's feed within a second (docs/decisions/0030), not at the
 * moment the command returns: a test that then loads a page waits until each edge has the revision the
 * change produced, as a person would see it a moment later. Changes of another environment need no wait.
 */
async function edgesAt(stdout: string, args: string[]): Promise<void> {
  const revision = Number(stdout.match(/deployment "([a-z0-9-]+)" is at revision (\d+)/)?.[2] ?? Number.NaN);
  const environment = stdout.match(/deployment "([a-z0-9-]+)" is at revision/)?.[1];
  if (!Number.isFinite(revision) || environment !== deployCliEnv().DEPLOY_ENV) return;
  // Each edge's status is asked until it has the revision, within 5 s: a condition with a deadline, not a
  // fixed wait. The edges run outside this process (started by the suite's web servers, their output not
  // ours), so their /_edge/status is the only thing that can tell.
  const deadline = Date.now() + 5000;
  for (const edge of edgesUnderTest()) {
    for (;;) {
      const status = await fetch(`${edge}/_edge/status`)
        .then((r) => r.json() as Promise<{ feed?: { revision?: number } | null }>)
        .catch(() => null);
      if ((status?.feed?.revision ?? -1) >= revision) break;
      if (Date.now() > deadline)
        throw new Error(`${edge} did not get revision ${revision} within 5 s of pnpm ${args.join(' ')}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

export async function rollout(...args: string[]): Promise<string> {
  const stdout = await ok(['rollout', ...args]);
  await edgesAt(stdout, args);
  return stdout;
}
export const tryRollout = (...args: string[]) => pnpm(['rollout', ...args]);

/**
 * `pnpm release` and `pnpm rollout` as a team's pipeline runs them: with its deploy token and nothing of the
 * server's (an empty DEPLOY_DIR: no local credential to fall back on). Answers are not checked here.
 */
export function asPipeline(token: string) {
  const pipelineEnv = {
    DEPLOY_TOKEN: token,
    DEPLOY_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-')),
  };
  return {
    release: (...args: string[]) => pnpm(['release', ...args], pipelineEnv),
    rollout: async (...args: string[]) => {
      const result = await pnpm(['rollout', ...args], pipelineEnv);
      if (result.code === 0) await edgesAt(result.stdout, args);
      return result;
    },
  };
}

/** The environment the suite's edges serve (DEPLOY_ENV), and the other one of `pnpm start`. */
export const SUITE_ENV = deployCliEnv().DEPLOY_ENV as string;
export const OTHER_ENV = SUITE_ENV === 'staging' ? 'production' : 'staging';

export interface MadePreview {
  id: string;
  token: string;
  url: string;
}

/**
 * `pnpm rollout preview <remote> <version> …` (issue 44): the link's id from its first line, the link from
 * its last. The edges learn of it through the API's feed, a moment later: a test opens it with a retry.
 */
export async function previewLink(remote: string, version: string, ...args: string[]): Promise<MadePreview> {
  const out = (await rollout('preview', remote, version, ...args)).trim().split('\n');
  const id = /^preview (\S+): /.exec(out[0] ?? '')?.[1];
  const url = out.at(-1) ?? '';
  const token = new URL(url).searchParams.get('preview');
  if (!id || !token) throw new Error(`pnpm rollout preview printed no link: ${out.join('\n')}`);
  return { id, token, url };
}
export const tryRelease = (...args: string[]) => pnpm(['release', ...args]);

/** `pnpm ship-shell …` into the suite's live shell (SHELL_DIST, a copy of shell/dist made for the run). */
export const tryShipShell = (...args: string[]) =>
  pnpm(['ship-shell', ...args], { SHELL_DIST: process.env.E2E_SHELL_DIST ?? '' });

/** `pnpm release` prints the new version id on its last line. */
export async function release(...args: string[]): Promise<string> {
  const lines = (await ok(['release', ...args])).trim().split('\n');
  return lines.at(-1)?.trim() ?? '';
}

interface StatusRemote {
  remote: string;
  stable: string | null;
  canary: { version: string; percent: number } | null;
  /** Per version since the canary started: distinct visitors, page views, the mean of their error rates. */
  health: Array<{ version: string; visitors: number; views: number; errorRate: number | null }>;
}

export async function status(): Promise<StatusRemote[]> {
  const parsed = JSON.parse(await rollout('status', '--json')) as
    | { remotes: StatusRemote[] }
    | StatusRemote[];
  return Array.isArray(parsed) ? parsed : parsed.remotes;
}

export async function remoteStatus(remote: string): Promise<StatusRemote> {
  const found = (await status()).find((r) => r.remote === remote);
  if (!found) throw new Error(`${remote} is not in rollout status`);
  return found;
}

/**
 * A second build of a remote that differs visibly, made the way a team's next build would differ: the same
 * files with one text changed (cheaper than a webpack build in every run): its code, its pre-rendered pages
 * and its per-request renderer alike, so its first screen in the HTML shows the change too.
 */
export function variantOf(remote: string, from: string, to: string): string {
  const source = path.join(ROOT, remote, 'dist');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${remote}-variant-`));
  fs.cpSync(source, dir, { recursive: true });
  let patched = 0;
  for (const file of fs.readdirSync(dir)) {
    if (!/\.(m?js)$|^prerender\.json$/.test(file)) continue;
    const full = path.join(dir, file);
    const text = fs.readFileSync(full, 'utf8');
    if (text.includes(from)) {
      fs.writeFileSync(full, text.replaceAll(from, to));
      patched += 1;
    }
  }
  if (patched === 0) throw new Error(`"${from}" is in none of ${remote}'s built files`);
  return dir;
}

/** Edits a copy of a build's mf-manifest.json (e.g. to claim another React major). */
export function withManifest(
  dir: string,
  edit: (manifest: { shared: Array<Record<string, unknown>> }) => void,
) {
  const file = path.join(dir, 'mf-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(manifest);
  fs.writeFileSync(file, JSON.stringify(manifest));
}

export function releaseFolder(remote: string, version: string): string {
  return path.join(STORE_DIR, remote, version);
}

/** The remote the rollout tests ship, and its Home hero: the visible difference between test builds. */
export const HERO_REMOTE = 'mf-public-pages';
export const HERO = 'See the risks coming.';

/**
 * A Home hero that starts with `<label> build` (e.g. "Canary build 3: …"). Each call is a different build,
 * so a retried test never meets the version an earlier attempt broke.
 */
let builds = 0;
export function heroOf(label: string): string {
  builds += 1;
  return `${label} build ${Date.now().toString(36)}${builds}: see the risks coming.`;
}

/** Releases a build of the hero's remote whose Home hero is `text` (code, pages and renderer alike). */
export const releaseHero = (text: string) =>
  release(HERO_REMOTE, '--dist', variantOf(HERO_REMOTE, HERO, text));

/**
 * Ends a page view the way a visitor does (navigating away): the shell sends the page's health report
 * (docs/decisions/0027-health-gate.md) when the page is hidden.
 */
export async function endPageView(page: { goto(url: string): Promise<unknown> }): Promise<void> {
  await page.goto('about:blank');
}

/** The error rate `rollout status` shows for a version (null while it has no reports). */
export async function errorRateOf(remote: string, version: string): Promise<number | null> {
  return (await remoteStatus(remote)).health.find((h) => h.version === version)?.errorRate ?? null;
}

/**
 * A build whose code throws when any button is clicked: a listener its first chunk registers (capturing, so
 * no handler that stops propagation hides it), so the error's stack names that release's file, as a broken
 * click handler's would.
 */
export function throwingOnClick(dir: string): string {
  const chunk = fs
    .readdirSync(dir)
    .find((file) => file.startsWith('__federation_expose_') && file.endsWith('.js'));
  if (!chunk) throw new Error(`no exposed chunk in ${dir}`);
  fs.appendFileSync(
    path.join(dir, chunk),
    `\n;document.addEventListener('click', function brokenHandler(event) {
  if (event.target instanceof Element && event.target.closest('button')) throw new Error('canary click handler failed');
}, true);\n`,
  );
  return dir;
}

/** Releases a new build whose hero starts with `<label> build`: its version and its hero. */
export async function releaseHeroVariant(label: string): Promise<{ version: string; heading: string }> {
  const heading = heroOf(label);
  return { version: await releaseHero(heading), heading };
}
