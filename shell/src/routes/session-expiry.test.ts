import { describe, expect, it } from 'vitest';
import { SESSION_EXPIRY_POLICY } from './session-expiry';

const { staysInPlace, requiresLogin } = SESSION_EXPIRY_POLICY;

describe('where a visitor goes when the server ends the session (SPEC §8)', () => {
  it('stays on every research screen, which says so in place', () => {
    for (const path of ['/research-center', '/research', '/create-post', '/post/42', '/post/my-slug/edit'])
      expect(staysInPlace(path), path).toBe(true);
  });

  it('goes to /login from every other page, /profile without a way Back', () => {
    for (const path of ['/', '/about', '/plans', '/dashboards/market-pulse', '/profile', '/nope'])
      expect(staysInPlace(path), path).toBe(false);
    expect(requiresLogin('/profile')).toBe(true);
    expect(requiresLogin('/about')).toBe(false);
    expect(requiresLogin('/research-center')).toBe(false);
  });
});
