import type { RemotePackage } from './remotes';

/**
 * Dev overrides (issue 47, docs/decisions/0042-dev-overrides.md): one remote loaded from a team's running
 * dev server in the browser that opened the link, inside the real product. The same machinery as preview
 * links (0037): an opaque random token, stored as its SHA-256 per environment, revocable, published in the
 * deployment feed and checked there. Its own prefix, so a preview check never takes an override token for a
 * preview (and the other way round), and its own cookie, so a browser may preview one remote and develop
 * another.
 * Its own entry (`@app/rollout/dev-override`): the API, the CLI and the edge use it, visitors' bundles never.
 */
export const OVERRIDE_TOKEN_PATTERN = /^mfo_[A-Za-z0-9_-]{43}$/;

/** The query parameter of an override link (`<site>/?override=<token>`), which the edge turns into a cookie. */
export const OVERRIDE_PARAM = 'override';

/** Short by default (a working session), at most as long as a preview link. */
export const OVERRIDE_DEFAULT_HOURS = 2;
export const OVERRIDE_MAX_HOURS = 7 * 24;

/** One override link of an environment as the deployment feed publishes it (never the token itself). */
export interface FeedOverride {
  id: string;
  /** SHA-256 of the token, lowercase hex. */
  tokenHash: string;
  remote: RemotePackage;
  /** The dev server's mf-manifest.json (or remote entry), checked by overrideTarget when it was made. */
  url: string;
  /** ISO timestamp. */
  expiresAt: string;
  /** ISO timestamp; null while the link is not revoked. */
  revokedAt: string | null;
}

/** What a visitor is told about an override link (the edge and the shell's banner). */
export const OVERRIDE_MESSAGES = {
  expired: 'This override link has expired.',
  invalid: 'This override link is not valid.',
  revoked: 'This override link has been revoked.',
  disabled: 'Override links are not available yet on this server.',
  /** The shell could not reach the dev server: the live version is shown instead. */
  unreachable: 'The dev server is not reachable, so the live version is shown.',
} as const;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Loopback or private IPv4 (127/8, 10/8, 172.16/12, 192.168/16); the URL parser has normalised it. */
function isPrivateIpv4(host: string): boolean {
  const m = IPV4.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/**
 * Loopback (::1) or unique local (fc00::/7) IPv6, as the URL parser writes it (bracketed, compressed,
 * lowercase). IPv4-mapped addresses (::ffff:a.b.c.d, written ::ffff:7f00:1) are refused whatever they map
 * to: nobody needs them for a dev server, and refusing them leaves one way to write each allowed address.
 */
function isPrivateIpv6(host: string): boolean {
  if (!host.startsWith('[') || !host.endsWith(']')) return false;
  const address = host.slice(1, -1);
  if (address === '::1') return true;
  return /^f[cd][0-9a-f]{0,2}:/.test(address);
}

/** Whether an origin is one a dev server is expected on by default: loopback or a private network. */
export function isPrivateOrigin(origin: URL): boolean {
  const host = origin.hostname;
  return host === 'localhost' || isPrivateIpv4(host) || isPrivateIpv6(host);
}

export type OverrideTarget = { ok: true; url: string; origin: string } | { ok: false; error: string };

/**
 * The dev server URL an override may point at, or why not. http(s) only, no user name or password (the
 * `http://127.0.0.1@evil.com` trick names evil.com), no query or fragment, a path to a `.json` manifest or a
 * `.js` entry (a bare origin means its `/mf-manifest.json`); the host must be loopback or private, or its
 * origin listed in `allowedOrigins` (DEV_OVERRIDE_ORIGINS). Host names are compared as the WHATWG parser
 * writes them, so `127.1` is 127.0.0.1 and `127.0.0.1.evil.com` is a name, not an address.
 */
export function overrideTarget(raw: string, allowedOrigins: readonly string[] = []): OverrideTarget {
  const refuse = (why: string): OverrideTarget => ({
    ok: false,
    error: `Override URL refused: ${why}. Only loopback and private-network dev servers are accepted (localhost, 127.0.0.0/8, ::1, 10/8, 172.16/12, 192.168/16, fc00::/7), or an origin listed in DEV_OVERRIDE_ORIGINS.`,
  });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse(`"${raw.slice(0, 200)}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return refuse(`${url.protocol} is not http or https`);
  if (url.username || url.password) return refuse('it carries a user name or password');
  if (url.search || url.hash) return refuse('it has a query or fragment');
  if (url.pathname === '/') url.pathname = '/mf-manifest.json';
  if (!/\.(json|js)$/.test(url.pathname))
    return refuse('it must name an mf-manifest.json or a remote entry (.js)');
  if (!isPrivateOrigin(url) && !allowedOrigins.includes(url.origin)) {
    return refuse(`${url.host} is neither loopback nor a private network address`);
  }
  return { ok: true, url: url.href, origin: url.origin };
}

/** DEV_OVERRIDE_ORIGINS, comma-separated: each must be an http(s) origin exactly (config reads it). */
export function overrideOriginsFrom(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new Error(`DEV_OVERRIDE_ORIGINS: "${origin}" is not an http(s) origin`);
    }
  }
  return origins;
}
