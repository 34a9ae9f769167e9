import { useServerState } from '@app/server-state';
import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../api/research-api';

interface Extra<T> {
  /** The first page these were appended to: a new first page (filters changed) makes them stale. */
  base: Page<T> | null;
  items: T[];
  nextCursor: string | null;
  /** How many cards the last Load more added, and the first of them (for the announcement and focus). */
  added: number | null;
  firstNewId: number | null;
}

const EMPTY: Extra<never> = { base: null, items: [], nextCursor: null, added: null, firstNewId: null };

export interface PagedList<T> {
  /** Every card loaded so far, in the server's order (search results are ranked), each id once. */
  items: T[] | null;
  firstStatus: 'idle' | 'loading' | 'done' | 'error';
  firstError: unknown;
  reloadFirst: () => void;
  hasMore: boolean;
  moreStatus: 'idle' | 'loading' | 'error';
  moreError: unknown;
  loadMore: () => void;
  /** The last Load more (a new object each time): how many cards it added and the first of them. */
  lastLoad: { added: number; firstNewId: number | null } | null;
}

/**
 * A cursor-paged list: the first page loads whenever `deps` change (which also drops the pages appended to
 * the previous first page), and loadMore appends the next page. A failed Load more keeps what was loaded.
 * Cards already shown are skipped, so a post that moved between pages while new ones arrived shows once.
 */
export function usePagedList<T extends { id: number }>(
  load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>,
  deps: DependencyList,
  enabled = true,
  /** The first page, if the page was primed with it (useServerState's `initial`). */
  initialPage?: () => Page<T> | undefined,
): PagedList<T> {
  const first = useServerState((signal) => load(null, signal), deps, enabled, initialPage);
  const [extra, setExtra] = useState<Extra<T>>(EMPTY);
  const [more, setMore] = useState<{ status: 'idle' | 'loading' | 'error'; error: unknown; base: unknown }>({
    status: 'idle',
    error: null,
    base: null,
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  /** The Load more in flight, with the first page it continues. */
  const controller = useRef<{ ctrl: AbortController; base: unknown } | null>(null);

  const base = first.data;
  // A Load more still running for an old first page must not land on the new one.
  useEffect(() => {
    if (controller.current && controller.current.base !== base) {
      controller.current.ctrl.abort();
      controller.current = null;
    }
  }, [base]);
  // Nor on a list that is gone.
  useEffect(() => () => controller.current?.ctrl.abort(), []);

  const current = extra.base === base ? extra : EMPTY;
  const moreState = more.base === base ? more : { status: 'idle' as const, error: null };
  const nextCursor = base ? (current.base ? current.nextCursor : base.nextCursor) : null;

  const loadMore = useCallback(() => {
    if (!base || !nextCursor || controller.current) return;
    const ctrl = new AbortController();
    controller.current = { ctrl, base };
    setMore({ status: 'loading', error: null, base });
    loadRef.current(nextCursor, ctrl.signal).then(
      (page) => {
        if (ctrl.signal.aborted) return;
        controller.current = null;
        setExtra((prev) => {
          const kept = prev.base === base ? prev.items : [];
          const seen = new Set([...base.items, ...kept].map((item) => item.id));
          const fresh = page.items.filter((item) => !seen.has(item.id) && seen.add(item.id));
          return {
            base,
            items: [...kept, ...fresh],
            nextCursor: page.nextCursor,
            added: fresh.length,
            firstNewId: fresh[0]?.id ?? null,
          };
        });
        setMore({ status: 'idle', error: null, base });
      },
      (error: unknown) => {
        if (ctrl.signal.aborted) return;
        controller.current = null;
        setMore({ status: 'error', error, base });
      },
    );
  }, [base, nextCursor]);

  return {
    items: base ? [...base.items, ...current.items] : null,
    firstStatus: first.status,
    firstError: first.error,
    reloadFirst: first.reload,
    hasMore: nextCursor !== null,
    moreStatus: moreState.status,
    moreError: moreState.error,
    loadMore,
    lastLoad: current.added === null ? null : (current as PagedList<T>['lastLoad']),
  };
}
