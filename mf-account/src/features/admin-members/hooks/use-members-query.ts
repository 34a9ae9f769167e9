import { MEMBER_FILTERS } from '@app/contracts/admin-members';
import { useSearchParams } from '@app/router';
import { useCallback } from 'react';

export type MemberFilter = (typeof MEMBER_FILTERS)[number];

export interface MembersQueryState {
  q: string;
  status: MemberFilter;
  page: number;
}

const isFilter = (value: string | null): value is MemberFilter =>
  (MEMBER_FILTERS as readonly string[]).includes(value ?? '');

/** Reads ?q, ?status and ?page leniently: a hand-edited address shows the first page of all members. */
export function readMembersQuery(params: URLSearchParams): MembersQueryState {
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').trim(),
    status: isFilter(status) ? status : 'all',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/**
 * The list's question lives in the address (?q, ?status, ?page), so a reload, a shared link and Back show the
 * same page. A new search or filter starts at page 1. Typing replaces the entry (Back does not replay each
 * keystroke); a tab or a page is a new entry.
 */
export function useMembersQuery() {
  const [params, setParams] = useSearchParams();
  const query = readMembersQuery(params);

  const update = useCallback(
    (next: Partial<MembersQueryState>, replace = false) => {
      setParams(
        (current) => {
          const merged = { ...readMembersQuery(current), ...next };
          const out = new URLSearchParams();
          if (merged.q) out.set('q', merged.q);
          if (merged.status !== 'all') out.set('status', merged.status);
          if (merged.page > 1) out.set('page', String(merged.page));
          return out;
        },
        { replace },
      );
    },
    [setParams],
  );

  const setSearch = useCallback((q: string) => update({ q: q.trim(), page: 1 }, true), [update]);
  const setStatus = useCallback((status: MemberFilter) => update({ status, page: 1 }), [update]);
  const setPage = useCallback((page: number) => update({ page }), [update]);
  return { ...query, setSearch, setStatus, setPage };
}
