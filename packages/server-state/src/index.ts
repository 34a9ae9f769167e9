import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

/**
 * Server state as a screen sees it (SPEC §4: loading, then loaded or an error). `data` survives a reload or
 * a failed reload, so a screen can keep showing what it had.
 */
export type ServerState<T> =
  | { status: 'idle' | 'loading'; data: T | null; error: null }
  | { status: 'done'; data: T; error: null }
  | { status: 'error'; data: T | null; error: unknown };

export interface ServerStateControls<T> {
  /** Runs the loader again (a Retry button). */
  reload: () => void;
  /** Replaces the data with what a write returned, without asking the server again. */
  setData: (data: T) => void;
}

/**
 * The one way the apps load server state (docs/decisions/0019-server-state.md): runs `load` on mount and
 * whenever `deps` change while `enabled`, aborting the previous run, so a slow answer to an old question can
 * never overwrite the answer to the current one, and a page the user has left is never updated.
 * A screen starts in 'loading' (not 'idle') when enabled, so its first render, and the pre-rendered HTML
 * made from it, already shows the loading state. `initial` may supply the data synchronously (the api
 * client's `peek` of an answer primed into the page): the screen then starts 'done' and does not load on
 * mount, so the server's picture and the first live render are the same page. With `refresh`, it still
 * loads once on mount, showing the initial data meanwhile (a primed answer whose own read matters: a post's
 * page counts the visit by reading the post).
 */
export function useServerState<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  enabled = true,
  initial?: () => T | undefined,
  { refresh = false }: { refresh?: boolean } = {},
): ServerState<T> & ServerStateControls<T> {
  const [state, setState] = useState<ServerState<T>>(() => {
    const data = enabled ? initial?.() : undefined;
    if (data !== undefined) return { status: 'done', data, error: null };
    return { status: enabled ? 'loading' : 'idle', data: null, error: null };
  });
  // Data the first render already had (an answer primed into the page) is not asked for again on mount,
  // unless the caller wants it refreshed.
  const skipFirstLoad = useRef(state.status === 'done' && !refresh);
  const [attempt, setAttempt] = useState(0);
  // Read through a ref: the caller's deps decide when to load, so `load` need not be stable.
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps are the dependencies by design (like useEffect's own); `attempt` asks for a reload.
  useEffect(() => {
    if (!enabled) return;
    if (skipFirstLoad.current) {
      skipFirstLoad.current = false;
      return;
    }
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
