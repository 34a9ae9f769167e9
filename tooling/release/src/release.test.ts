import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from './context';
import { describeDist, release } from './release';
import { lastLine, runCli, startTestApi, type TestApi } from './test-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.stop());

const opts = (dist: string) => ({ remote: 'mf-research' as const, root: api.dir, dist });

describe('describeDist', () => {
  it('derives the id from the package version and the content, whatever folder the build is in', () => {
    const a = describeDist(api.dist({ at: 'x1', content: 'same' }), opts(''));
    const b = describeDist(api.dist({ at: 'x2', content: 'same' }), opts(''));
    const c = describeDist(api.dist({ at: 'x3', content: 'other', version: '1.2.0' }), opts(''));
    expect(a.version).toMatch(/^1\.0\.0-[0-9a-f]{10}$/);
    expect(b.version).toBe(a.version);
    expect(c.version).toMatch(/^1\.2\.0-/);
    expect(a.entryIntegrity).toMatch(/^sha384-/);
    expect(a.contentHash?.slice(0, 10)).toBe(a.version.slice(-10));
    expect(a).toMatchObject({ files: 5, remote: 'mf-research', exposes: [{ name: 'App', path: './App' }] });
  });

  it('refuses a dist that carries its own release.json, a missing build and a build of another remote', () => {
    const dist = api.dist({ at: 'y1' });
    fs.writeFileSync(path.join(dist, 'release.json'), '{}');
    expect(() => describeDist(dist, opts(dist))).toThrow(/contains a release\.json; that name is reserved/);
    expect(() => describeDist(path.join(api.dir, 'nothing'), opts(''))).toThrow(
      /no build of mf-research at .*mf-manifest\.json is missing/,
    );
    const other = api.dist({ at: 'y2', remote: 'mf-account' });
    expect(() => describeDist(other, opts(other))).toThrow(/is a build of mf_account, not of mf-research/);
  });
});

describe('release through the deploy API', () => {
  it('uploads a build once; the same bytes again are a no-op that answers the same release', async () => {
    const ctx = api.context();
    const dist = api.dist({ at: 'r1', content: 'first' });
    const first = await release(opts(dist), ctx.client);
    expect(first.alreadyReleased).toBe(false);
    expect(first.info).toMatchObject({ remote: 'mf-research', files: 5 });
    expect(
      fs.existsSync(
        path.join(api.env.RELEASE_STORE_DIR as string, 'mf-research', first.info.version, 'remoteEntry.js'),
      ),
    ).toBe(true);
    const again = await release(opts(dist), ctx.client);
    expect(again).toMatchObject({ alreadyReleased: true, info: { version: first.info.version } });
    const listed = await ctx.client.releases('mf-research');
    expect(listed.releases.map((r) => r.version)).toContain(first.info.version);
  });

  it('the server gates compatibility: 409 with the conflicts, --force goes past them (reported)', async () => {
    const ctx = api.context();
    const shared = [{ name: 'react', version: '18.3.1', requiredVersion: '^18.3.1' }];
    const dist = api.dist({ at: 'r2', content: 'react18', shared });
    await expect(release(opts(dist), ctx.client)).rejects.toThrow(/react/);
    const forced = await release({ ...opts(dist), force: true }, ctx.client);
    expect(forced.forcedConflicts.length).toBeGreaterThan(0);
  });

  it('pnpm release prints the version id last, then "already released" for the same build', async () => {
    const dist = api.dist({ at: 'r3', content: 'cli' });
    const env = { DEPLOY_TOKEN: api.adminToken, INIT_CWD: api.dir };
    const first = await runCli('release', ['mf-research', '--dist', 'r3', '--to', api.url], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^released mf-research 1\.0\.0-[0-9a-f]{10}: 5 files, \d+ KiB/);
    const version = lastLine(first.stdout);
    expect(version).toBe(describeDist(dist, opts(dist)).version);
    const again = await runCli('release', ['mf-research', '--dist', 'r3', '--to', api.url], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already released (same content)');
    expect(lastLine(again.stdout)).toBe(version);
  });

  it('names the environment it releases for (--env, else DEPLOY_ENV, else production): the token must cover it', async () => {
    const token = await api.createToken([
      '--name',
      'research-staging',
      '--remote',
      'mf-research',
      '--env',
      'staging',
    ]);
    api.dist({ at: 'r6', content: 'staging only' });
    const env = { DEPLOY_TOKEN: token, INIT_CWD: api.dir };
    const production = await runCli('release', ['mf-research', '--dist', 'r6', '--to', api.url], env);
    expect(production.code).toBe(1);
    expect(production.stderr).toContain(
      'This deploy token may not change the "production" environment: token "research-staging" may change mf-research in staging',
    );
    const viaEnv = await runCli('release', ['mf-research', '--dist', 'r6', '--to', api.url], {
      ...env,
      DEPLOY_ENV: 'staging',
    });
    expect(viaEnv.stderr).toBe('');
    expect(viaEnv.code).toBe(0);
    const version = lastLine(viaEnv.stdout) as string;
    const again = await runCli(
      'release',
      ['mf-research', '--dist', 'r6', '--to', api.url, '--env', 'staging'],
      env,
    );
    expect(again.code).toBe(0);
    expect(lastLine(again.stdout)).toBe(version);
    // Audited in staging, where it was released, and not in production.
    const admin = api.context({ environment: 'staging' }).client;
    expect((await admin.history('mf-research', 50, 'staging')).entries).toContainEqual(
      expect.objectContaining({ action: 'release', actor: 'research-staging', to: version }),
    );
    expect((await admin.history('mf-research', 50, 'production')).entries).not.toContainEqual(
      expect.objectContaining({ to: version }),
    );
  });

  it('an unknown token and an unreachable API are one line each, exit 1', async () => {
    api.dist({ at: 'r4' });
    const bad = await runCli('release', ['mf-research', '--dist', 'r4', '--to', api.url], {
      DEPLOY_TOKEN: `mfd_${'x'.repeat(43)}`,
      INIT_CWD: api.dir,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: the deploy token is missing, unknown or revoked');
    const ctx = createContext({ to: 'http://127.0.0.1:39997', processEnv: { DEPLOY_TOKEN: api.adminToken } });
    await expect(release(opts(api.dist({ at: 'r5' })), ctx.client)).rejects.toThrow(
      'cannot reach the deploy API at http://127.0.0.1:39997 (is the API running? pass --to <url>)',
    );
  });
});
