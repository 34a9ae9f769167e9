import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { admin } from '../support/api';
import { release, rollout, tryRollout, variantOf } from '../support/rollout';
import { deployCliEnv } from '../support/server-env';
import { expect, test } from '../support/test';

/**
 * The worked pipeline of docs/deploy-pipeline.md, run step by step as the document writes it (issue 33): the
 * commands are read from the document itself, so the two cannot drift apart. A team's CI machine has no
 * access to the servers' disks: the steps get the API's URL and the pipeline's own token, and an empty
 * DEPLOY_DIR (no local credential to fall back on). Install, build and the remote's unit tests already ran
 * before the e2e suite, so those lines are the only ones not run here; `watch` gets a short --max-wait,
 * since no visitors come to judge the canary in this test.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const REMOTE = 'mf-research';
const run = promisify(execFile);
const cli = deployCliEnv();
const API = cli.DEPLOY_API_URL as string;

/** The lines of the first ```sh block after `heading`, without comments, blank lines and `set`. */
function commandsUnder(heading: string): string[] {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'deploy-pipeline.md'), 'utf8');
  const from = doc.indexOf(heading);
  expect(from, `docs/deploy-pipeline.md has "${heading}"`).toBeGreaterThanOrEqual(0);
  const start = doc.indexOf('```sh\n', from) + '```sh\n'.length;
  const body = doc.slice(start, doc.indexOf('\n```', start));
  return body
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#') && !line.startsWith('set '));
}

/** Done before the suite: `pnpm install`, the build and the remote's own tests. */
const ranBeforeTheSuite = (line: string) => /^pnpm (install|build|--filter)\b/.test(line);

interface Step {
  code: number;
  stdout: string;
  stderr: string;
}

async function bash(script: string, env: Record<string, string>): Promise<Step> {
  try {
    const { stdout, stderr } = await run('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 180_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The environment's manifest as every edge reads it (the public feed). */
async function manifestOf(environment: string) {
  const response = await fetch(`${API}/api/deployment/${environment}`);
  expect(response.status).toBe(200);
  return (await response.json()).manifest.remotes[REMOTE] as {
    stable: string;
    canary?: { version: string; percent: number };
    integrity: Record<string, string>;
  };
}

let built = '';
let original: Record<string, string> = {};

test.beforeAll(async () => {
  // What the suite's build released at start; both environments run it now.
  built = await release(REMOTE, '--no-build');
  original = {
    staging: (await manifestOf('staging')).stable,
    production: (await manifestOf('production')).stable,
  };
  // Both environments run another version first, so the pipeline's release is a change everywhere.
  const older = await release(REMOTE, '--dist', variantOf(REMOTE, 'Research Center', 'Research Centre'));
  for (const env of ['staging', 'production'])
    await rollout('bootstrap', REMOTE, older, '--replace', '--env', env);
});

test.afterAll(async () => {
  const production = await manifestOf('production');
  if (production.canary) await rollout('abort', REMOTE, '--env', 'production');
  for (const [env, version] of Object.entries(original))
    await tryRollout('bootstrap', REMOTE, version, '--replace', '--env', env);
});

test('a team ships its remote from its own pipeline, with a token that cannot touch any other remote', async () => {
  // Once, on the server: the pipeline's token (a name of this run's own: names are unique).
  const [create] = commandsUnder('## Once, on the server');
  const name = `research-ci-${Date.now().toString(36)}`;
  const created = admin(...(create as string).replace('research-ci', name).split(' ').slice(2));
  const token = created.split('\n').find((line) => line.startsWith('mfd_')) as string;
  expect(token).toMatch(/^mfd_[A-Za-z0-9_-]{43}$/);

  // In CI: nothing of the server's but its URL and the token.
  const ciEnv = {
    DEPLOY_API_URL: API,
    DEPLOY_TOKEN: token,
    DEPLOY_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ci-machine-')),
    DEPLOY_ENV: '',
    VERSION: '',
  };
  const steps = commandsUnder('## In CI').filter((line) => !ranBeforeTheSuite(line));
  expect(steps.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
    'VERSION=$(pnpm -s release',
    'pnpm rollout bootstrap',
    'pnpm rollout status',
    'pnpm rollout promote-to',
    'pnpm rollout watch',
  ]);
  const [releaseLine, stagingLine, statusLine, productionLine, watchLine] = steps as string[];

  // 1. Release: the same bytes the suite's start released, so stored already; the last line is the id.
  const released = await bash(`${releaseLine}\necho "$VERSION"`, ciEnv);
  expect(released.code, released.stderr).toBe(0);
  ciEnv.VERSION = released.stdout.trim().split('\n').at(-1) as string;
  expect(ciEnv.VERSION).toBe(built);

  // 2. Staging runs it.
  const staged = await bash(stagingLine as string, ciEnv);
  expect(staged.code, staged.stderr).toBe(0);
  expect(staged.stdout).toContain('deployment "staging" is at revision');
  expect((await manifestOf('staging')).stable).toBe(built);

  // 3. Staging's view names it.
  const looked = await bash(statusLine as string, ciEnv);
  expect(looked.code, looked.stderr).toBe(0);
  expect(looked.stdout).toContain(built);

  // 4. Production: the same bytes as a canary for 10 %, with the digest recorded at release.
  const promoted = await bash(productionLine as string, ciEnv);
  expect(promoted.code, promoted.stderr).toBe(0);
  const production = await manifestOf('production');
  expect(production.canary).toMatchObject({ version: built, percent: 10 });
  expect(production.integrity[built]).toBe((await manifestOf('staging')).integrity[built]);

  // 5. The health gate: no visitor came, so no decision within the (shortened) wait: exit 3, audited.
  const watched = await bash(`${watchLine} --interval 1 --max-wait 3`, ciEnv);
  expect(watched.code, `${watched.stdout}${watched.stderr}`).toBe(3);
  const history = JSON.parse(await rollout('history', REMOTE, '--json', '--env', 'production')) as {
    entries: Array<{ action: string; actor: string }>;
  };
  expect(history.entries[0]).toMatchObject({ action: 'watch-stop', actor: name });

  // The token cannot touch another remote, nor this one in an environment it was not given.
  const other = await bash('pnpm -s rollout abort mf-account --env production', ciEnv);
  expect(other.code).toBe(1);
  expect(other.stderr).toContain('mf-research');
  expect((await manifestOf('production')).canary?.version).toBe(built);
});
