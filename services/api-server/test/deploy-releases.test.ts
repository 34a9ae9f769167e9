import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config';
import {
  bundleOf,
  fixtureDist,
  infoOf,
  releaseRows,
  storeEntries,
  upload,
  writeShellManifest,
} from './deploy-releases-fixtures';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let research: string;
let account: string;
let admin: string;
let researchStaging: string;
let clock = Date.parse('2026-11-01T00:00:00Z');

beforeAll(async () => {
  // Each upload a second later: retention orders releases by when the store took them.
  server = await startTestServer(
    { deploy: { ...DEFAULT_CONFIG.deploy, releaseKeep: 2, shellManifest: writeShellManifest() } },
    () => (clock += 1000),
  );
  const make = (name: string, remotes: string[]) =>
    server.ctx.deployTokens.create({
      name,
      admin: false,
      remotes,
      environments: ['staging', 'production'],
      createdBy: 'test',
    });
  research = (await make('research-ci', ['mf-research'])).token;
  researchStaging = (
    await server.ctx.deployTokens.create({
      name: 'research-staging',
      admin: false,
      remotes: ['mf-research'],
      environments: ['staging'],
      createdBy: 'test',
    })
  ).token;
  account = (await make('account-ci', ['mf-account'])).token;
  admin = (
    await server.ctx.deployTokens.create({
      name: 'ops',
      admin: true,
      remotes: [],
      environments: [],
      createdBy: 'test',
    })
  ).token;
});

afterAll(async () => {
  await server.close();
});

/** Nothing of a refused upload is left: no temp folder, no version folder, no row. */
async function expectNothingStoredBeyond(versions: string[]) {
  expect(storeEntries(server)).toEqual([...versions].sort());
  expect(await releaseRows(server)).toEqual([...versions].sort());
}

