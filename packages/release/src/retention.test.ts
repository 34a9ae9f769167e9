import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { release } from './release';
import { listReleases } from './release-info';
import { type Sandbox, sandbox } from './test-support';

let s: Sandbox;
beforeEach(() => {
  s = sandbox();
});
afterEach(() => s.cleanup());

async function releaseMany(count: number, keep: number, tag = 'a'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    s.tick(60_000);
    const { info } = await release(
      { remote: 'mf-research', dist: s.dist({ at: `${tag}${i}`, content: `${tag}${i}` }), keep },
      s.ctx,
    );
    ids.push(info.version);
  }
  return ids;
}

function writeManifest(file: string, environment: string, remote: Record<string, unknown>) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const manifest = {
    schemaVersion: 1,
    environment,
    revision: 1,
    updatedAt: '2026-11-22T10:00:00.000Z',
    remotes: { 'mf-research': remote },
  };
  fs.writeFileSync(file, JSON.stringify(manifest));
}

it('keeps the newest N versions of a remote', async () => {
  const ids = await releaseMany(5, 2);
  expect(listReleases(s.paths.store, 'mf-research').map((r) => r.version)).toEqual([ids[4], ids[3]]);
  expect(fs.readdirSync(path.join(s.paths.store, 'mf-research')).sort()).toEqual([ids[3], ids[4]].sort());
});

it('never removes a version a manifest of any environment references (stable, canary, previous)', async () => {
  const ids = (await releaseMany(4, 10)) as [string, string, string, string];
  writeManifest(s.paths.manifestFile, 'test', {
    stable: ids[1],
    canary: {
      version: ids[2],
      percent: 5,
      startedAt: '2026-11-22T10:00:00.000Z',
      stepStartedAt: '2026-11-22T10:00:00.000Z',
    },
    previous: [ids[0]],
  });
  writeManifest(path.join(s.paths.deployDir, 'staging.json'), 'staging', { stable: ids[3], previous: [] });
  const more = await releaseMany(3, 1, 'b');
  const left = listReleases(s.paths.store, 'mf-research').map((r) => r.version);
  expect(left.sort()).toEqual([...ids, more[2]].sort());
});

it('removes nothing when a manifest cannot be read, and says so', async () => {
  const ids = await releaseMany(2, 10);
  fs.mkdirSync(s.paths.deployDir, { recursive: true });
  fs.writeFileSync(s.paths.manifestFile, '{ not json');
  await releaseMany(1, 1, 'b');
  expect(listReleases(s.paths.store, 'mf-research')).toHaveLength(3);
  expect(s.logs.join('\n')).toContain('could not be read, so no release was removed');
  expect(ids).toHaveLength(2);
});

it('RELEASE_KEEP sets the default', async () => {
  s.ctx.env.RELEASE_KEEP = '1';
  for (let i = 0; i < 3; i++) {
    s.tick(1000);
    await release({ remote: 'mf-research', dist: s.dist({ at: `k${i}`, content: `k${i}` }) }, s.ctx);
  }
  expect(listReleases(s.paths.store, 'mf-research')).toHaveLength(1);
});
