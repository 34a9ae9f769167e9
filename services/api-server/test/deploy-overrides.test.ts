import { createHash } from 'node:crypto';
import { API_PATHS } from '@app/contracts';
import { DEPLOY_PATHS, DeployFeedSchema, OverrideLinkSchema } from '@app/contracts/deploy';
import { planRemotes } from '@app/rollout';
import { OVERRIDE_TOKEN_PATTERN } from '@app/rollout/dev-override';
import { checkOverride, ticketRemotes } from '@app/rollout/node';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { deployInstall, deployToken } from './deploy-fixtures';
import { event, ticketFor } from './health-tickets';
import { startTestServer, type TestServer, tempRollout } from './helpers';
import { release, V1 } from './rollout-fixtures';

/**
 * Dev override links (issue 47): made within a deploy token's scope for loopback and private dev servers only
 * (or DEV_OVERRIDE_ORIGINS), published in the feed as hashes, checked like preview links (expired, tampered,
 * revoked, another environment's: refused), audited, and never counted by the health gate.
 */
const HOUR = 3_600_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const DEV = 'http://127.0.0.1:3102/mf-manifest.json';

let clock = Date.parse('2026-06-01T12:00:00.000Z');
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function setup(deploy: Parameters<typeof deployInstall>[0] = {}) {
  const s = await startTestServer(deployInstall(deploy), () => clock);
  servers.push(s);
  return {
    s,
    admin: await deployToken(s, 'ops'),
    research: await deployToken(s, 'research-dev', { remotes: ['mf-research'], environments: ['staging'] }),
  };
}

const feedOf = async (s: TestServer, env: string) => {
  const res = await s.get(DEPLOY_PATHS.feed(env));
  expect(v.is(DeployFeedSchema, res.body)).toBe(true);
  return res.body as v.InferOutput<typeof DeployFeedSchema>;
};

const auditRows = (s: TestServer) =>
  s.sql.all<{ environment: string; action: string; actor: string; remote: string; to_state: string }>(
    `SELECT environment, action, actor, remote, to_state FROM deploy_audit WHERE action LIKE 'override%' ORDER BY id`,
  );

