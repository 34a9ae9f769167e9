import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRemotePackage, type RemotePackage } from './remotes';
import { isVersionId } from './version-id';

/**
 * Preview links pin one remote to one released version in one browser, for QA. The token is
 * `base64url(claims).base64url(HMAC-SHA256(claims))` with a server-side secret: the rollout command signs it,
 * the API verifies it (the browser cannot, it has no secret). Claims name a remote and a version, never a
 * URL, so a token can only select something that was released.
 */
export interface PreviewClaims {
  remote: RemotePackage;
  version: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

export type PreviewVerdict =
  | { ok: true; claims: PreviewClaims }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' };

const MAX_TOKEN_LENGTH = 1000;

function mac(payload: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export function signPreviewToken(claims: PreviewClaims, secret: string): string {
  if (secret.length < 16) throw new Error('the preview secret must be at least 16 characters');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(payload, secret).toString('base64url')}`;
}

export function verifyPreviewToken(token: unknown, secret: string, now = Date.now()): PreviewVerdict {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'malformed' };
  const expected = mac(payload, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad-signature' };
  }
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const c = claims as Partial<PreviewClaims> | null;
  if (!c || !isRemotePackage(c.remote) || !isVersionId(c.version) || typeof c.exp !== 'number') {
    return { ok: false, reason: 'malformed' };
  }
  if (c.exp <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { remote: c.remote, version: c.version, exp: c.exp } };
}
