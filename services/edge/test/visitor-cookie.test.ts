import { describe, expect, it } from 'vitest';
import {
  newAnonymousKey,
  readVisitorKey,
  userIdOf,
  userKey,
  VISITOR_COOKIE,
  visitorCookie,
} from '../src/visitor-cookie';

const SECRET = 'the-edge-secret';
/** The Cookie header a browser sends back for a Set-Cookie. */
const sentBack = (setCookie: string) => setCookie.split(';')[0] ?? '';

describe('the visitor cookie', () => {
  it('carries the key it was set with, signed, HttpOnly, SameSite=Lax, for about 400 days', () => {
    const key = newAnonymousKey();
    const header = visitorCookie(key, SECRET, { secure: false });
    expect(header).toMatch(new RegExp(`^${VISITOR_COOKIE}=`));
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).toContain('Path=/');
    expect(header).toContain(`Max-Age=${400 * 24 * 3600}`);
    expect(header).not.toContain('Secure');
    expect(visitorCookie(key, SECRET, { secure: true })).toContain('Secure');
    expect(readVisitorKey(sentBack(header), SECRET)).toBe(key);
  });

  it('gives every new visitor a different anonymous key', () => {
    const keys = new Set(Array.from({ length: 200 }, newAnonymousKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^anon:[A-Za-z0-9_-]{22}$/);
  });

  it("names a member's key after their id", () => {
    expect(userKey(42)).toBe('user:42');
    expect(userIdOf('user:42')).toBe('42');
    expect(userIdOf(newAnonymousKey())).toBeNull();
    expect(() => userKey('7; other=1')).toThrow();
  });

  it('is read among other cookies', () => {
    const cookie = sentBack(visitorCookie('user:7', SECRET, { secure: false }));
    expect(readVisitorKey(`theme=dark; ${cookie}; preview=abc.def`, SECRET)).toBe('user:7');
  });

  it.each([
    ['no header', undefined],
    ['no visitor cookie', 'theme=dark'],
    ['an empty value', 'visitor='],
    ['no signature', 'visitor=user%3A7'],
    ['a garbled value', 'visitor=%%%;;;=='],
    ['an unknown kind of key', `visitor=admin%3A1.${'A'.repeat(43)}`],
    ['a forged signature', `visitor=user%3A7.${'A'.repeat(43)}`],
    ['a header too large to be ours', `visitor=${'x'.repeat(9000)}`],
  ])('%s is no key (the edge draws a fresh one)', (_, header) => {
    expect(readVisitorKey(header, SECRET)).toBeNull();
  });

  it('a key signed with another secret, or edited after signing, is no key', () => {
    const other = sentBack(visitorCookie('user:7', 'another-secret', { secure: false }));
    expect(readVisitorKey(other, SECRET)).toBeNull();
    const mine = sentBack(visitorCookie('user:7', SECRET, { secure: false }));
    expect(readVisitorKey(mine.replace('user%3A7', 'user%3A8'), SECRET)).toBeNull();
  });
});
