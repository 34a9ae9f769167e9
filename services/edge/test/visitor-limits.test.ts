import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DegradedLog, MAX_ENTRIES } from '../src/degraded';
import { cookieFrom, edgeFixture, planOf } from './fixture';

// Issue 44: new visitors (health tickets) are bounded per client address, and the operators' status is not
// the public's.
const f = edgeFixture('edge-visitor-limits');
const STABLE = '1.0.0-aaaaaaaaaa';
let URL = '';

beforeAll(async () => {
  // Three new counted visitors per address an hour here; 300 by default (docs/security.md says why).
  process.env.NEW_VISITORS_PER_ADDRESS = '3/1h';
  f.release('mf-public-pages', STABLE, { pages: { '/about': { html: '<h1>About</h1>', css: '' } } });
  await f.deploy({ 'mf-public-pages': { stable: STABLE } });
  URL = await f.start(3963);
});
afterAll(() => {
  delete process.env.NEW_VISITORS_PER_ADDRESS;
  f.close();
});

/** A page as nginx passes it on: the client's address in X-Forwarded-For (the edge trusts loopback). */
async function visit(address: string, cookie?: string) {
  const response = await fetch(`${URL}/about`, {
    headers: { 'X-Forwarded-For': address, ...(cookie ? { Cookie: cookie } : {}) },
  });
  return { response, plan: planOf(await response.text()), cookie: cookieFrom(response, 'visitor') };
}

describe('new visitors from one address', () => {
  it('get a health ticket up to the limit; past it their pages, a cohort that sticks, and no ticket', async () => {
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await visit('203.0.113.7'));
    for (const { plan, cookie } of first) {
      expect(plan.health?.ticket).toEqual(expect.any(String));
      expect(cookie).toMatch(/^visitor=anon%3A/);
    }
    const past = await visit('203.0.113.7');
    expect(past.response.status).toBe(200);
    expect(past.plan.plan.mf_public_pages.version).toBe(STABLE);
    expect(past.plan.health).toBeNull();
    expect(past.cookie).toMatch(/^visitor=uncounted%3A/);
    // The uncounted visitor's next pages carry no ticket either; a counted one's still do.
    expect((await visit('203.0.113.7', past.cookie as string)).plan.health).toBeNull();
    expect((await visit('203.0.113.7', first[0]?.cookie as string)).plan.health?.ticket).toEqual(
      expect.any(String),
    );
  });

  it('leave every other address its own share (an IPv6 /64 counts as one address)', async () => {
    expect((await visit('198.51.100.20')).plan.health?.ticket).toEqual(expect.any(String));
    for (let i = 0; i < 3; i++) await visit(`2001:db8:1:2::${i + 1}`);
    expect((await visit('2001:db8:1:2::99')).plan.health).toBeNull();
    expect((await visit('2001:db8:1:3::1')).plan.health?.ticket).toEqual(expect.any(String));
  });
});

describe('the status page', () => {
  it('answers on the internal network, and 404 to a request a proxy passed on', async () => {
    const direct = await fetch(`${URL}/_edge/status`);
    expect(direct.status).toBe(200);
    expect(await direct.json()).toMatchObject({ config: 'valid', renderSandbox: { workers: [] } });
    const proxied = await fetch(`${URL}/_edge/status`, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    expect(proxied.status).toBe(404);
    expect(await proxied.json()).toEqual({ error: 'Not found' });
  });

  it('lists at most MAX_ENTRIES degraded first screens, the most recent first, each cut to a readable size', () => {
    const log = new DegradedLog(() => undefined);
    for (let i = 0; i < MAX_ENTRIES + 50; i++) log.note('render-failed', 'mf-research@1', `/post/${i}`, 'x');
    log.note('render-failed', 'mf-research@1', `/post/${'9'.repeat(5000)}`, 'e'.repeat(5000));
    const list = log.list();
    expect(list).toHaveLength(MAX_ENTRIES);
    expect(list[0]?.path?.length).toBeLessThanOrEqual(200);
    expect(list[0]?.error.length).toBeLessThanOrEqual(500);
    expect(list.some((entry) => entry.path === '/post/0')).toBe(false);
  });
});
