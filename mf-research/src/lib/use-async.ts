import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> =
  | { status: 'idle' | 'loading'; data: T | null; error: null }
  | { status: 'done'; data: T; error: null }
  | { status: 'error'; data: T | null; error: unknown };

/**
 * Runs `load` whenever `deps` change (and `enabled` is true), aborting the previous run, so a slow answer
 * for an old query can never overwrite the answer for the current one.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  enabled = true,
): AsyncState<T> & { reload: () => void; setData: (data: T) => void } {
  const [state, setState] = useState<AsyncState<T>>({ status: 'idle', data: null, error: null });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // The caller's deps decide when to reload; `load` is read through a ref so it need not be stable.
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data, error: null }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'done', data, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ status: 'error', data: s.data, error }));
      },
    );
    return () => controller.abort();
  }, [enabled, attempt, ...deps]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((data: T) => setState({ status: 'done', data, error: null }), []);
  return { ...state, reload, setData };
}
