import type { SessionExpiryPolicy } from '@app/session';
import { findRoute } from './route-table';

/** The route table's answer to "where does a visitor go when the server ends the session" (SPEC §8). */
export const SESSION_EXPIRY_POLICY: SessionExpiryPolicy = {
  staysInPlace: (pathname) => findRoute(pathname)?.sessionExpiry === 'in-place',
  requiresLogin: (pathname) => findRoute(pathname)?.requiresToken === true,
};