describe('dev override links', () => {
  it('are made for a loopback dev server, published as a hash, checked, revoked and audited', async () => {
    const { s, research } = await setup();
    const before = await feedOf(s, 'staging');
    const res = await s.post(DEPLOY_PATHS.override('staging', 'mf-research'), { url: DEV }, research);
    expect(res.status).toBe(200);
    expect(v.is(OverrideLinkSchema, res.body)).toBe(true);
    const link = res.body as v.InferOutput<typeof OverrideLinkSchema>;
    expect(link.token).toMatch(OVERRIDE_TOKEN_PATTERN);
    expect(link).toMatchObject({
      link: `http://localhost:3000/?override=${link.token}`,
      environment: 'staging',
      remote: 'mf-research',
      url: DEV,
      // Two hours unless asked otherwise.
      expiresAt: new Date(clock + 2 * HOUR).toISOString(),
    });
    const stored = await s.sql.all<Record<string, unknown>>('SELECT * FROM deploy_overrides');
    expect(stored[0]?.token_hash).toBe(sha256(link.token));
    expect(JSON.stringify(stored)).not.toContain(link.token);

    const feed = await feedOf(s, 'staging');
    expect(feed.previews.revision).toBe(before.previews.revision + 1);
    expect(feed.previews.overrides).toEqual([
      {
        id: link.id,
        tokenHash: sha256(link.token),
        remote: 'mf-research',
        url: DEV,
        expiresAt: link.expiresAt,
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(feed)).not.toContain(link.token);
    const overrides = feed.previews.overrides ?? [];
    expect(checkOverride(link.token, { overrides, now: clock })).toEqual({
      status: 'active',
      grant: {
        remote: 'mf-research',
        entry: DEV,
        origin: 'http://127.0.0.1:3102',
        expiresAt: link.expiresAt,
      },
    });
    // Tampered: one character changed is another token, whose hash is nowhere.
    const tampered = `${link.token.slice(0, -2)}${link.token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(checkOverride(tampered, { overrides, now: clock })).toMatchObject({
      message: 'This override link is not valid.',
    });
    // Expired after its hours.
    expect(checkOverride(link.token, { overrides, now: clock + 2 * HOUR + 1 })).toMatchObject({
      message: 'This override link has expired.',
    });
    // Another environment's feed does not have it.
    const production = await feedOf(s, 'production');
    expect(
      checkOverride(link.token, { overrides: production.previews.overrides ?? [], now: clock }),
    ).toMatchObject({ message: 'This override link is not valid.' });

    clock += 60_000;
    const revoked = await s.del(DEPLOY_PATHS.overrideLink('staging', link.id), research);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      id: link.id,
      revokedAt: new Date(clock).toISOString(),
      revokedBy: 'research-dev',
    });
    const again = await s.del(DEPLOY_PATHS.overrideLink('staging', link.id), research);
    expect(again.body).toEqual(revoked.body);
    const afterRevoke = await feedOf(s, 'staging');
    expect(
      checkOverride(link.token, { overrides: afterRevoke.previews.overrides ?? [], now: clock }),
    ).toMatchObject({ message: 'This override link has been revoked.' });
    expect(await auditRows(s)).toEqual([
      {
        environment: 'staging',
        action: 'override',
        actor: 'research-dev',
        remote: 'mf-research',
        to_state: `override → ${DEV} until ${link.expiresAt} (${link.id})`,
      },
      {
        environment: 'staging',
        action: 'override-revoke',
        actor: 'research-dev',
        remote: 'mf-research',
        to_state: `revoked (${link.id}) after 0 page views, 0 opens`,
      },
    ]);
    const elsewhere = await s.del(DEPLOY_PATHS.overrideLink('production', link.id), research);
    expect(elsewhere.status).toBe(403);
    const unknown = await s.del(DEPLOY_PATHS.overrideLink('staging', 'no-such-link'), research);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('No override link "no-such-link" in the "staging" environment');
  });

  it.each([
    'http://8.8.8.8:3102/mf-manifest.json',
    'https://cdn.example.com/mf-manifest.json',
    'http://127.0.0.1.evil.com/mf-manifest.json',
    'http://127.0.0.1@evil.com/mf-manifest.json',
    'http://[::ffff:127.0.0.1]:3102/mf-manifest.json',
    'http://[::ffff:8.8.8.8]/mf-manifest.json',
    'javascript:alert(1)//mf-manifest.json',
    'data:application/json,{}',
    'file:///etc/passwd',
  ])('refuses %s with a 400 that says what is accepted, storing nothing', async (url) => {
    const { s, admin } = await setup();
    const res = await s.post(DEPLOY_PATHS.override('production', 'mf-research'), { url }, admin);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Override URL refused: .*loopback and private-network dev servers/);
    expect(await s.sql.all('SELECT id FROM deploy_overrides')).toEqual([]);
    expect(await auditRows(s)).toEqual([]);
  });

  it('accepts an origin listed in DEV_OVERRIDE_ORIGINS, refuses bad bodies and other scopes', async () => {
    const { s, admin, research } = await setup({ overrideOrigins: ['https://dev.team.example:8443'] });
    const ok = await s.post(
      DEPLOY_PATHS.override('production', 'mf-account'),
      { url: 'https://dev.team.example:8443/mf-manifest.json', hours: 1 },
      admin,
    );
    expect(ok.status).toBe(200);
    const bad = async (body: object, token = admin, remote = 'mf-research', env = 'staging') =>
      s.post(DEPLOY_PATHS.override(env, remote), body, token);
    expect((await bad({ url: DEV, hours: 24 * 8 })).body.error).toMatch(/hours must be at most 168/);
    expect((await bad({})).status).toBe(400);
    expect((await bad({ url: DEV }, research, 'mf-account')).status).toBe(403);
    expect((await bad({ url: DEV }, research, 'mf-research', 'production')).status).toBe(403);
    expect((await bad({ url: DEV }, 'mfd_not-a-token')).status).toBe(401);
    expect((await bad({ url: DEV }, admin, 'mf-nothing')).status).toBe(404);
  });
});

describe('health reports under an override', () => {
  it('are not counted: the overridden remote is in no ticket, so its events are ignored', async () => {
    const rollout = tempRollout();
    release(rollout.paths, 'mf-research', V1);
    const s = await startTestServer({ rollout });
    servers.push(s);
    const manifest = {
      environment: 'production',
      revision: 1,
      remotes: {
        'mf-research': { stable: V1, previous: [], integrity: { [V1]: `sha384-${'A'.repeat(64)}` } },
      },
    };
    const plan = planRemotes(['mf_research'], {
      configUrls: { mf_research: 'http://localhost:3002/mf-manifest.json' } as never,
      manifest: manifest as never,
      releasesUrl: 'http://localhost:3000/releases',
      cohort: 0,
      preview: null,
      override: { remote: 'mf-research', entry: DEV },
    });
    expect(plan.mf_research.fallback).toMatchObject({ version: V1, track: 'stable' });
    expect(ticketRemotes(plan)).toEqual({});
    const visitors = async () =>
      (await s.ctx.rollout.health.visitors('production', 'mf-research', V1)).length;
    const before = await visitors();
    // Even a report that names the fallback version, with a ticket made from that plan, counts nothing.
    const res = await s.post(API_PATHS.rolloutHealth, {
      ticket: ticketFor({ remotes: ticketRemotes(plan) }),
      events: [event({ version: V1, kind: 'load-failure', value: 8000 })],
    });
    expect(res.status).toBeLessThan(500);
    expect(await visitors()).toBe(before);
  });
});
