import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureLocalDeployToken } from '../src/services/deploy-local-token';
import {
  command,
  deployInstall,
  deployToken,
  release,
  revisionOf,
  startDeployServer,
  withStable,
} from './deploy-fixtures';
import type { TestServer } from './helpers';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function server() {
  const s = await startDeployServer();
  servers.push(s);
  return s;
}

describe('deploy tokens', () => {
  it('a remote token changes its remote in its environments only; an admin token everything', async () => {
    const s = await server();
    const admin = await deployToken(s, 'ops');
    const research = await deployToken(s, 'research-ci', {
      remotes: ['mf-research'],
      environments: ['staging'],
    });
    await withStable(s, admin, 'staging', 'mf-research');
    await withStable(s, admin, 'staging', 'mf-account');
    const next = await release(s, 'mf-research');
    const rev = await revisionOf(s, admin, 'staging');
    const started = await command(
      s,
      research,
      'staging',
      'mf-research',
      'start',
      { version: next, percent: 10 },
      rev,
    );
    expect(started.status).toBe(200);
    expect(started.headers.get('etag')).toBe(`"${rev + 1}"`);
    const other = await command(s, research, 'staging', 'mf-account', 'abort', {}, rev + 1);
    expect(other.status).toBe(403);
    expect(other.body.error).toContain('may not change mf-account');
    expect(other.body.error).toContain('may change mf-research in staging');
    const prod = await command(s, research, 'production', 'mf-research', 'abort', {}, 0);
    expect(prod.status).toBe(403);
    expect(prod.body.error).toContain('"production"');
    expect((await s.get(DEPLOY_PATHS.environment('production'), research)).status).toBe(403);
    expect((await command(s, admin, 'staging', 'mf-research', 'abort', {}, rev + 1)).status).toBe(200);
    const self = await s.get(DEPLOY_PATHS.token, research);
    expect(self.body).toEqual({
      name: 'research-ci',
      admin: false,
      remotes: ['mf-research'],
      environments: ['staging'],
    });
  });

  it('401 without a token, with an unknown one, and with a revoked one', async () => {
    const s = await server();
    const token = await deployToken(s, 'ci');
    expect((await s.get(DEPLOY_PATHS.token)).status).toBe(401);
    expect((await s.get(DEPLOY_PATHS.token, `mfd_${'x'.repeat(43)}`)).status).toBe(401);
    expect((await s.get(DEPLOY_PATHS.token, token)).status).toBe(200);
    expect(await s.ctx.deployTokens.revoke('ci')).toBe(true);
    const after = await s.get(DEPLOY_PATHS.token, token);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatch(/revoked/);
  });

  it('stores only the hash, records the last use, and names the token in every audit row', async () => {
    const s = await server();
    const token = await deployToken(s, 'research-ci', {
      remotes: ['mf-research'],
      environments: ['staging'],
    });
    const admin = await deployToken(s, 'ops');
    const rows = await s.sql.all<Record<string, unknown>>('SELECT * FROM deploy_tokens');
    expect(JSON.stringify(rows)).not.toContain(token);
    const row = rows.find((r) => r.name === 'research-ci')!;
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(row.last_used_at).toBeNull();
    const { revision } = await withStable(s, admin, 'staging', 'mf-research');
    const next = await release(s, 'mf-research');
    await command(s, token, 'staging', 'mf-research', 'start', { version: next, percent: 5 }, revision);
    const used = await s.ctx.deployTokens.find('research-ci');
    expect(used?.lastUsedAt).toBeTruthy();
    const audit = await s.sql.all<{ actor: string; token_name: string; action: string }>(
      'SELECT actor, token_name, action FROM deploy_audit ORDER BY id',
    );
    expect(audit).toEqual([
      { actor: 'ops', token_name: 'ops', action: 'bootstrap' },
      { actor: 'research-ci', token_name: 'research-ci', action: 'start' },
    ]);
    const history = await s.get(DEPLOY_PATHS.history('staging', 'mf-research'), token);
    expect(history.body.entries.map((e: { action: string }) => e.action)).toEqual(['start', 'bootstrap']);
  });

  it('the install gets its own admin token file; revoking it holds until the file is replaced', async () => {
    const s = await server();
    const file = path.join(s.ctx.config.rollout.paths.deployDir, 'local-deploy-token');
    const token = fs.readFileSync(file, 'utf8').trim();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await s.get(DEPLOY_PATHS.token, token)).body).toMatchObject({ name: 'local', admin: true });
    // Revoked, it stays revoked across restarts while the file is the same; a new file is a new credential.
    await s.ctx.deployTokens.revoke('local');
    await ensureLocalDeployToken(s.ctx.config.rollout.paths.deployDir, s.ctx.deployTokens);
    expect((await s.get(DEPLOY_PATHS.token, token)).status).toBe(401);
    fs.rmSync(file);
    const fresh = await ensureLocalDeployToken(s.ctx.config.rollout.paths.deployDir, s.ctx.deployTokens);
    expect(fresh).not.toBe(token);
    expect((await s.get(DEPLOY_PATHS.token, fresh)).status).toBe(200);
  });
});

