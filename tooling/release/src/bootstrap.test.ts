import fs from 'node:fs';
import path from 'node:path';
import type { RemotePackage } from '@app/rollout';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { bootstrapReleases } from './bootstrap';
import { startCanary } from './commands';
import { startTestApi, type TestApi, writeFakeDist } from './test-support';

/** One API; each test its own repository root (its `<remote>/dist` folders) and its own two environments. */
let api: TestApi;
beforeAll(async () => {
  const environments = Array.from({ length: 10 }, (_, i) => `b${i}`);
  api = await startTestApi({ DEPLOY_ENVIRONMENTS: environments.join(','), DEPLOY_ENV: 'b0' });
});
afterAll(() => api?.stop());

let n = 0;
let root: string;
let environments: string[];
let logs: string[];
beforeEach(() => {
  root = path.join(api.dir, `root-${n}`);
  environments = [`b${2 * n}`, `b${2 * n + 1}`];
  n++;
  logs = [];
});

const build = (remote: RemotePackage, content: string) =>
  writeFakeDist(path.join(root, remote, 'dist'), { remote, content });
const run = (o: { followBuilds?: boolean; apiUrl?: string } = {}) =>
  bootstrapReleases({
    apiUrl: o.apiUrl ?? api.url,
    token: api.adminToken,
    env: { DEPLOY_ENV: environments[1] },
    environments,
    root,
    log: (line) => logs.push(line),
    followBuilds: o.followBuilds,
  });
const stateOf = (environment: string) => api.context({ environment }).client.state();

it('releases each built remote and makes it stable in every environment where there is none, once', async () => {
  build('mf-research', 'r1');
  build('mf-account', 'a1');
  const first = await run();
  const research = first.find((r) => r.remote === 'mf-research')?.version as string;
  const account = first.find((r) => r.remote === 'mf-account')?.version as string;
  expect(research).toMatch(/^1\.0\.0-/);
  expect(first).toEqual([
    {
      remote: 'mf-account',
      version: account,
      stable: account,
      stables: { [environments[0] as string]: account, [environments[1] as string]: account },
    },
    {
      remote: 'mf-research',
      version: research,
      stable: research,
      stables: { [environments[0] as string]: research, [environments[1] as string]: research },
    },
    {
      remote: 'mf-survey',
      version: null,
      stable: null,
      stables: { [environments[0] as string]: null, [environments[1] as string]: null },
    },
    {
      remote: 'mf-public-pages',
      version: null,
      stable: null,
      stables: { [environments[0] as string]: null, [environments[1] as string]: null },
    },
  ]);
  const revisions = await Promise.all(environments.map(async (e) => (await stateOf(e)).revision));
  const history = await api.context({ environment: environments[0] }).client.history('mf-research');
  // The upload is audited as a release; the change of the deployment as bootstrap, by the local token.
  expect(history.entries.filter((e) => e.action === 'bootstrap')).toMatchObject([
    { actor: 'local', environment: environments[0], from: null, to: `stable ${research}` },
  ]);

  // Again with nothing new: no new release, no change anywhere.
  logs.length = 0;
  expect(await run()).toEqual(first);
  expect(logs).toEqual([]);
  expect(await Promise.all(environments.map(async (e) => (await stateOf(e)).revision))).toEqual(revisions);
});

it('a new build next to a live stable is released but not deployed; the log says how to roll it out', async () => {
  build('mf-research', 'r1');
  const [, live] = await run();
  build('mf-research', 'r2');
  logs.length = 0;
  const [, after] = await run();
  expect(after?.stable).toBe(live?.stable);
  expect(after?.version).not.toBe(live?.version);
  const main = environments[1];
  expect(logs).toEqual([
    `mf-research: released ${after?.version}`,
    `mf-research: your current build ${after?.version} is released; live stable in "${main}" is ${live?.stable} (pnpm rollout start mf-research ${after?.version} --percent 10 --env ${main})`,
  ]);
  await startCanary(api.context({ environment: main }), {
    remote: 'mf-research',
    version: after?.version as string,
    percent: 10,
  });
  logs.length = 0;
  await run();
  expect(logs).toEqual([
    `mf-research: your current build ${after?.version} is the canary at 10 % in "${main}"; live stable is ${live?.stable}`,
  ]);
});

it('with followBuilds, the current build becomes stable everywhere (canary dropped, old stable kept for rollback)', async () => {
  build('mf-research', 'r1');
  const [, first] = await run();
  build('mf-research', 'r2');
  const [, followed] = await run({ followBuilds: true });
  expect(followed?.stable).toBe(followed?.version);
  for (const environment of environments) {
    const deployment = (await stateOf(environment)).manifest.remotes['mf-research'];
    expect(deployment).toMatchObject({ stable: followed?.version, previous: [first?.version] });
  }
});

it('never fails the start: a broken build and an unreachable API are logged', async () => {
  build('mf-research', 'r1');
  const broken = path.join(root, 'mf-account', 'dist');
  fs.mkdirSync(broken, { recursive: true });
  fs.writeFileSync(path.join(broken, 'mf-manifest.json'), '{ not json');
  const results = await run();
  expect(results.find((r) => r.remote === 'mf-account')).toMatchObject({ version: null, stable: null });
  expect(results.find((r) => r.remote === 'mf-research')?.stable).toMatch(/^1\.0\.0-/);
  expect(logs.some((line) => line.startsWith('mf-account: could not release the current build:'))).toBe(true);

  logs.length = 0;
  const offline = await run({ apiUrl: 'http://127.0.0.1:39997' });
  expect(offline.map((r) => r.stable)).toEqual([null, null, null, null]);
  expect(logs.some((line) => line.includes('cannot reach the deploy API at http://127.0.0.1:39997'))).toBe(
    true,
  );
});
