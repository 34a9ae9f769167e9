import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config';
import { deployToken } from './deploy-fixtures';
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

/**
 * Retention after an upload (RELEASE_KEEP = 1 here) never removes a release that something still needs:
 * a version any environment's manifest names (stable, canary, previous: the rollback targets), or one a
 * live preview link names (issue 44), in any environment. A revoked or expired link keeps nothing.
 */
const HOUR = 3_600_000;
let clock = Date.parse('2026-11-01T00:00:00Z');
let server: TestServer;
let admin: string;
let staging: string;

beforeAll(async () => {
  // Each call a second later: retention orders releases by when the store took them.
  server = await startTestServer(
    { deploy: { ...DEFAULT_CONFIG.deploy, releaseKeep: 1, shellManifest: writeShellManifest() } },
    () => (clock += 1000),
  );
  admin = await deployToken(server, 'ops');
  staging = await deployToken(server, 'research-staging', {
    remotes: ['mf-research'],
    environments: ['staging'],
  });
});
afterAll(() => server.close());

const dists = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((variant) => {
  const dir = fixtureDist(variant);
  return { dir, info: infoOf(dir) };
});
const [v1, v2, v3, v4, v5, v6] = dists.map((d) => d.info.version) as [
  string,
  string,
  string,
  string,
  string,
  string,
];

async function release(n: number, token = staging) {
  const { dir, info } = dists[n - 1]!;
  const res = await upload(server, info.version, await bundleOf(dir, info), token, { env: 'staging' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function preview(version: string, hours = 4) {
  const res = await server.post(DEPLOY_PATHS.preview('staging', 'mf-research'), { version, hours }, admin);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

/** A deployment as the commands leave it, written directly: production's rollback target is v1. */
async function deployment(environment: string, remote: object) {
  await server.sql.run(
    `INSERT INTO deployments (environment, revision, manifest_json, updated_at) VALUES (@environment, 1, @m, @at)`,
    {
      environment,
      m: JSON.stringify({ schemaVersion: 1, environment, remotes: { 'mf-research': remote } }),
      at: new Date(clock).toISOString(),
    },
  );
}

describe('pruning after an upload', () => {
  it('keeps rollback targets and versions named by live preview links; removes the rest', async () => {
    await deployment('production', { stable: v2, canary: null, previous: [v1] });
    await release(1);
    await release(2);
    await release(3);
    await preview(v3);
    await release(4);
    const revoked = await preview(v4);
    expect((await server.del(DEPLOY_PATHS.previewLink('staging', revoked), admin)).status).toBe(200);
    await release(5);
    await preview(v5, 1);
    clock += 2 * HOUR; // v5's link has expired
    await release(6);
    // v6 the newest (RELEASE_KEEP 1); v1 production's rollback target, v2 its stable; v3 a live link.
    const kept = [v1, v2, v3, v6].sort();
    expect(await releaseRows(server)).toEqual(kept);
    expect(storeEntries(server)).toEqual(kept);
    const listed = await server.get(DEPLOY_PATHS.releases('mf-research'), admin);
    expect(listed.body.releases.map((r: { version: string }) => r.version).sort()).toEqual(kept);
  });

  it('audits each upload in the environment it named, and only there', async () => {
    const rows = await server.sql.all<{ environment: string; actor: string }>(
      `SELECT DISTINCT environment, actor FROM deploy_audit WHERE action = 'release'`,
    );
    expect(rows).toEqual([{ environment: 'staging', actor: 'research-staging' }]);
    const production = await server.get(DEPLOY_PATHS.history('production', 'mf-research'), admin);
    expect(production.body.entries).toEqual([]);
  });
});
