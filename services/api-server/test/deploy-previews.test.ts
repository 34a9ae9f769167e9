import { createHash } from 'node:crypto';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import {
  DEPLOY_PATHS,
  DeployFeedSchema,
  DeployPreviewListSchema,
  PreviewLinkSchema,
} from '@app/contracts/deploy';
import { AdminRolloutsSchema } from '@app/contracts/rollouts-admin';
import { PREVIEW_TOKEN_PATTERN } from '@app/rollout';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deployInstall, deployToken, release } from './deploy-fixtures';
import { startTestServer, type TestServer } from './helpers';

/**
 * Preview links stored per environment (issue 44): made, listed and revoked through the deploy API within a
 * token's scope, published by the public deployment feed (whose long poll wakes on them), revoked by an
 * administrator on the rollouts screen, audited only in the environment acted on.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const integrityOf = (version: string) => `sha384-${createHash('sha384').update(version).digest('base64')}`;

let clock = Date.parse('2026-06-01T12:00:00.000Z');
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Instances of one install (one database) on the stepped clock. */
async function install(n = 1, deploy: Parameters<typeof deployInstall>[0] = {}) {
  const shared = deployInstall(deploy);
  for (let i = 0; i < n; i++) servers.push(await startTestServer(shared, () => clock));
  return servers;
}

interface Setup {
  s: TestServer;
  admin: string;
  /** A pipeline's token: mf-research in staging only. */
  research: string;
  version: string;
  accountVersion: string;
}

async function setup(): Promise<Setup> {
  const [s] = (await install()) as [TestServer];
  return {
    s,
    admin: await deployToken(s, 'ops'),
    research: await deployToken(s, 'research-staging', {
      remotes: ['mf-research'],
      environments: ['staging'],
    }),
    version: await release(s, 'mf-research'),
    accountVersion: await release(s, 'mf-account'),
  };
}

const create = (s: TestServer, token: string, env: string, remote: string, body: object) =>
  s.post(DEPLOY_PATHS.preview(env, remote), body, token);

