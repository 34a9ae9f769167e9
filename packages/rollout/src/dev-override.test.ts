import { describe, expect, it } from 'vitest';
import { overrideOriginsFrom, overrideTarget } from './dev-override';
import { planRemotes } from './index';
import { checkOverride, newOverrideToken, overrideTokenHash } from './node';

describe('overrideTarget', () => {
  it.each([
    ['http://localhost:3102/mf-manifest.json', 'http://localhost:3102/mf-manifest.json'],
    ['http://127.0.0.1:3102', 'http://127.0.0.1:3102/mf-manifest.json'],
    ['http://127.1:3102/remoteEntry.js', 'http://127.0.0.1:3102/remoteEntry.js'],
    ['http://[::1]:3102/mf-manifest.json', 'http://[::1]:3102/mf-manifest.json'],
    ['http://10.1.2.3:8080/mf-manifest.json', 'http://10.1.2.3:8080/mf-manifest.json'],
    ['http://172.31.0.9/mf-manifest.json', 'http://172.31.0.9/mf-manifest.json'],
    ['https://192.168.1.20:3102/mf-manifest.json', 'https://192.168.1.20:3102/mf-manifest.json'],
    ['http://[fd12:3456::1]:3102/mf-manifest.json', 'http://[fd12:3456::1]:3102/mf-manifest.json'],
  ])('accepts %s', (raw, url) => {
    expect(overrideTarget(raw)).toEqual({ ok: true, url, origin: new URL(url).origin });
  });

  it.each([
    'http://8.8.8.8/mf-manifest.json',
    'http://172.32.0.1/mf-manifest.json',
    'http://127.0.0.1.evil.com/mf-manifest.json',
    'http://127.0.0.1@evil.com/mf-manifest.json',
    'http://user:pw@127.0.0.1/mf-manifest.json',
    'http://localhost.evil.com/mf-manifest.json',
    'http://[::ffff:127.0.0.1]/mf-manifest.json',
    'http://[::ffff:8.8.8.8]/mf-manifest.json',
    'http://[2001:db8::1]/mf-manifest.json',
    'javascript:alert(1)',
    'data:text/javascript,alert(1)',
    'file:///etc/passwd',
    'ftp://127.0.0.1/mf-manifest.json',
    'http://127.0.0.1:3102/mf-manifest.json?x=1',
    'http://127.0.0.1:3102/index.html',
    '//127.0.0.1/mf-manifest.json',
    'not a url',
  ])('refuses %s with a message that says what is accepted', (raw) => {
    const result = overrideTarget(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Override URL refused: .*DEV_OVERRIDE_ORIGINS/);
  });

  it('accepts a listed origin, and only that origin', () => {
    const allowed = overrideOriginsFrom('https://dev.team.example:8443');
    expect(overrideTarget('https://dev.team.example:8443/mf-manifest.json', allowed).ok).toBe(true);
    expect(overrideTarget('https://dev.team.example/mf-manifest.json', allowed).ok).toBe(false);
    expect(() => overrideOriginsFrom('https://dev.team.example/path')).toThrow(/not an http\(s\) origin/);
  });
});

describe('checkOverride', () => {
  const token = newOverrideToken();
  const link = {
    id: 'a',
    tokenHash: overrideTokenHash(token),
    remote: 'mf-research' as const,
    url: 'http://127.0.0.1:3102/mf-manifest.json',
    expiresAt: '2030-01-01T00:00:00.000Z',
    revokedAt: null,
  };
  const now = Date.parse('2029-01-01T00:00:00Z');
  it('grants a listed token, refuses tampered, revoked, expired and unknown ones', () => {
    expect(checkOverride(token, { overrides: [link], now })).toMatchObject({
      status: 'active',
      grant: { remote: 'mf-research', origin: 'http://127.0.0.1:3102' },
    });
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(checkOverride(tampered, { overrides: [link], now }).status).toBe('refused');
    expect(checkOverride(token, { overrides: [{ ...link, revokedAt: link.expiresAt }], now })).toMatchObject({
      message: 'This override link has been revoked.',
    });
    expect(checkOverride(token, { overrides: [link], now: Date.parse('2031-01-01') })).toMatchObject({
      message: 'This override link has expired.',
    });
    expect(checkOverride(token, { overrides: [], now })).toMatchObject({
      message: 'This override link is not valid.',
    });
    expect(checkOverride(token, { overrides: null, now }).status).toBe('refused');
  });
});

describe('planRemotes with an override', () => {
  it('serves the dev server with no version, and the stable build as its fallback', () => {
    const plan = planRemotes(['mf_research', 'mf_account'], {
      configUrls: { mf_research: 'http://x/r.json', mf_account: 'http://x/a.json' } as never,
      manifest: null,
      releasesUrl: null,
      cohort: 0,
      preview: null,
      override: { remote: 'mf-research', entry: 'http://127.0.0.1:3102/mf-manifest.json' },
    });
    expect(plan.mf_research).toEqual({
      remote: 'mf-research',
      entry: 'http://127.0.0.1:3102/mf-manifest.json',
      version: null,
      track: 'override',
      integrity: null,
      fallback: { entry: 'http://x/r.json', version: null, integrity: null, track: 'config' },
    });
    expect(plan.mf_account.track).toBe('config');
  });
});
