import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LogLine, overrideUseReporter } from '../src/override-use';
import { cookieFrom, edgeFixture } from './fixture';

// Issue 47: a dev override link's use is in the deploy audit. The edge reports to the API (here the
// fixture's stand-in) that a browser opened the link and left it with Exit, at once, and the pages it served
// under it, added up; it never waits for the API, and a failing API is logged once and changes no answer.
const f = edgeFixture('edge-override-use');
const STABLE = '1.0.0-aaaaaaaaaa';
const DEV = 'http://127.0.0.1:3192/mf-manifest.json';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const logs: LogLine[] = [];
const reporter = overrideUseReporter({ environment: 'production', flushMs: 200, log: (l) => logs.push(l) });
let URL = '';

beforeAll(async () => {
  f.release('mf-public-pages', STABLE, { pages: { '/about': { html: '<h1>About stable</h1>', css: '' } } });
  await f.deploy({ 'mf-public-pages': { stable: STABLE } });
  URL = await f.start(3994, { apiUrl: await f.api.url(), overrideUses: reporter });
});
afterAll(async () => {
  await reporter.stop();
  f.close();
});

const get = (path: string, cookie?: string) =>
  fetch(`${URL}${path}`, {
    headers: { 'User-Agent': FIREFOX, ...(cookie ? { Cookie: cookie } : {}) },
    redirect: 'manual',
  });
const exit = (cookie?: string) =>
  fetch(`${URL}/_edge/exit-override`, {
    method: 'POST',
    headers: { 'User-Agent': FIREFOX, ...(cookie ? { Cookie: cookie } : {}) },
  });
const usesOf = (token: string) => f.api.uses.filter((u) => u.token === token);
const viewsOf = (token: string) => usesOf(token).reduce((sum, u) => sum + Number(u.views ?? 0), 0);
const LOOPBACK = /^(127\.0\.0\.1|::1)$/;

describe("a dev override link's use", () => {
  it('is reported: the open and Exit at once, with the visitor; page views added up', async () => {
    const token = await f.overrideToken('mf-public-pages', DEV);
    const opened = await get(`/about?override=${token}`);
    expect(opened.status).toBe(303);
    const cookie = cookieFrom(opened, 'dev-override') ?? '';
    await vi.waitFor(() =>
      expect(usesOf(token)).toEqual([
        { token, event: 'open', address: expect.stringMatching(LOOPBACK), userAgent: FIREFOX },
      ]),
    );
    for (let i = 0; i < 3; i++) expect((await get('/about', cookie)).status).toBe(200);
    // A HEAD is no page view; another browser's pages are nobody's.
    await fetch(`${URL}/about`, { method: 'HEAD', headers: { Cookie: cookie } });
    await get('/about');
    await vi.waitFor(() => expect(viewsOf(token)).toBe(3));
    expect(usesOf(token).filter((u) => u.event === 'views').length).toBeLessThanOrEqual(3);

    await get('/about', cookie);
    await get('/about', cookie);
    expect((await exit(cookie)).status).toBe(204);
    await vi.waitFor(() =>
      expect(usesOf(token).at(-1)).toMatchObject({
        token,
        event: 'exit',
        address: expect.stringMatching(LOOPBACK),
        userAgent: FIREFOX,
      }),
    );
    // The two views since the last report went with the Exit, or just before it.
    await reporter.flush();
    expect(viewsOf(token)).toBe(5);
    expect(new Set(f.api.uses.map((u) => u.token))).toEqual(new Set([token]));
    expect(logs).toEqual([]);
  });

  it('reports nothing for a refused link, a revoked one, or an Exit without one', async () => {
    const before = f.api.uses.length;
    const token = await f.overrideToken('mf-public-pages', DEV);
    const tampered = `${token.slice(0, -4)}AAAA`;
    expect((await get(`/about?override=${tampered}`)).status).toBe(200);
    const cookie = cookieFrom(await get(`/about?override=${token}`), 'dev-override') ?? '';
    await vi.waitFor(() => expect(f.api.uses.length).toBe(before + 1));
    await f.revokeOverride(token);
    expect((await get('/about', cookie)).status).toBe(200);
    expect((await exit(cookie)).status).toBe(204);
    expect((await exit()).status).toBe(204);
    await reporter.flush();
    expect(f.api.uses.slice(before)).toEqual([expect.objectContaining({ token, event: 'open' })]);
  });

  it('never waits for a failing API, which is logged once, and once more when it records again', async () => {
    f.api.answerUses(503);
    const token = await f.overrideToken('mf-public-pages', DEV);
    const opened = await get(`/about?override=${token}`);
    expect(opened.status).toBe(303);
    const cookie = cookieFrom(opened, 'dev-override') ?? '';
    for (let i = 0; i < 3; i++) expect((await get('/about', cookie)).status).toBe(200);
    expect((await exit(cookie)).status).toBe(204);
    await reporter.flush();
    expect(usesOf(token).length).toBeGreaterThanOrEqual(2);
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'warn',
        environment: 'production',
        event: 'open',
        error: '503: The API is unwell.',
      }),
    ]);
    f.api.answerUses(200);
    const again = await f.overrideToken('mf-public-pages', DEV);
    await get(`/about?override=${again}`);
    await reporter.flush();
    expect(logs.at(-1)).toMatchObject({ level: 'info', msg: 'dev override uses recorded again' });
    expect(logs).toHaveLength(2);
    // A link revoked after the edge's last check (page views reported after Ctrl+C of dev:against): a 404,
    // dropped without a word.
    f.api.answerUses(404);
    const ended = await f.overrideToken('mf-public-pages', DEV);
    await get(`/about?override=${ended}`);
    await reporter.flush();
    expect(usesOf(ended)).toHaveLength(1);
    expect(logs).toHaveLength(2);
    f.api.answerUses(200);
  });

  it('sends the page views counted when it stops (an edge draining)', async () => {
    const token = await f.overrideToken('mf-public-pages', DEV);
    const cookie = cookieFrom(await get(`/about?override=${token}`), 'dev-override') ?? '';
    const slow = overrideUseReporter({
      environment: 'production',
      flushMs: 60_000,
      log: (l) => logs.push(l),
    });
    const apiBase = await f.api.url();
    slow.viewed(token, apiBase);
    slow.viewed(token, apiBase);
    expect(cookie).not.toBe('');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(usesOf(token).filter((u) => u.event === 'views')).toEqual([]);
    await slow.stop();
    expect(usesOf(token).filter((u) => u.event === 'views')).toEqual([{ token, event: 'views', views: 2 }]);
  });
});
