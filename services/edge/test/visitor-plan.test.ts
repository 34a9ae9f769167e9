import { cohortOf } from '@app/rollout';
import { addressPseudonym, newPreviewToken, ticketKey, verifyTicket } from '@app/rollout/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieFrom, EDGE_SECRET, edgeFixture, paintedVersion, planOf } from './fixture';

// Issue 30: the version a visitor gets is decided before the HTML, and the HTML paints that version.
const f = edgeFixture('edge-visitor');
const STABLE = '1.0.0-aaaaaaaaaa';
const CANARY = '1.1.0-bbbbbbbbbb';
const PREVIEW = '1.2.0-cccccccccc';
const about = (label: string) => ({ '/about': { html: `<h1>About ${label}</h1>`, css: '' } });
let URL = '';

// The API's profile route, as the edge asks it who a token belongs to.
const profiles: Record<string, number> = { 'Bearer alice': 7, 'Bearer bob': 8 };
const fakeApi: typeof fetch = async (input, init) => {
  const authorization = new Headers(init?.headers).get('authorization') ?? '';
  if (!String(input).endsWith('/api/profile')) return new Response('{}', { status: 404 });
  const id = profiles[authorization];
  return id
    ? Response.json({ id, username: 'member' })
    : Response.json({ error: 'Session expired' }, { status: 401 });
};

beforeAll(async () => {
  f.release('mf-public-pages', STABLE, { pages: about('stable') });
  f.release('mf-public-pages', CANARY, { pages: about('canary') });
  f.release('mf-public-pages', PREVIEW, { pages: about('preview') });
  f.release('mf-account', '1.0.0-dddddddddd', {});
  await f.deploy({
    'mf-public-pages': { stable: STABLE, canary: { version: CANARY, percent: 50 } },
    'mf-account': { stable: '1.0.0-dddddddddd' },
  });
  URL = await f.start(3980, { fetchImpl: fakeApi });
});
afterAll(() => f.close());

async function visit(path: string, cookie?: string) {
  const response = await fetch(`${URL}${path}`, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: 'manual',
  });
  const page = await response.text();
  return { response, page, plan: planOf(page), painted: paintedVersion(page) };
}

describe('a canary at 50 %', () => {
  it('reaches about half of new visitors, and each one is painted the version the live page will run', async () => {
    let canary = 0;
    for (let i = 0; i < 60; i++) {
      const { plan, painted, page } = await visit('/about');
      const version = plan.plan.mf_public_pages.version;
      expect(painted).toBe(version); // no skew: the picture is the version the shell will load
      expect(page).toContain(version === CANARY ? '<h1>About canary</h1>' : '<h1>About stable</h1>');
      if (version === CANARY) canary += 1;
    }
    expect(canary).toBeGreaterThan(15);
    expect(canary).toBeLessThan(45);
  });

  it('is sticky: the cookie set on the first page brings the same versions on every later one', async () => {
    const first = await visit('/about');
    const cookie = cookieFrom(first.response, 'visitor');
    expect(cookie).toBeTruthy();
    for (let i = 0; i < 5; i++) {
      const again = await visit('/about', cookie ?? '');
      expect(again.plan.plan).toEqual(first.plan.plan);
      expect(cookieFrom(again.response, 'visitor')).toBeNull(); // a valid cookie is not set again
    }
  });

  it('draws cohorts from the visitor alone, so a visitor gets the canaries of every remote together', async () => {
    const { plan } = await visit('/about');
    expect(plan.plan.mf_public_pages.fallback).toEqual(
      plan.plan.mf_public_pages.track === 'canary' ? expect.objectContaining({ version: STABLE }) : null,
    );
    expect(plan.plan.mf_account.version).toBe('1.0.0-dddddddddd');
  });

  it.each([
    ['garbage', 'visitor=%%%%'],
    ['forged', `visitor=user%3A7.${'A'.repeat(43)}`],
    ['another cookie only', 'theme=dark'],
  ])('a %s cookie gets a fresh key and a page, never an error', async (_, cookie) => {
    const { response, plan, painted } = await visit('/about', cookie);
    expect(response.status).toBe(200);
    expect(cookieFrom(response, 'visitor')).toMatch(/^visitor=anon%3A/);
    expect(plan.userId).toBeNull();
    expect(painted).toBe(plan.plan.mf_public_pages.version);
  });
});

