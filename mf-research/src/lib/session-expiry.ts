import { api, type CallOptions, isStatus } from '@app/api-client';
import { useSession } from '@app/session';
import { useEffect, useState } from 'react';
import type * as v from 'valibot';

/**
 * SPEC §8: a 401 in Research shows 'Session expired. Please log in again.' The api-client clears the token
 * before the failed promise settles, so the component that made the call may already be gone (a tab that
 * only logged-in users see unmounts as the session turns into a guest one). Every research call is wrapped
 * here, and pages subscribe, so the notice appears no matter which component asked.
 */
const listeners = new Set<() => void>();

export function reportExpiry<T>(call: Promise<T>): Promise<T> {
  return call.catch((error: unknown) => {
    if (isStatus(error, 401)) for (const listener of listeners) listener();
    throw error;
  });
}

/**
 * True once any research call of this page's lifetime was answered with 401, or the session itself ended
 * on a 401 (e.g. the profile request of a stale token, before this remote even loaded).
 */
export function useSessionExpired(): boolean {
  const { sessionExpired } = useSession();
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    const listener = () => setExpired(true);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return expired || sessionExpired;
}

type Schema<T> = v.GenericSchema<unknown, T>;
const own = (options?: CallOptions): CallOptions => ({ ...options, redirectOn401: false });

/**
 * The api-client for research screens: they show their own 'Session expired' notice, so a 401 does not
 * redirect to /login (the token is still cleared), and it is reported to the pages through reportExpiry.
 */
export const researchApi = {
  get: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    reportExpiry(api.get(path, schema, own(options))),
  post: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    reportExpiry(api.post(path, body, schema, own(options))),
  put: <T>(path: string, body: unknown, schema: Schema<T> | null, options?: CallOptions) =>
    reportExpiry(api.put(path, body, schema, own(options))),
  delete: <T>(path: string, schema: Schema<T> | null, options?: CallOptions) =>
    reportExpiry(api.delete(path, schema, own(options))),
};