describe('PUT a release bundle', () => {
  const dist = fixtureDist('first');
  const info = infoOf(dist);
  let stored: string[] = [];

  it('refuses a caller without a token (401) and a token for another remote (403)', async () => {
    const bundle = await bundleOf(dist, info);
    expect((await upload(server, info.version, bundle, null)).status).toBe(401);
    const other = await upload(server, info.version, bundle, account);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatch(/may not change mf-research/);
    await expectNothingStoredBeyond([]);
  });

  it('names its environment: none is a 400, one outside the token a 403 saying what it may (issue 44)', async () => {
    const bundle = await bundleOf(dist, info);
    const without = await upload(server, info.version, bundle, research, { env: null });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatch(/^Name the environment this release is for: \?env=<environment>/);
    const production = await upload(server, info.version, bundle, researchStaging, { env: 'production' });
    expect(production.status).toBe(403);
    expect(production.body.error).toBe(
      'This deploy token may not change the "production" environment: token "research-staging" may change mf-research in staging',
    );
    const unknown = await upload(server, info.version, bundle, admin, { env: 'nowhere' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('Unknown environment "nowhere"');
    await expectNothingStoredBeyond([]);
  });

  it('stores a new version (201) from a gzip stream, and the same bytes again are a no-op (200)', async () => {
    const created = await upload(server, info.version, await bundleOf(dist, info, { gzip: true }), research);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      created: true,
      forcedConflicts: [],
      release: { remote: 'mf-research', version: info.version, contentHash: info.contentHash, files: 4 },
    });
    stored = [info.version];
    await expectNothingStoredBeyond(stored);
    const again = await upload(server, info.version, await bundleOf(dist, info), research);
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    await expectNothingStoredBeyond(stored);

    // Audited in the environment it was uploaded for, and there only.
    const audit = await server.sql.all<{
      environment: string;
      actor: string;
      action: string;
      to_state: string;
    }>(`SELECT environment, actor, action, to_state FROM deploy_audit WHERE action = 'release'`);
    expect(audit).toEqual([
      { environment: 'production', actor: 'research-ci', action: 'release', to_state: info.version },
    ]);
    const read = await server.get(DEPLOY_PATHS.release('mf-research', info.version), research);
    expect(read.body).toMatchObject({ version: info.version, entryIntegrity: info.entryIntegrity });
    const list = await server.get(DEPLOY_PATHS.releases('mf-research'), research);
    expect(list.body.releases.map((r: { version: string }) => r.version)).toEqual([info.version]);
    expect((await server.get(DEPLOY_PATHS.releases('mf-research'), account)).status).toBe(403);
  });

  it('refuses other bytes under an existing version (409)', async () => {
    const other = fixtureDist('tampered');
    const res = await upload(server, info.version, await bundleOf(other, info), research);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/released already with other bytes/);
    await expectNothingStoredBeyond(stored);
  });

  it('refuses an id or a digest that does not match the content (400)', async () => {
    const dist2 = fixtureDist('second');
    const real = infoOf(dist2);
    const wrongId = { ...real, version: '1.0.0-0000000000', contentHash: undefined };
    const res = await upload(server, wrongId.version, await bundleOf(dist2, wrongId), research);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/does not match its content/);
    expect(res.body.error).toContain(real.version);
    const wrongEntry = { ...real, entryIntegrity: `sha384-${'A'.repeat(64)}` };
    const res2 = await upload(server, real.version, await bundleOf(dist2, wrongEntry), research);
    expect(res2.status).toBe(400);
    expect(res2.body.error).toMatch(/entryIntegrity .* does not match its content/);
    const elsewhere = await upload(
      server,
      real.version,
      await bundleOf(dist2, { ...real, version: info.version }),
      research,
    );
    expect(elsewhere.status).toBe(400);
    const noInfo = await upload(
      server,
      real.version,
      await bundleOf(dist2, null, { withoutInfo: true }),
      research,
    );
    expect(noInfo.body.error).toMatch(/release.json is missing/);
    const notResearch = fixtureDist('x', { container: 'mf_account' });
    const res3 = await upload(server, real.version, await bundleOf(notResearch, real), research);
    expect(res3.status).toBe(400);
    expect(res3.body.error).toMatch(/is a build of mf_account/);
    await expectNothingStoredBeyond(stored);
  });

  it.each([
    ['a parent path', { name: '../x' }, /leaves the bundle/],
    ['an absolute path', { name: '/etc/x' }, /absolute path/],
    ['a backslash', { name: 'static\\x.js' }, /backslash/],
    ['a symlink', { name: 'link.js', type: 'symlink' as const, linkname: '/etc/passwd' }, /is a symlink/],
    ['a hard link', { name: 'hard.js', type: 'link' as const, linkname: 'remoteEntry.js' }, /is a link/],
    ['a device', { name: 'dev', type: 'character-device' as const }, /character-device/],
    ['a duplicate', { name: 'remoteEntry.js' }, /appears twice/],
  ])('refuses %s (400) and leaves nothing', async (_what, header, message) => {
    const dist2 = fixtureDist('second');
    const real = infoOf(dist2);
    const res = await upload(
      server,
      real.version,
      await bundleOf(dist2, real, { extra: [{ header, content: 'x' }] }),
      research,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    await expectNothingStoredBeyond(stored);
  });

  it('refuses a truncated or corrupt stream (400)', async () => {
    const dist2 = fixtureDist('second');
    const real = infoOf(dist2);
    const whole = await bundleOf(dist2, real);
    const cut = await upload(server, real.version, whole.subarray(0, 700), research);
    expect(cut.status).toBe(400);
    const gz = await bundleOf(dist2, real, { gzip: true });
    const cutGz = await upload(server, real.version, gz.subarray(0, gz.length - 20), research);
    expect(cutGz.status).toBe(400);
    const junk = await upload(server, real.version, Buffer.alloc(4096, 7), research);
    expect(junk.status).toBe(400);
    await expectNothingStoredBeyond(stored);
  });

  it('refuses a build the live shell cannot run (409) unless forced, which is audited', async () => {
    const old = fixtureDist('old-react', { react: '18.2.0' });
    const oldInfo = infoOf(old);
    const res = await upload(server, oldInfo.version, await bundleOf(old, oldInfo), research);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/- react: built against major 18 \(18\.2\.0\), the provider has 19\.3\.1/);
    expect(res.body.conflicts).toEqual([
      expect.objectContaining({ kind: 'library-major', package: 'react' }),
    ]);
    await expectNothingStoredBeyond(stored);
    const forced = await upload(server, oldInfo.version, await bundleOf(old, oldInfo), admin, {
      query: { force: '1' },
    });
    expect(forced.status).toBe(201);
    expect(forced.body.forcedConflicts).toHaveLength(1);
    stored = [...stored, oldInfo.version];
    const row = await server.sql.get<{ forced: number; actor: string }>(
      `SELECT forced, actor FROM deploy_audit WHERE to_state = @v`,
      { v: oldInfo.version },
    );
    expect(row).toEqual({ forced: 1, actor: 'ops' });
  });

  it('keeps the newest RELEASE_KEEP releases plus every version a deployment names', async () => {
    // The first release is production's stable: it stays whatever is uploaded after it.
    const manifest = {
      schemaVersion: 1,
      environment: 'production',
      revision: 1,
      updatedAt: new Date().toISOString(),
      remotes: { 'mf-research': { stable: info.version, previous: [] } },
    };
    await server.sql.run(
      `INSERT INTO deployments (environment, revision, manifest_json, updated_at) VALUES ('production', 1, @m, @at)`,
      { m: JSON.stringify(manifest), at: new Date().toISOString() },
    );
    const versions: string[] = [];
    for (const variant of ['k1', 'k2']) {
      const dir = fixtureDist(variant);
      const i = infoOf(dir);
      expect((await upload(server, i.version, await bundleOf(dir, i), research)).status).toBe(201);
      versions.push(i.version);
    }
    // Kept: the two newest (k1, k2) and the deployed one; the forced old-react release went.
    await expectNothingStoredBeyond([info.version, ...versions]);
  });
});