describe('a member', () => {
  const signIn = async (token: string, cookie?: string) =>
    fetch(`${URL}/_edge/identity`, {
      method: 'POST',
      headers: { Authorization: token, ...(cookie ? { Cookie: cookie } : {}) },
    });

  it('gets a key of their own when they sign in, and the same versions in a second browser', async () => {
    const browserA = cookieFrom((await visit('/about')).response, 'visitor') ?? '';
    const browserB = cookieFrom((await visit('/about')).response, 'visitor') ?? '';
    const inA = await signIn('Bearer alice', browserA);
    const inB = await signIn('Bearer alice', browserB);
    expect(inA.status).toBe(204);
    const memberA = cookieFrom(inA, 'visitor') ?? '';
    const memberB = cookieFrom(inB, 'visitor') ?? '';
    expect(memberA).toMatch(/^visitor=user%3A7\./);
    const pageA = await visit('/about', memberA);
    const pageB = await visit('/about', memberB);
    expect(pageA.plan.userId).toBe('7');
    expect(pageA.plan.plan).toEqual(pageB.plan.plan);
    const expected = cohortOf('user:7') < 50 ? CANARY : STABLE;
    expect(pageA.painted).toBe(expected);
  });

  it('keeps their key after signing out (nothing to call), and an unknown token changes nothing', async () => {
    const refused = await signIn('Bearer nobody');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'Sign in first.' });
    expect(cookieFrom(refused, 'visitor')).toBeNull();
    const bare = await fetch(`${URL}/_edge/identity`, { method: 'POST' });
    expect(bare.status).toBe(401);
    const get = await fetch(`${URL}/_edge/identity`);
    expect(get.status).toBe(405);
  });
});

describe('a preview link', () => {
  const link = (token: string, path = '/about') => `${path}?preview=${encodeURIComponent(token)}&utm=x`;

  it('is opened at the edge: a cookie for that version, and the clean URL', async () => {
    const { response } = await visit(link(await f.previewToken('mf-public-pages', PREVIEW)));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/about?utm=x');
    const cookie = cookieFrom(response, 'preview');
    expect(response.headers.getSetCookie().find((c) => c.startsWith('preview='))).toMatch(
      /Max-Age=(35\d\d|3600); Path=\/; HttpOnly; SameSite=Lax/,
    );
    const page = await visit('/about', cookie ?? '');
    expect(page.painted).toBe(PREVIEW);
    expect(page.page).toContain('<h1>About preview</h1>');
    expect(page.plan.preview).toMatchObject({
      status: 'active',
      grant: { remote: 'mf-public-pages', version: PREVIEW },
    });
    expect(page.plan.plan.mf_public_pages).toMatchObject({ track: 'preview', version: PREVIEW });
  });

  it.each([
    [
      'tampered',
      async () => `${(await f.previewToken('mf-public-pages', PREVIEW)).slice(0, -4)}AAAA`,
      'This preview link is not valid.',
    ],
    [
      'expired',
      () => f.previewToken('mf-public-pages', PREVIEW, Date.now() - 1000),
      'This preview link has expired.',
    ],
    [
      'revoked',
      async () => {
        const token = await f.previewToken('mf-public-pages', PREVIEW);
        await f.revokePreview(token);
        return token;
      },
      'This preview link has been revoked.',
    ],
    // A link made for another environment is not in this environment's list: to this edge, it was never made.
    ['unknown', async () => newPreviewToken(), 'This preview link is not valid.'],
    ['garbage', async () => 'not-a-token', 'This preview link is not valid.'],
  ])('a %s link gets the live versions and says why', async (_, token, message) => {
    const { response, plan, painted } = await visit(link(await token()));
    expect(response.status).toBe(200);
    expect(cookieFrom(response, 'preview')).toBeNull();
    expect(plan.preview).toEqual({ status: 'refused', message });
    expect(plan.plan.mf_public_pages.track).not.toBe('preview');
    expect(painted).toBe(plan.plan.mf_public_pages.version);
  });

  it('a cookie that no longer checks out is cleared, and the page says why', async () => {
    const stale = `preview=${(await f.previewToken('mf-public-pages', PREVIEW)).slice(0, -4)}AAAA`;
    const { response, plan } = await visit('/about', stale);
    expect(plan.preview).toEqual({ status: 'refused', message: 'This preview link is not valid.' });
    expect(response.headers.getSetCookie().find((c) => c.startsWith('preview='))).toContain('Max-Age=0');
  });

  it('is revoked for a browser that opened it at its next page', async () => {
    const token = await f.previewToken('mf-public-pages', PREVIEW);
    const cookie = cookieFrom((await visit(link(token))).response, 'preview') ?? '';
    expect((await visit('/about', cookie)).painted).toBe(PREVIEW);
    await f.revokePreview(token);
    const after = await visit('/about', cookie);
    expect(after.plan.preview).toEqual({ status: 'refused', message: 'This preview link has been revoked.' });
    expect(after.painted).not.toBe(PREVIEW);
    expect(after.response.headers.getSetCookie().find((c) => c.startsWith('preview='))).toContain(
      'Max-Age=0',
    );
  });

  it('Exit preview clears the cookie', async () => {
    const response = await fetch(`${URL}/_edge/exit-preview`, { method: 'POST' });
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie()[0]).toMatch(/^preview=; Max-Age=0/);
  });
});

