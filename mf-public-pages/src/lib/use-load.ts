import { useEffect, useState } from 'react';

export type LoadState<T> =
  | { status: 'loading' }
  | { status: 'loaded'; data: T }
  | { status: 'error'; error: unknown };

/**
 * Runs one loader when the page mounts: SPEC §4's "loading, then loaded or error". The request is aborted
 * when the page unmounts, so a late answer never updates a page the user has left.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>): LoadState<T> {
  const [state, setState] = useState<LoadState<T>>({ status: 'loading' });
  // The loader runs once per mount by design: callers pass module-level functions.
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'loaded', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
