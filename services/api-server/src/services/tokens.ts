import { createHash, randomBytes } from 'node:crypto';

/**
 * The one-time tokens of accounts (sessions, reset links, email-change links): 32 random bytes handed out
 * once, and only their SHA-256 stored, so a copy of the database opens nothing.
 */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
