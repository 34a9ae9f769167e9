import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overrideUseReporter } from '../src/override-use';
import { cookieFrom, edgeFixture, paintedVersion, planOf } from './fixture';

// Issue 47: a dev override link gives one browser a remote from a dev server: the cookie, the plan's
// override track (no version, no first screen from the edge), its origin in that browser's CSP only, and no
// health ticket for that page view.
const f = edgeFixture('edge-override');
const STABLE = '1.0.0-aaaaaaaaaa';
const DEV = 'http://127.0.0.1:3192/mf-manifest.json';
const about = { '/about': { html: '<h1>About stable</h1>', css: '' } };
let URL = '';
// Its reports of the links' use go to the fixture's API (override-use.test.ts looks at them).
const overrideUses = overrideUseReporter({ environment: 'production' });

beforeAll(async () => {
  f.release('mf-public-pages', STABLE, { pages: about });
  await f.deploy({ 'mf-public-pages': { stable: STABLE } });
  URL = await f.start(3993, { apiUrl: await f.api.url(), overrideUses });
});
afterAll(async () => {
  await overrideUses.stop();
  f.close();
});

async function visit(path: string, cookie?: string) {
  const response = await fetch(`${URL}${path}`, {
    headers: cookie ? { Cookie: cookie } : {},
    redirect: 'manual',
  });
  const page = await response.text();
  const csp = response.headers.get('content-security-policy') ?? '';
  const directive = (name: string) =>
    csp
      .split('; ')
      .find((d) => d.startsWith(`${name} `))
      ?.split(' ') ?? [];
  return { response, page, plan: planOf(page), painted: paintedVersion(page), directive };
}

const link = (token: string, path = '/about') => `${path}?override=${encodeURIComponent(token)}`;

describe('a dev override link', () => {
  it('becomes a cookie of this browser; its pages load the remote from the dev server, painted by nobody', async () => {
    const token = await f.overrideToken('mf-public-pages', DEV);
    const opened = await visit(link(token));
    expect(opened.response.status).toBe(303);
    expect(opened.response.headers.get('location')).toBe('/about');
    const setCookie = opened.response.headers.getSetCookie().find((c) => c.startsWith('dev-override='));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const cookie = cookieFrom(opened.response, 'dev-override') ?? '';

    const page = await visit('/about', cookie);
    expect(page.plan.override).toEqual({
      status: 'active',
      grant: {
        remote: 'mf-public-pages',
        entry: DEV,
        origin: 'http://127.0.0.1:3192',
        expiresAt: expect.any(String),
      },
    });
    expect(page.plan.plan.mf_public_pages).toMatchObject({
      track: 'override',
      entry: DEV,
      version: null,
      integrity: null,
      fallback: { version: STABLE, track: 'stable' },
    });
    // The edge never renders a dev server's code: the first screen is the client's.
    expect(page.painted).toBeNull();
    expect(page.page).not.toContain('<h1>About stable</h1>');
    // No health reports from this page view.
    expect(page.plan.health).toBeNull();
    // Its CSP admits the dev server (scripts, fetches, the live-reload socket) ...
    expect(page.directive('script-src')).toContain('http://127.0.0.1:3192');
    expect(page.directive('connect-src')).toEqual(
      expect.arrayContaining(['http://127.0.0.1:3192', 'ws://127.0.0.1:3192']),
    );

    // ... and another browser's does not, nor does its plan name the dev server.
    const other = await visit('/about');
    expect(other.plan.plan.mf_public_pages).toMatchObject({ track: 'stable', version: STABLE });
    expect(other.plan.override ?? { status: 'none' }).toEqual({ status: 'none' });
    expect(other.plan.health).not.toBeNull();
    expect(other.painted).toBe(STABLE);
    expect(other.response.headers.get('content-security-policy')).not.toContain('3192');
  });

  it.each([
    [
      'tampered',
      async () => `${(await f.overrideToken('mf-public-pages', DEV)).slice(0, -4)}AAAA`,
      'This override link is not valid.',
    ],
    [
      'expired',
      () => f.overrideToken('mf-public-pages', DEV, Date.now() - 1000),
      'This override link has expired.',
    ],
    [
      'revoked',
      async () => {
        const token = await f.overrideToken('mf-public-pages', DEV);
        await f.revokeOverride(token);
        return token;
      },
      'This override link has been revoked.',
    ],
    [
      'a preview token',
      async () => f.previewToken('mf-public-pages', STABLE),
      'This override link is not valid.',
    ],
  ])(
    'refuses a %s link: the live version, no cookie, no dev origin in the policy',
    async (_, token, message) => {
      const { response, plan, directive } = await visit(link(await token()));
      expect(response.status).toBe(200);
      expect(cookieFrom(response, 'dev-override')).toBeNull();
      expect(plan.override).toEqual({ status: 'refused', message });
      expect(plan.plan.mf_public_pages.track).toBe('stable');
      expect(directive('script-src').join(' ')).not.toContain('3192');
    },
  );

  it('ends at the next page once revoked, and Exit clears the cookie', async () => {
    const token = await f.overrideToken('mf-public-pages', DEV);
    const cookie = cookieFrom((await visit(link(token))).response, 'dev-override') ?? '';
    expect((await visit('/about', cookie)).plan.plan.mf_public_pages.track).toBe('override');
    await f.revokeOverride(token);
    const after = await visit('/about', cookie);
    expect(after.plan.plan.mf_public_pages.track).toBe('stable');
    expect(after.response.headers.getSetCookie().find((c) => c.startsWith('dev-override='))).toContain(
      'Max-Age=0',
    );
    const exit = await fetch(`${URL}/_edge/exit-override`, { method: 'POST' });
    expect(exit.status).toBe(204);
    expect(exit.headers.getSetCookie()[0]).toMatch(/^dev-override=; Max-Age=0/);
  });
});
