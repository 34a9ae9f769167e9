import { api, type CallOptions } from '@app/api-client';
import { useSession } from '@app/session';
import type * as v from 'valibot';

/**
 * SPEC §8: a 401 in Research shows 'Session expired. Please log in again.' The api-client clears the token
 * on any 401 to a request that carried one and the session records why (`sessionExpired`), so every page
 * reads that one flag, whichever component (or remote) made the call.
 */
export function useSessionExpired(): boolean {
  return useSession().sessionExpired;
}

type Schema<T> = v.GenericSchema<unknown, T>;
const own = (options?: CallOptions): CallOptions => ({ ...options, redirectOn401: false });

/**
 * The api-client for research screens: they show their own 'Session expired' notice, so a 401 does not
 * redirect to /login (the token is still cleared and the session marks itself expired).
 */
export const researchApi = {
  get: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    api.get(path, schema, own(options)),
  getWithHeaders: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    api.getWithHeaders(path, schema, own(options)),
  post: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    api.post(path, body, schema, own(options)),
  put: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    api.put(path, body, schema, own(options)),
  delete: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    api.delete(path, schema, own(options)),
};
