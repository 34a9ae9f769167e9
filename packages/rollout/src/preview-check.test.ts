import { describe, expect, it } from 'vitest';
import { checkPreview, PREVIEW_MESSAGES } from './preview-check';
import { type FeedPreview, PREVIEW_TOKEN_PATTERN } from './preview-link';
import { newPreviewToken, previewTokenHash } from './preview-token';

const NOW = Date.UTC(2026, 5, 1, 12, 0);
const HOUR = 3_600_000;
const INTEGRITY = `sha384-${'A'.repeat(64)}`;

/** A link of the environment's list for `token`, active unless told otherwise. */
const link = (token: string, over: Partial<FeedPreview> = {}): FeedPreview => ({
  id: 'p1',
  tokenHash: previewTokenHash(token),
  remote: 'mf-research',
  version: '1.0.0-aaaaaaaaaa',
  expiresAt: new Date(NOW + HOUR).toISOString(),
  revokedAt: null,
  integrity: INTEGRITY,
  ...over,
});

describe('preview tokens', () => {
  it('are mfp_ and 43 base64url characters, a new one each time, hashed as SHA-256 hex', () => {
    const a = newPreviewToken();
    const b = newPreviewToken();
    expect(a).toMatch(PREVIEW_TOKEN_PATTERN);
    expect(a).not.toBe(b);
    expect(previewTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(previewTokenHash(a)).toBe(previewTokenHash(a));
    expect(previewTokenHash(a)).not.toBe(previewTokenHash(b));
  });
});

describe('checkPreview', () => {
  const token = newPreviewToken();

  it('grants an active link: its remote, version, expiry and recorded digest', () => {
    const other = newPreviewToken();
    const previews = [link(other, { id: 'p0', version: '0.9.0-bbbbbbbbbb' }), link(token)];
    expect(checkPreview(token, { previews, now: NOW })).toEqual({
      status: 'active',
      grant: {
        remote: 'mf-research',
        version: '1.0.0-aaaaaaaaaa',
        expiresAt: new Date(NOW + HOUR).toISOString(),
        integrity: INTEGRITY,
      },
    });
  });

  it('refuses a token the list does not have (another environment’s, or never made) as not valid', () => {
    const previews = [link(newPreviewToken())];
    expect(checkPreview(token, { previews, now: NOW })).toEqual({
      status: 'refused',
      message: PREVIEW_MESSAGES.invalid,
    });
    expect(checkPreview(token, { previews: [], now: NOW })).toEqual({
      status: 'refused',
      message: 'This preview link is not valid.',
    });
  });

  it('refuses a malformed token as not valid, even when its hash were listed', () => {
    for (const bad of ['', 'not-a-token', `${token}x`, token.slice(0, -1), `mfd_${token.slice(4)}`]) {
      expect(checkPreview(bad, { previews: [link(bad)], now: NOW })).toEqual({
        status: 'refused',
        message: PREVIEW_MESSAGES.invalid,
      });
    }
  });

  it('refuses a revoked link, also once it has expired', () => {
    const revokedAt = new Date(NOW - 60_000).toISOString();
    expect(checkPreview(token, { previews: [link(token, { revokedAt })], now: NOW })).toEqual({
      status: 'refused',
      message: 'This preview link has been revoked.',
    });
    const expired = link(token, { revokedAt, expiresAt: new Date(NOW - 1).toISOString() });
    expect(checkPreview(token, { previews: [expired], now: NOW })).toEqual({
      status: 'refused',
      message: PREVIEW_MESSAGES.revoked,
    });
  });

  it('refuses an expired link, from the moment of its expiry', () => {
    const previews = [link(token)];
    expect(checkPreview(token, { previews, now: NOW + HOUR - 1 }).status).toBe('active');
    expect(checkPreview(token, { previews, now: NOW + HOUR })).toEqual({
      status: 'refused',
      message: 'This preview link has expired.',
    });
  });

  it('refuses every link while there is no list yet', () => {
    expect(checkPreview(token, { previews: null, now: NOW })).toEqual({
      status: 'refused',
      message: 'Preview links are not available yet on this server.',
    });
  });
});