async function made(s: TestServer, token: string, env: string, remote: string, version: string, hours = 4) {
  const res = await create(s, token, env, remote, { version, hours });
  if (res.status !== 200) throw new Error(`preview: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as v.InferOutput<typeof PreviewLinkSchema>;
}

const auditRows = (s: TestServer) =>
  s.sql.all<{ environment: string; action: string; actor: string; remote: string }>(
    `SELECT environment, action, actor, remote FROM deploy_audit WHERE action LIKE 'preview%' ORDER BY id`,
  );

describe('preview links through the deploy API', () => {
  it('are made for a released version, listed, and revoked (again: the same answer, audited once)', async () => {
    const { s, admin, version } = await setup();
    const res = await create(s, admin, 'staging', 'mf-research', { version, hours: 2 });
    expect(res.status).toBe(200);
    expect(v.is(PreviewLinkSchema, res.body)).toBe(true);
    const link = res.body;
    expect(link).toMatchObject({
      environment: 'staging',
      remote: 'mf-research',
      version,
      expiresAt: new Date(clock + 2 * HOUR).toISOString(),
    });
    expect(link.token).toMatch(PREVIEW_TOKEN_PATTERN);
    expect(link.url).toBe(`http://localhost:3000/?preview=${link.token}`);
    // Only the token's hash is stored.
    const stored = await s.sql.all<Record<string, unknown>>('SELECT * FROM deploy_previews');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toBe(sha256(link.token));
    expect(JSON.stringify(stored)).not.toContain(link.token);

    const listed = await s.get(DEPLOY_PATHS.previews('staging'), admin);
    expect(listed.status).toBe(200);
    expect(v.is(DeployPreviewListSchema, listed.body)).toBe(true);
    expect(listed.body).toEqual({
      environment: 'staging',
      previews: [
        {
          id: link.id,
          environment: 'staging',
          remote: 'mf-research',
          version,
          createdAt: new Date(clock).toISOString(),
          createdBy: 'ops',
          expiresAt: link.expiresAt,
          revokedAt: null,
          revokedBy: null,
          status: 'active',
        },
      ],
    });

    clock += 60_000;
    const revoked = await s.del(DEPLOY_PATHS.previewLink('staging', link.id), admin);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      id: link.id,
      status: 'revoked',
      revokedAt: new Date(clock).toISOString(),
      revokedBy: 'ops',
    });
    clock += 60_000;
    const again = await s.del(DEPLOY_PATHS.previewLink('staging', link.id), admin);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
    expect((await auditRows(s)).map((r) => r.action)).toEqual(['preview', 'preview-revoke']);

    expect((await s.del(DEPLOY_PATHS.previewLink('staging', 'no-such-link'), admin)).status).toBe(404);
    // The id of a staging link names nothing in production.
    const elsewhere = await s.del(DEPLOY_PATHS.previewLink('production', link.id), admin);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toBe(`No preview link "${link.id}" in the "production" environment`);
  });

  it('list active links first, then expired and revoked ones of the last week, with their status', async () => {
    const { s, admin, version } = await setup();
    const old = await made(s, admin, 'staging', 'mf-research', version, 1);
    clock += 2 * HOUR; // old has expired
    const revoked = await made(s, admin, 'staging', 'mf-research', version);
    await s.del(DEPLOY_PATHS.previewLink('staging', revoked.id), admin);
    clock += 1000;
    const later = await made(s, admin, 'staging', 'mf-research', version, 8);
    clock += 1000;
    const sooner = await made(s, admin, 'staging', 'mf-research', version, 3);
    const list = async () =>
      (await s.get(DEPLOY_PATHS.previews('staging'), admin)).body.previews.map(
        (p: { id: string; status: string }) => [p.id, p.status],
      );
    expect(await list()).toEqual([
      [sooner.id, 'active'],
      [later.id, 'active'],
      [revoked.id, 'revoked'],
      [old.id, 'expired'],
    ]);
    // A week after its expiry a link is no longer listed.
    clock += 7 * DAY;
    expect(await list()).toEqual([
      [sooner.id, 'expired'],
      [later.id, 'expired'],
      [revoked.id, 'revoked'],
    ]);
  });

  it('live at most 7 days: hours above 168 (or not above 0) are a 400 saying so; 4 hours by default', async () => {
    const { s, admin, version } = await setup();
    const week = await create(s, admin, 'staging', 'mf-research', { version, hours: 168 });
    expect(week.status).toBe(200);
    expect(week.body.expiresAt).toBe(new Date(clock + 7 * DAY).toISOString());
    const longer = await create(s, admin, 'staging', 'mf-research', { version, hours: 168.5 });
    expect(longer.status).toBe(400);
    expect(longer.body.error).toBe('hours must be at most 168: a preview link lives 7 days at most');
    for (const hours of [0, -1, '4']) {
      const bad = await create(s, admin, 'staging', 'mf-research', { version, hours });
      expect(bad.status, String(hours)).toBe(400);
      expect(typeof bad.body.error).toBe('string');
    }
    const plain = await create(s, admin, 'staging', 'mf-research', { version });
    expect(plain.body.expiresAt).toBe(new Date(clock + 4 * HOUR).toISOString());
  });

  it('are made only for a released version of that remote (409 naming the released ones)', async () => {
    const { s, admin, version, accountVersion } = await setup();
    const unknown = await create(s, admin, 'staging', 'mf-research', { version: '9.9.9-9999999999' });
    expect(unknown.status).toBe(409);
    expect(unknown.body.error).toBe(
      `mf-research 9.9.9-9999999999 is not released; released versions, newest first: ${version}`,
    );
    const otherRemote = await create(s, admin, 'staging', 'mf-research', { version: accountVersion });
    expect(otherRemote.status).toBe(409);
    expect(await s.sql.value('SELECT COUNT(*) FROM deploy_previews')).toBe(0);
  });

  it("a token for {mf-research, staging} cannot make, list or revoke production's links, nor another remote's", async () => {
    const { s, admin, research, version, accountVersion } = await setup();
    const may = 'token "research-staging" may change mf-research in staging';
    const inProduction = await made(s, admin, 'production', 'mf-research', version);
    const accountLink = await made(s, admin, 'staging', 'mf-account', accountVersion);
    const own = await made(s, research, 'staging', 'mf-research', version);

    const refused = [
      await create(s, research, 'production', 'mf-research', { version }),
      await s.get(DEPLOY_PATHS.previews('production'), research),
      await s.del(DEPLOY_PATHS.previewLink('production', inProduction.id), research),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(`This deploy token may not change the "production" environment: ${may}`);
    }
    const otherRemote = [
      await create(s, research, 'staging', 'mf-account', { version: accountVersion }),
      await s.del(DEPLOY_PATHS.previewLink('staging', accountLink.id), research),
      await s.get(`${DEPLOY_PATHS.previews('staging')}?remote=mf-account`, research),
    ];
    for (const res of otherRemote) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(`This deploy token may not change mf-account: ${may}`);
    }
    // Its list holds the remotes it may change; an admin token's, every remote.
    const ids = async (token: string, query = '') =>
      (await s.get(`${DEPLOY_PATHS.previews('staging')}${query}`, token)).body.previews.map(
        (p: { id: string }) => p.id,
      );
    expect(await ids(research)).toEqual([own.id]);
    expect(await ids(research, '?remote=mf-research')).toEqual([own.id]);
    expect((await ids(admin)).sort()).toEqual([own.id, accountLink.id].sort());
    expect(await ids(admin, '?remote=mf-account')).toEqual([accountLink.id]);
    expect((await s.get(`${DEPLOY_PATHS.previews('staging')}?remote=mf-nothing`, admin)).status).toBe(404);
    // Nothing refused was written: the production link and the account link are active.
    const statuses = await s.sql.column<string | null>('SELECT revoked_at FROM deploy_previews');
    expect(statuses).toEqual([null, null, null]);
    expect((await s.del(DEPLOY_PATHS.previewLink('staging', own.id), research)).status).toBe(200);
    expect((await s.get(DEPLOY_PATHS.previews('staging'))).status).toBe(401);
  });

  it('are audited in the environment acted on only, under the token’s or the administrator’s name', async () => {
    const { s, admin, research, version } = await setup();
    const own = await made(s, research, 'staging', 'mf-research', version);
    await s.del(DEPLOY_PATHS.previewLink('staging', own.id), research);
    const other = await made(s, admin, 'staging', 'mf-research', version);
    const boss = await s.user(['admin'], 'boss');
    const byAdmin = await s.req('DELETE', `${ADMIN_PATHS.rolloutPreview(other.id)}?environment=staging`, {
      token: boss.token,
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ id: other.id, status: 'revoked', revokedBy: boss.username });
    expect(await auditRows(s)).toEqual([
      { environment: 'staging', action: 'preview', actor: 'research-staging', remote: 'mf-research' },
      { environment: 'staging', action: 'preview-revoke', actor: 'research-staging', remote: 'mf-research' },
      { environment: 'staging', action: 'preview', actor: 'ops', remote: 'mf-research' },
      { environment: 'staging', action: 'preview-revoke', actor: boss.username, remote: 'mf-research' },
    ]);
    const history = await s.get(DEPLOY_PATHS.history('staging', 'mf-research'), admin);
    expect(history.body.entries[0]).toMatchObject({
      action: 'preview-revoke',
      actor: boss.username,
      from: `preview ${version} until ${other.expiresAt} (${other.id})`,
      to: `revoked (${other.id})`,
    });
    expect((await s.get(DEPLOY_PATHS.history('production', 'mf-research'), admin)).body.entries).toEqual([]);
  });
});

