import type { RemotePackage } from './remotes';

/**
 * Preview links (issue 44): one remote pinned to one released version in the browser that opens the link,
 * for QA before a canary. A link's token is opaque, `mfp_` + 43 base64url characters (32 random bytes, as
 * deploy tokens are): it means nothing by itself. The API stores only its SHA-256, per environment, with an
 * expiry and a revocation; whoever checks a link (the edge, the API) looks its hash up in the environment's
 * list, which the public deployment feed carries. So a link works in the environment it was made for only,
 * can be revoked at once, and nothing that checks links holds a key that could make one.
 */
export const PREVIEW_TOKEN_PATTERN = /^mfp_[A-Za-z0-9_-]{43}$/;

/** One preview link of an environment as the deployment feed publishes it (never the token itself). */
export interface FeedPreview {
  id: string;
  /** SHA-256 of the token, lowercase hex. */
  tokenHash: string;
  remote: RemotePackage;
  version: string;
  /** ISO timestamp. */
  expiresAt: string;
  /** ISO timestamp; null while the link is not revoked. */
  revokedAt: string | null;
  /** The version's entry digest recorded at release (sha384-…): the shell loads the preview only if it matches. */
  integrity: string;
}
