import { AuditEntrySchema } from '@app/contracts';
import { DEPLOY_PATHS, type OverrideLink } from '@app/contracts/deploy';
import { newOverrideToken } from '@app/rollout/node';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { OVERRIDE_AUDIT_PER_LINK } from '../src/services/deploy-override-uses';
import { deployInstall, deployToken } from './deploy-fixtures';
import { limitsWith, startTestServer, type TestServer } from './helpers';

/**
 * Issue 47: the use of a dev override link is in the deploy audit. An edge reports, with the link's token as
 * its only proof, that a browser opened the link, how many pages it served under it, and Exit; opens and Exit
 * are audit rows (actor `visitor <address>`, no token), page views a count on the link's row. Tried as the
 * developer, and as someone with a forged, expired or revoked token, a flood, or garbage.
 */
const DEV = 'http://127.0.0.1:3102/mf-manifest.json';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const HOUR = 3_600_000;

let clock = Date.parse('2026-06-01T12:00:00.000Z');
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function setup() {
  // The anonymous limit (60 writes a minute per address by default) set tiny: reports are not counted by it
  // (every visitor of an edge shares its address), so a flood of them below proves it.
  const s = await startTestServer(
    { ...deployInstall(), rateLimits: limitsWith({ anonymous: { limit: 2, windowMs: 60_000 } }) },
    () => clock,
  );
  servers.push(s);
  const research = await deployToken(s, 'research-dev', {
    remotes: ['mf-research'],
    environments: ['staging'],
  });
  const made = await s.post(DEPLOY_PATHS.override('staging', 'mf-research'), { url: DEV }, research);
  expect(made.status).toBe(200);
  const link = made.body as OverrideLink;
  const use = (body: unknown, env = 'staging') => s.post(DEPLOY_PATHS.overrideUses(env), body);
  return { s, research, link, use };
}

const useRows = (s: TestServer) =>
  s.sql.all<Record<string, unknown>>(
    `SELECT action, actor, token_name, from_state, to_state, reason FROM deploy_audit
     WHERE action IN ('override-open', 'override-exit') ORDER BY id`,
  );
const counts = async (s: TestServer, id: string) =>
  s.sql.get<{ opens: number; page_views: number; last_used_at: string | null }>(
    'SELECT opens, page_views, last_used_at FROM deploy_overrides WHERE id = @id',
    { id },
  );