describe('deployment commands over HTTP', () => {
  it('If-Match: a stale revision is a 412 with the current one; none is a 428', async () => {
    const s = await server();
    const admin = await deployToken(s, 'ops');
    const { revision } = await withStable(s, admin, 'staging', 'mf-research');
    const next = await release(s, 'mf-research');
    const stale = await command(
      s,
      admin,
      'staging',
      'mf-research',
      'start',
      { version: next, percent: 5 },
      revision - 1,
    );
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ error: expect.stringContaining('changed meanwhile'), revision });
    const none = await command(s, admin, 'staging', 'mf-research', 'start', { version: next, percent: 5 });
    expect(none.status).toBe(428);
    expect(await revisionOf(s, admin, 'staging')).toBe(revision);
  });

  it("refusals are 409 with today's texts; bad bodies 400; unknown environments 404", async () => {
    const s = await server();
    const admin = await deployToken(s, 'ops');
    const promote = await command(s, admin, 'staging', 'mf-research', 'promote', {}, 0);
    expect(promote.status).toBe(409);
    expect(promote.body.error).toBe(
      'mf-research has no deployment in "staging" yet (pnpm start sets one, or pnpm rollout rollback mf-research --to <version>)',
    );
    const { version, revision } = await withStable(s, admin, 'staging', 'mf-research');
    const again = await command(s, admin, 'staging', 'mf-research', 'rollback', { to: version }, revision);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(`mf-research ${version} is already the stable version`);
    const missing = await command(
      s,
      admin,
      'staging',
      'mf-research',
      'start',
      { version: '9.9.9-0123456789', percent: 5 },
      revision,
    );
    expect(missing.status).toBe(409);
    expect(missing.body.error).toContain('is not released; released versions, newest first:');
    const bad = await command(s, admin, 'staging', 'mf-research', 'set', { percent: 150 }, revision);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('percent must be from 0 to 100');
    const unknown = await command(s, admin, 'qa', 'mf-research', 'promote', {}, 0);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('staging, production');
    expect((await command(s, admin, 'staging', 'mf-nothing', 'promote', {}, 0)).status).toBe(404);
  });

  it('promote-to: production adopts what staging runs, with the same digest', async () => {
    const s = await server();
    const admin = await deployToken(s, 'ops');
    const { version } = await withStable(s, admin, 'staging', 'mf-research');
    const adopted = await command(s, admin, 'production', 'mf-research', 'adopt', { version }, 0);
    expect(adopted.status).toBe(200);
    const staging = (await s.get(DEPLOY_PATHS.environment('staging'), admin)).body.manifest;
    expect(adopted.body.manifest.remotes['mf-research'].integrity).toEqual(
      staging.remotes['mf-research'].integrity,
    );
    expect(adopted.body.entries[0]).toMatchObject({ action: 'promote', reason: 'adopted from "staging"' });
  });

  it('a preview link is made for a released version and audited (test/deploy-previews.test.ts: the rest)', async () => {
    const s = await server();
    const admin = await deployToken(s, 'ops');
    const version = await release(s, 'mf-research');
    const res = await s.post(DEPLOY_PATHS.preview('staging', 'mf-research'), { version, hours: 1 }, admin);
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/\?preview=mfp_[A-Za-z0-9_-]{43}$/);
    const history = await s.get(DEPLOY_PATHS.history('staging', 'mf-research'), admin);
    expect(history.body.entries[0]).toMatchObject({ action: 'preview', actor: 'ops' });
  });

  it('health answers the per-visitor figures of a version (none yet)', async () => {
    const s = await server();
    const admin = await deployToken(s, 'ops');
    const version = await release(s, 'mf-research');
    const res = await s.get(`${DEPLOY_PATHS.health('staging', 'mf-research')}?version=${version}`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      remote: 'mf-research',
      version,
      since: null,
      visitors: [],
      addresses: 0,
      overCap: 0,
    });
  });
});

describe('upgrading an install whose deployments were files', () => {
  it('an environment without a row starts from <DEPLOY_DIR>/<env>.json, once, audited', async () => {
    const install = deployInstall();
    const deployDir = install.rollout!.paths.deployDir;
    const manifest = {
      schemaVersion: 1,
      environment: 'staging',
      revision: 7,
      updatedAt: '2026-01-01T00:00:00.000Z',
      remotes: { 'mf-research': { stable: '1.0.0-0123456789', previous: [] } },
    };
    fs.writeFileSync(path.join(deployDir, 'staging.json'), JSON.stringify(manifest));
    fs.writeFileSync(path.join(deployDir, 'production.json'), '{ not json');
    const s = await startDeployServer(install);
    servers.push(s);
    const feed = await s.get(DEPLOY_PATHS.feed('staging'));
    expect(feed.body).toMatchObject({ revision: 7, manifest: { remotes: manifest.remotes } });
    expect((await s.get(DEPLOY_PATHS.feed('production'))).body.revision).toBe(0);
    const admin = await deployToken(s, 'ops');
    const history = await s.get(DEPLOY_PATHS.history('staging', 'mf-research'), admin);
    expect(history.body.entries).toEqual([
      expect.objectContaining({
        action: 'bootstrap',
        actor: 'api-server',
        from: null,
        to: 'stable 1.0.0-0123456789',
      }),
    ]);
    // A second start (another instance) imports nothing again.
    servers.push(await startDeployServer(install));
    expect((await s.get(DEPLOY_PATHS.history('staging', 'mf-research'), admin)).body.entries).toHaveLength(1);
  });
});
