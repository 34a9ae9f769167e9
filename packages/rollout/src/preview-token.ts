import { createHash, randomBytes } from 'node:crypto';

/**
 * A new preview link's token: `mfp_` + 32 random bytes in base64url (PREVIEW_TOKEN_PATTERN). It is shown
 * once, to whoever made the link; only its hash is kept.
 */
export const newPreviewToken = (): string => `mfp_${randomBytes(32).toString('base64url')}`;

/**
 * What is stored and published of a token: its SHA-256 in lowercase hex. A fast hash is right here (as for
 * deploy tokens): 256 random bits cannot be guessed, so the public list of hashes only helps with a preimage.
 */
export const previewTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