describe('the rollouts screen (administrators)', () => {
  it("shows the viewed environment's links and revokes one; members may not, unknown ones are 404", async () => {
    const { s, admin, version } = await setup();
    const staging = await made(s, admin, 'staging', 'mf-research', version);
    const production = await made(s, admin, 'production', 'mf-research', version);
    const boss = await s.user(['admin'], 'boss');
    const view = await s.get(`${ADMIN_PATHS.rollouts}?environment=staging`, boss.token);
    expect(view.status).toBe(200);
    expect(v.is(AdminRolloutsSchema, view.body)).toBe(true);
    expect(view.body.previews.map((p: { id: string }) => p.id)).toEqual([staging.id]);
    // Without ?environment: the API's own (DEPLOY_ENV, production).
    const own = await s.get(ADMIN_PATHS.rollouts, boss.token);
    expect(own.body.previews.map((p: { id: string }) => p.id)).toEqual([production.id]);
    const revoke = (id: string, token: string, query = '') =>
      s.req('DELETE', `${ADMIN_PATHS.rolloutPreview(id)}${query}`, { token });
    const member = await s.user([], 'member');
    expect((await revoke(production.id, member.token)).status).toBe(403);
    expect((await revoke(staging.id, boss.token)).status).toBe(404); // not in production
    expect((await revoke(staging.id, boss.token, '?environment=nowhere')).status).toBe(404);
    const done = await revoke(production.id, boss.token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: production.id, status: 'revoked', revokedBy: boss.username });
    expect((await s.get(ADMIN_PATHS.rollouts, boss.token)).body.previews[0].status).toBe('revoked');
  });
});

/** Until the instance holds `n` feed requests, instead of a fixed wait. */
const holding = (s: TestServer, n: number) =>
  vi.waitFor(() => expect(s.server.feedWaiting()).toBe(n), { timeout: 5000, interval: 5 });

