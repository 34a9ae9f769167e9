import type { IncomingMessage } from 'node:http';
import { trustedProxies } from '@app/client-address';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestScheme } from '../src/request-origin';
import { cookieFrom, edgeFixture } from './fixture';

// Issue 46: behind a TLS proxy on another host (which reaches the edge over plain http), cookies keep
// Secure: they are Secure whenever the public site (PUBLIC_SITE_URL) is https, whatever the hop's scheme;
// and X-Forwarded-Proto is believed from TRUSTED_PROXIES only.

const request = (remoteAddress: string, headers: Record<string, string> = {}, encrypted = false) =>
  ({ socket: { remoteAddress, encrypted }, headers }) as unknown as IncomingMessage;

describe('requestScheme', () => {
  it('believes X-Forwarded-Proto from a trusted proxy on another host, and from nobody else', () => {
    const scheme = requestScheme({ trustedProxies: trustedProxies(['10.0.0.0/8']) });
    expect(scheme.isSecure(request('10.1.2.3', { 'x-forwarded-proto': 'https' }))).toBe(true);
    expect(scheme.isSecure(request('::ffff:10.1.2.3', { 'x-forwarded-proto': 'HTTPS, http' }))).toBe(true);
    expect(scheme.isSecure(request('203.0.113.9', { 'x-forwarded-proto': 'https' }))).toBe(false);
    expect(scheme.isSecure(request('10.1.2.3', { 'x-forwarded-proto': 'http' }))).toBe(false);
    expect(scheme.isSecure(request('203.0.113.9', {}, true))).toBe(true);
    expect(
      scheme.selfOriginOf(request('10.1.2.3', { 'x-forwarded-proto': 'https', host: 'a.test' }), 1),
    ).toBe('https://a.test');
  });

  it('by default believes only this machine', () => {
    const scheme = requestScheme();
    expect(scheme.isSecure(request('127.0.0.1', { 'x-forwarded-proto': 'https' }))).toBe(true);
    expect(scheme.isSecure(request('10.1.2.3', { 'x-forwarded-proto': 'https' }))).toBe(false);
  });

  it('marks cookies Secure whenever the public site is https, whatever the hop', () => {
    const https = requestScheme({ publicSiteUrl: 'https://risk-intel.example' });
    const http = requestScheme({ publicSiteUrl: 'http://localhost:3000' });
    const plain = request('10.1.2.3');
    expect(https.secureCookies(plain)).toBe(true);
    expect(https.isSecure(plain)).toBe(false); // the origin the visitor typed is still what it was
    expect(http.secureCookies(plain)).toBe(false);
    expect(requestScheme().secureCookies(plain)).toBe(false);
    expect(http.secureCookies(request('127.0.0.1', { 'x-forwarded-proto': 'https' }))).toBe(true);
  });
});

describe('every cookie the edge sets, with an https public site reached over plain http', () => {
  const f = edgeFixture('edge-secure');
  let URL = '';
  const fakeApi: typeof fetch = async (input) =>
    String(input).endsWith('/api/profile')
      ? Response.json({ id: 7, username: 'member' })
      : new Response('{}', { status: 404 });

  beforeAll(async () => {
    f.release('mf-public-pages', '1.0.0-aaaaaaaaaa', {
      pages: { '/about': { html: '<h1>About</h1>', css: '' } },
    });
    await f.deploy({ 'mf-public-pages': { stable: '1.0.0-aaaaaaaaaa' } });
    URL = await f.start(3990, { fetchImpl: fakeApi, publicSiteUrl: 'https://risk-intel.example' });
  });
  afterAll(() => f.close());

  it("the visitor cookie of a page, a member's after signing in, and Exit preview's", async () => {
    const page = await fetch(`${URL}/about`);
    expect(cookieFrom(page, 'visitor')).toBeTruthy();
    expect(page.headers.getSetCookie().find((c) => c.startsWith('visitor='))).toMatch(/; Secure/);
    const identity = await fetch(`${URL}/_edge/identity`, {
      method: 'POST',
      headers: { Authorization: 'Bearer alice' },
    });
    expect(identity.status).toBe(204);
    expect(identity.headers.getSetCookie()[0]).toMatch(/^visitor=user%3A7\..*; Secure/);
    const exit = await fetch(`${URL}/_edge/exit-preview`, { method: 'POST' });
    expect(exit.headers.getSetCookie()[0]).toMatch(/^preview=; Max-Age=0.*; Secure/);
  });
});