describe('a dev override link in use', () => {
  it('is audited when opened and exited, its page views counted, and the revocation says how many', async () => {
    const { s, research, link, use } = await setup();
    const described = `override → ${DEV} until ${link.expiresAt} (${link.id})`;
    const who = { address: '203.0.113.7', userAgent: FIREFOX };

    const opened = await use({ token: link.token, event: 'open', ...who });
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ audited: true, opens: 1, pageViews: 0 });
    for (const views of [1, 3]) {
      clock += 10_000;
      const counted = await use({ token: link.token, event: 'views', views });
      expect(counted.body).toMatchObject({ audited: false });
    }
    clock += 10_000;
    const exited = await use({ token: link.token, event: 'exit', views: 2, ...who });
    expect(exited.body).toEqual({ audited: true, opens: 1, pageViews: 6 });
    expect(await counts(s, link.id)).toEqual({
      opens: 1,
      page_views: 6,
      last_used_at: new Date(clock).toISOString(),
    });
    expect(await useRows(s)).toEqual([
      {
        action: 'override-open',
        actor: 'visitor 203.0.113.7',
        token_name: null,
        from_state: null,
        to_state: described,
        reason: 'opened in Firefox on Linux at 203.0.113.7',
      },
      {
        action: 'override-exit',
        actor: 'visitor 203.0.113.7',
        token_name: null,
        from_state: described,
        to_state: `exited (${link.id}) after 6 page views, 1 open`,
        reason: 'Exit in Firefox on Linux at 203.0.113.7',
      },
    ]);

    // Without an address or a browser the edge could name: said so.
    clock += 60_000;
    await use({ token: link.token, event: 'open' });
    expect((await useRows(s)).at(-1)).toMatchObject({
      actor: 'visitor (address unknown)',
      reason: 'opened in an unknown browser at an unknown address',
    });

    const revoked = await s.del(DEPLOY_PATHS.overrideLink('staging', link.id), research);
    expect(revoked.body).toMatchObject({ opens: 2, pageViews: 6, lastUsedAt: new Date(clock).toISOString() });
    const history = await s.get(DEPLOY_PATHS.history('staging', 'mf-research'), research);
    const entries = history.body.entries as unknown[];
    expect(entries.every((e) => v.is(AuditEntrySchema, e))).toBe(true);
    expect(entries.map((e) => (e as { action: string }).action)).toEqual([
      'override-revoke',
      'override-open',
      'override-exit',
      'override-open',
      'override',
    ]);
    expect(entries[0]).toMatchObject({ to: `revoked (${link.id}) after 6 page views, 2 opens` });
  });

  it('refuses a forged, expired, revoked or other environment token with a 404 and writes nothing', async () => {
    const { s, research, link, use } = await setup();
    const refused = async (body: object, env = 'staging') => {
      const res = await use(body, env);
      expect(res.status).toBe(404);
      expect(typeof res.body.error).toBe('string');
      return res.body.error as string;
    };
    const all = ['open', 'views', 'exit'] as const;
    const report = (token: string, event: (typeof all)[number]) =>
      event === 'open' ? { token, event, address: '198.51.100.1' } : { token, event, views: 5 };
    for (const event of all) {
      expect(await refused(report(newOverrideToken(), event))).toBe('This override link is not valid.');
      expect(await refused(report(link.token, event), 'production')).toBe('This override link is not valid.');
      expect(await refused(report(link.token, event), 'nowhere')).toBe('Unknown environment "nowhere"');
    }
    const before = await counts(s, link.id);
    expect(before).toEqual({ opens: 0, page_views: 0, last_used_at: null });

    const later = clock;
    clock += 2 * HOUR + 1;
    for (const event of all)
      expect(await refused(report(link.token, event))).toBe('This override link has expired.');
    clock = later;
    await s.del(DEPLOY_PATHS.overrideLink('staging', link.id), research);
    for (const event of all) {
      expect(await refused(report(link.token, event))).toBe('This override link has been revoked.');
    }
    expect(await counts(s, link.id)).toEqual(before);
    expect(await useRows(s)).toEqual([]);
  });

  it('writes one open a minute per address however many come, and a few a minute per link at most', async () => {
    const { s, link, use } = await setup();
    const open = (address: string) => use({ token: link.token, event: 'open', address, userAgent: FIREFOX });
    // Fifty at once from one address (concurrent: on PostgreSQL the link's row orders them).
    const flood = await Promise.all(Array.from({ length: 50 }, () => open('192.0.2.10')));
    expect(flood.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(flood.filter((r) => r.body.audited)).toHaveLength(1);
    expect(await useRows(s)).toHaveLength(1);
    expect((await counts(s, link.id))?.opens).toBe(50);

    clock += 30_000;
    expect((await open('192.0.2.10')).body.audited).toBe(false);
    clock += 31_000;
    expect((await open('192.0.2.10')).body.audited).toBe(true);
    expect(await useRows(s)).toHaveLength(2);

    // The reporter names the address, so another address is no way round: a few rows a minute per link.
    clock += 61_000;
    const spread = [];
    for (let i = 1; i <= 20; i++) spread.push(await open(`192.0.2.${100 + i}`));
    expect(spread.filter((r) => r.body.audited)).toHaveLength(OVERRIDE_AUDIT_PER_LINK);
    // Exit is debounced alike.
    const exits = await Promise.all(
      Array.from({ length: 10 }, () => use({ token: link.token, event: 'exit', address: '192.0.2.10' })),
    );
    expect(exits.filter((r) => r.body.audited)).toHaveLength(1);
    expect(await useRows(s)).toHaveLength(2 + OVERRIDE_AUDIT_PER_LINK + 1);
    expect((await counts(s, link.id))?.opens).toBe(72);
  });

  it('answers 400 with an error to anything that is not a report, and writes nothing', async () => {
    const { s, link, use } = await setup();
    const { token } = link;
    const bad: unknown[] = [
      {},
      [],
      'open',
      { token },
      { token, event: 'close' },
      { token: 'mfo_short', event: 'open' },
      { token: `mfp_${'A'.repeat(43)}`, event: 'open' },
      { token: 'x'.repeat(1500), event: 'open' },
      { token, event: 'views' },
      { token, event: 'views', views: 0 },
      { token, event: 'views', views: 10_001 },
      { token, event: 'views', views: 1.5 },
      { token, event: 'views', views: '3' },
      { token, event: 'open', views: 3 },
      { token, event: 'open', address: 'not an address' },
      { token, event: 'open', address: '<script>' },
      { token, event: 'open', userAgent: 'x'.repeat(513) },
      { token, event: 'exit', actor: 'admin' },
    ];
    for (const body of bad) {
      const res = await use(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const garbage = await s.req('POST', DEPLOY_PATHS.overrideUses('staging'), { rawBody: '{"token":' });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toBe('Malformed JSON body');
    const empty = await s.req('POST', DEPLOY_PATHS.overrideUses('staging'), { rawBody: '' });
    expect(empty.status).toBe(400);
    // A body past the reports' limit (2 KiB) is refused before it is read: 413, as everywhere in the API.
    const huge = await use({ token, event: 'open', userAgent: 'x'.repeat(4000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBe('Request body too large');
    expect(await counts(s, link.id)).toEqual({ opens: 0, page_views: 0, last_used_at: null });
    expect(await useRows(s)).toEqual([]);
  });
});
