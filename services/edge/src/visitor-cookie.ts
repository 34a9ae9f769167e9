import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';

/**
 * The visitor's cohort key (docs/decisions/0026-edge.md), in a first-party cookie the edge sets on the first
 * page it serves: `anon:<random>` for a visitor, `user:<id>` once they sign in (so their versions are the same
 * on every device; signing out keeps it), `uncounted:<random>` for a visitor made past their address's limit
 * of new visitors (new-visitors.ts): the same cohort rules, but their page views earn no health ticket. Signed with the edge's secret, so a visitor cannot name another's
 * key, and HttpOnly: the browser never needs to read it. Anything that is not a well-formed key with a valid
 * signature (missing, garbled, forged, signed with another secret) is treated as no cookie: a fresh key.
 */
export const VISITOR_COOKIE = 'visitor';

/** About 400 days: the longest a browser keeps a cookie (Chrome caps Max-Age there). */
const MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
const KEY = /^(?:(?:anon|uncounted):[A-Za-z0-9_-]{16,64}|user:\d{1,12})$/;
const MAX_COOKIE_HEADER = 8192;

export type VisitorKey = string;

const signatureOf = (key: string, secret: string) =>
  createHmac('sha256', secret).update(`visitor\n${key}`).digest();

/** A new visitor's key: counted in the health gate, or (past their address's limit) not. */
export function newAnonymousKey({ counted = true }: { counted?: boolean } = {}): VisitorKey {
  return `${counted ? 'anon' : 'uncounted'}:${randomBytes(16).toString('base64url')}`;
}

/** Whether this visitor's page views earn health tickets. */
export const isCounted = (key: VisitorKey) => !key.startsWith('uncounted:');

export function userKey(userId: number | string): VisitorKey {
  const key = `user:${userId}`;
  if (!KEY.test(key)) throw new Error(`not a user id: ${userId}`);
  return key;
}

/** The member id a key names, or null for an anonymous key. */
export function userIdOf(key: VisitorKey): string | null {
  return key.startsWith('user:') ? key.slice('user:'.length) : null;
}

/** The cookies of a request header, never throwing (an oversized or garbled header is no cookies). */
export function cookiesOf(header: string | undefined): Record<string, string | undefined> {
  if (!header || header.length > MAX_COOKIE_HEADER) return {};
  try {
    return parseCookie(header);
  } catch {
    return {};
  }
}

/** The signed key the cookie carries, or null when there is none or it is not ours. */
export function readVisitorKey(cookieHeader: string | undefined, secret: string): VisitorKey | null {
  const value = cookiesOf(cookieHeader)[VISITOR_COOKIE];
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  const key = value.slice(0, dot);
  if (!KEY.test(key)) return null;
  const given = Buffer.from(value.slice(dot + 1), 'base64url');
  const expected = signatureOf(key, secret);
  return given.length === expected.length && timingSafeEqual(given, expected) ? key : null;
}

/** The Set-Cookie header that stores a key. `secure` where the page is served over HTTPS. */
export function visitorCookie(key: VisitorKey, secret: string, { secure }: { secure: boolean }): string {
  return stringifySetCookie({
    name: VISITOR_COOKIE,
    value: `${key}.${signatureOf(key, secret).toString('base64url')}`,
    path: '/',
    maxAge: MAX_AGE_SECONDS,
    httpOnly: true,
    secure,
    sameSite: 'lax',
  });
}
