import type { RemotePackage } from './remotes';

// Issue 44 replaced HMAC-signed preview tokens with opaque, stored ones (preview-link.ts). services/edge is
// moved to the new check separately; until then its test fixture still names the signing function, so it
// stays here as a name only. Delete this file once services/edge no longer imports it.

/** @deprecated Preview tokens are no longer signed: the API makes them (POST …/preview). Always throws. */
export function signPreviewToken(
  _claims: { remote: RemotePackage; version: string; exp: number },
  _secret: string,
): string {
  throw new Error(
    'signPreviewToken: preview links are no longer HMAC-signed (issue 44); make one through the deploy API and check it with checkPreview(token, { previews })',
  );
}