describe('the public deployment feed', () => {
  it("carries the environment's links (their hashes, never the tokens) and its previews revision", async () => {
    const { s, admin, version } = await setup();
    const empty = await s.get(DEPLOY_PATHS.feed('staging'));
    expect(empty.status).toBe(200);
    expect(v.is(DeployFeedSchema, empty.body)).toBe(true);
    expect(empty.body.previews).toEqual({ revision: 0, links: [], overrides: [] });
    expect(empty.headers.get('etag')).toBe('"0.0"');

    const first = await made(s, admin, 'staging', 'mf-research', version, 1);
    clock += 1000;
    const second = await made(s, admin, 'staging', 'mf-research', version);
    await s.del(DEPLOY_PATHS.previewLink('staging', second.id), admin);
    await made(s, admin, 'production', 'mf-research', version);
    const feed = await s.get(DEPLOY_PATHS.feed('staging'));
    expect(v.is(DeployFeedSchema, feed.body)).toBe(true);
    expect(feed.body).toMatchObject({ environment: 'staging', revision: 0 });
    expect(feed.body.previews).toEqual({
      revision: 3,
      links: [
        {
          id: first.id,
          tokenHash: sha256(first.token),
          remote: 'mf-research',
          version,
          expiresAt: first.expiresAt,
          revokedAt: null,
          integrity: integrityOf(version),
        },
        {
          id: second.id,
          tokenHash: sha256(second.token),
          remote: 'mf-research',
          version,
          expiresAt: second.expiresAt,
          revokedAt: new Date(clock).toISOString(),
          integrity: integrityOf(version),
        },
      ],
      overrides: [],
    });
    expect(feed.headers.get('etag')).toBe('"0.3"');
    expect(JSON.stringify(feed.body)).not.toContain(first.token);
    expect((await s.get(DEPLOY_PATHS.feed('production'))).body.previews.revision).toBe(1);
    // A link expired for more than 7 days leaves the feed (the revision stays: nothing was done to it).
    clock += 7 * DAY + HOUR + 1;
    const later = await s.get(DEPLOY_PATHS.feed('staging'));
    expect(later.body.previews.links.map((l: { id: string }) => l.id)).toEqual([second.id]);
    expect(later.body.previews.revision).toBe(3);
    expect((await s.get(`${DEPLOY_PATHS.feed('staging')}?after=0&previews=x`)).status).toBe(400);
  });

  it('a long poll with ?previews= is woken at once by a link made through its own instance', async () => {
    const [s] = (await install(1, { feedTimeoutMs: 10_000 })) as [TestServer];
    const admin = await deployToken(s, 'ops');
    const version = await release(s, 'mf-research');
    const waiting = s.get(`${DEPLOY_PATHS.feed('staging')}?after=0&previews=0`);
    await holding(s, 1);
    const changed = performance.now();
    const link = await made(s, admin, 'staging', 'mf-research', version);
    const res = await waiting;
    expect(performance.now() - changed).toBeLessThan(300);
    expect(res.status).toBe(200);
    expect(res.body.previews.revision).toBe(1);
    expect(res.body.previews.links.map((l: { id: string }) => l.id)).toEqual([link.id]);
  });

  it('a long poll with ?previews= on one instance is woken by a revoke through the other within a second', async () => {
    const [a, b] = (await install(2, { feedTimeoutMs: 10_000 })) as [TestServer, TestServer];
    const admin = await deployToken(a, 'ops');
    const version = await release(a, 'mf-research');
    const link = await made(a, admin, 'staging', 'mf-research', version);
    const waiting = a.get(`${DEPLOY_PATHS.feed('staging')}?after=0&previews=1`);
    await holding(a, 1);
    const changed = performance.now();
    expect((await b.del(DEPLOY_PATHS.previewLink('staging', link.id), admin)).status).toBe(200);
    const res = await waiting;
    expect(performance.now() - changed).toBeLessThan(1000);
    expect(res.status).toBe(200);
    expect(res.body.previews.revision).toBe(2);
    expect(res.body.previews.links[0]).toMatchObject({
      id: link.id,
      revokedAt: new Date(clock).toISOString(),
    });
  });

  it('answers at once when the caller is behind on previews; without ?previews= it waits for the deployment only', async () => {
    const [s] = (await install(1, { feedTimeoutMs: 300 })) as [TestServer];
    const admin = await deployToken(s, 'ops');
    const version = await release(s, 'mf-research');
    await made(s, admin, 'staging', 'mf-research', version);
    const behind = await s.get(`${DEPLOY_PATHS.feed('staging')}?after=0&previews=0`);
    expect(behind.status).toBe(200);
    expect(behind.body.previews.revision).toBe(1);
    // As before issue 44: a link made meanwhile does not end a wait that does not follow the links.
    const waiting = s.get(`${DEPLOY_PATHS.feed('staging')}?after=0`);
    await holding(s, 1);
    await made(s, admin, 'staging', 'mf-research', version);
    expect((await waiting).status).toBe(204);
  });
});
