import fs from 'node:fs';
import path from 'node:path';
import { readManifestFile } from '@app/rollout/node';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { bootstrapReleases } from './bootstrap';
import { startCanary } from './commands';
import { listReleases } from './release-info';
import { pinsOf, readJsonLines, type Sandbox, sandbox } from './test-support';

let s: Sandbox;
beforeEach(() => {
  s = sandbox();
});
afterEach(() => s.cleanup());

const run = () => bootstrapReleases({ paths: s.paths, env: s.env, log: (line) => s.logs.push(line) });

it('releases each built remote and makes it stable where there is none, once', async () => {
  s.dist({ remote: 'mf-research', content: 'r1' });
  s.dist({ remote: 'mf-account', content: 'a1' });
  const first = await run();
  const research = listReleases(s.paths.store, 'mf-research')[0]?.version;
  const account = listReleases(s.paths.store, 'mf-account')[0]?.version;
  expect(first).toEqual([
    { remote: 'mf-account', version: account, stable: account },
    { remote: 'mf-research', version: research, stable: research },
    { remote: 'mf-survey', version: null, stable: null },
    { remote: 'mf-public-pages', version: null, stable: null },
  ]);
  expect(readManifestFile(s.paths.manifestFile)?.revision).toBe(1);
  expect(readJsonLines(s.paths.auditFile)).toMatchObject([
    { action: 'bootstrap', actor: 'pnpm start', remote: 'mf-account', from: null, to: `stable ${account}` },
    { action: 'bootstrap', actor: 'pnpm start', remote: 'mf-research', from: null, to: `stable ${research}` },
  ]);

  // Again with nothing new: no new release, no manifest write, no audit line.
  expect(await run()).toEqual(first);
  expect(readManifestFile(s.paths.manifestFile)?.revision).toBe(1);
  expect(readJsonLines(s.paths.auditFile)).toHaveLength(2);
  expect(fs.readdirSync(path.join(s.paths.store, 'mf-research'))).toEqual([research]);
});

it('a new build next to a live stable is released but not deployed; the log says how to roll it out', async () => {
  s.dist({ remote: 'mf-research', content: 'r1' });
  const [, live] = await run();
  s.tick(1000);
  s.dist({ remote: 'mf-research', content: 'r2' });
  s.logs.length = 0;
  const [, after] = await run();
  expect(after?.stable).toBe(live?.stable);
  expect(after?.version).not.toBe(live?.version);
  expect(s.logs).toEqual([
    `mf-research: released ${after?.version}`,
    `mf-research: your current build ${after?.version} is released; live stable is ${live?.stable} (pnpm rollout start mf-research ${after?.version} --percent 10)`,
  ]);
  startCanary(s.ctx, { remote: 'mf-research', version: after?.version as string, percent: 10 });
  s.logs.length = 0;
  await run();
  expect(s.logs).toEqual([
    `mf-research: your current build ${after?.version} is the canary at 10 %; live stable is ${live?.stable}`,
  ]);
});

it('never fails the start: a held lock or a broken build is logged', async () => {
  s.dist({ remote: 'mf-research' });
  fs.writeFileSync(path.join(s.dir, 'mf-research', 'dist', 'mf-manifest.json'), '{ broken');
  s.dist({ remote: 'mf-survey' });
  fs.mkdirSync(s.paths.deployDir, { recursive: true });
  fs.writeFileSync(
    s.paths.lockFile,
    JSON.stringify({ pid: process.pid, at: new Date().toISOString(), token: 't' }),
  );
  const result = await run();
  expect(result.find((r) => r.remote === 'mf-survey')).toMatchObject({ stable: null });
  expect(s.logs.join('\n')).toMatch(/mf-research: could not release the current build: .*is not valid JSON/);
  expect(s.logs.join('\n')).toContain(
    'could not set the first stable versions: another rollout command is changing',
  );
});

it('with followBuilds, the current build becomes stable (canary dropped, old stable kept for rollback)', async () => {
  s.dist({ remote: 'mf-research', content: 'r1' });
  const [, live] = await run();
  s.tick(1000);
  s.dist({ remote: 'mf-research', content: 'r2' });
  const [, built] = await run();
  startCanary(s.ctx, { remote: 'mf-research', version: built?.version as string, percent: 10 });
  s.tick(1000);
  s.dist({ remote: 'mf-research', content: 'r3' });
  const follow = () =>
    bootstrapReleases({ paths: s.paths, env: s.env, log: (line) => s.logs.push(line), followBuilds: true });
  const [, after] = await follow();
  expect(after?.stable).toBe(after?.version);
  const deployment = readManifestFile(s.paths.manifestFile)?.remotes['mf-research'];
  expect(deployment).toEqual({
    stable: after?.version,
    previous: [live?.stable],
    integrity: pinsOf(s.paths.store, 'mf-research', after?.version as string, live?.stable as string),
  });
  expect(readJsonLines(s.paths.auditFile).at(-1)).toMatchObject({
    action: 'bootstrap',
    remote: 'mf-research',
    reason: 'ROLLOUT_FOLLOW_BUILDS: the build pnpm start found becomes stable',
  });
  // Nothing changed since: no write.
  const revision = readManifestFile(s.paths.manifestFile)?.revision;
  await follow();
  expect(readManifestFile(s.paths.manifestFile)?.revision).toBe(revision);
});

it('pins the recorded entry digests into a manifest written before they existed, once', async () => {
  s.dist({ remote: 'mf-research', content: 'r1' });
  const [, first] = await run();
  const version = first?.version as string;
  // The manifest as an older checkout wrote it: no integrity.
  const older = readManifestFile(s.paths.manifestFile)!;
  delete older.remotes['mf-research']!.integrity;
  fs.writeFileSync(s.paths.manifestFile, JSON.stringify(older));

  await run();
  const pinned = readManifestFile(s.paths.manifestFile);
  expect(pinned?.remotes['mf-research']?.integrity).toEqual(pinsOf(s.paths.store, 'mf-research', version));
  expect(readJsonLines(s.paths.auditFile).at(-1)).toMatchObject({
    action: 'bootstrap',
    remote: 'mf-research',
    reason: 'entry digests pinned: the manifest predates integrity pinning',
  });
  const revision = pinned?.revision;
  await run();
  expect(readManifestFile(s.paths.manifestFile)?.revision).toBe(revision);
});