// Issue 31: each page view carries a ticket that proves which versions it was served.
describe('the health ticket', () => {
  const key = ticketKey(EDGE_SECRET);
  const verified = (plan: { health: { ticket: string } | null }) => {
    const verdict = verifyTicket(plan.health?.ticket, key);
    if (!verdict.ok) throw new Error(`ticket refused: ${verdict.reason}`);
    return verdict.ticket;
  };

  it('names the versions this page view was served, with the stable one a canary falls back to', async () => {
    for (let i = 0; i < 10; i++) {
      const { plan } = await visit('/about');
      const ticket = verified(plan);
      const served = plan.plan.mf_public_pages;
      expect(ticket.remotes['mf-public-pages']).toEqual({
        version: served.version,
        track: served.track,
        fallback: served.track === 'canary' ? STABLE : null,
      });
      expect(ticket.remotes['mf-account']).toEqual({
        version: '1.0.0-dddddddddd',
        track: 'stable',
        fallback: null,
      });
      // A remote served from config.json's URL has no version to report on.
      expect(ticket.remotes['mf-research']).toBeUndefined();
      expect(plan.health.expiresAt).toBe(ticket.expiresAt);
      expect(ticket.expiresAt - Date.now()).toBeGreaterThan(55 * 60_000);
    }
  });

  it('is new for every page view, and names the same visitor across them without revealing the key', async () => {
    const first = await visit('/about');
    const cookie = cookieFrom(first.response, 'visitor') ?? '';
    const again = await visit('/about', cookie);
    const [a, b] = [verified(first.plan), verified(again.plan)];
    expect(a.id).not.toBe(b.id);
    expect(a.visitor).toBe(b.visitor);
    expect(verified((await visit('/about')).plan).visitor).not.toBe(a.visitor);
    expect(first.plan.health.ticket).not.toContain(cookie.split('=')[1]?.split('.')[0]);
  });

  // Issue 44: the environment its reports count in, and the client's address group (as a pseudonym).
  it("names the deployment's environment and the client's address group, from a local proxy too", async () => {
    const direct = verified((await visit('/about')).plan);
    expect(direct.environment).toBe('production');
    expect(direct.address).toBe(addressPseudonym('127.0.0.1', key));
    const proxied = await fetch(`${URL}/about`, {
      headers: { 'X-Forwarded-For': '2001:db8:1:2::99, 203.0.113.9' },
    });
    // The proxy on this machine wrote the last entry; an IPv4 address is its own group.
    expect(verified(planOf(await proxied.text())).address).toBe(addressPseudonym('203.0.113.9', key));
  });

  it('is signed with a key from the edge secret: another secret cannot have made it', async () => {
    const { plan } = await visit('/about');
    expect(verifyTicket(plan.health.ticket, ticketKey('some-other-edge-secret')).ok).toBe(false);
  });
});
