import { isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import type { AdminMember, MembersPage } from '@app/contracts/admin-members';
import { useServerState } from '@app/server-state';
import { Badge, LoadErrorAlert, Skeleton, Tabs, VisuallyHidden } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useEffect, useState } from 'react';
import { fetchMembers, PAGE_SIZE } from '../api/members';
import { type BulkAction, useMemberActions } from '../hooks/use-member-actions';
import { type MemberFilter, useMembersQuery } from '../hooks/use-members-query';
import { MEMBERS_TEXTS as T } from '../texts';
import { ActionNotice } from './action-notice';
import { AdminOnly } from './admin-only';
import { BulkBar } from './bulk-bar';
import { MembersTable } from './members-table';
import { Pager, pageCount } from './pager';
import { RejectDialog } from './reject-dialog';
import { SearchBox } from './search-box';

const FILTERS: readonly MemberFilter[] = ['pending', 'active', 'all'];

const toolbar = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${t.space(4)};
`;

/** The list, its filters and its actions, for an administrator; the question is the address (?q&status&page). */
export function MembersScreen() {
  const { q, status, page, setSearch, setStatus, setPage } = useMembersQuery();
  const list = useServerState((signal) => fetchMembers({ q, status, page }, signal), [q, status, page]);
  const data: MembersPage | null = list.data;
  const members = data?.items ?? [];
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [expanded, setExpanded] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<AdminMember[] | null>(null);
  const actions = useMemberActions(members, () => {
    setSelected(new Set());
    list.reload();
  });
  const { clearNotice } = actions;

  // A selection belongs to the page it was made on; a new question starts without one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the question changes, by design.
  useEffect(() => {
    setSelected(new Set());
    setExpanded(null);
    clearNotice();
  }, [q, status, page, clearNotice]);

  // Past the last page (its last rows were just rejected, or an old link): show the last page there is.
  const pages = data ? pageCount(data.total, data.limit) : 1;
  useEffect(() => {
    if (list.status === 'done' && members.length === 0 && page > pages) setPage(pages);
  }, [list.status, members.length, page, pages, setPage]);

  if (list.status === 'error' && isStatus(list.error, 403)) return <AdminOnly />;

  const act = (action: BulkAction, chosen: AdminMember[]) => {
    if (actions.busy || chosen.length === 0) return;
    if (action === 'reject') setConfirming(chosen);
    else
      void actions.run(
        'activate',
        chosen.map((m) => m.id),
      );
  };
  const selectedMembers = members.filter((m) => selected.has(m.id));
  const onChanged = (member: AdminMember) => {
    if (data) list.setData({ ...data, items: data.items.map((m) => (m.id === member.id ? member : m)) });
  };

  const tabs = FILTERS.map((id) => ({
    id,
    label:
      id === 'pending' && data ? (
        <>
          {T.filterLabels.pending}{' '}
          <Badge tone={data.pending > 0 ? 'warning' : 'neutral'}>{data.pending}</Badge>
        </>
      ) : (
        T.filterLabels[id]
      ),
  }));

  return (
    <>
      <p css={(t: Theme) => css`margin: 0 0 ${t.space(5)}; font-weight: 600;`} aria-live="polite">
        {data ? T.pendingCount(data.pending) : '\u00a0'}
      </p>
      <Tabs items={tabs} selected={status} onSelect={(id) => setStatus(id as MemberFilter)} label={T.filters}>
        <div css={toolbar}>
          <SearchBox q={q} onSearch={setSearch} />
          <BulkBar
            count={selectedMembers.length}
            busy={actions.busy}
            onActivate={() => act('activate', selectedMembers)}
            onReject={() => act('reject', selectedMembers)}
          />
        </div>
        <ActionNotice notice={actions.notice} ref={actions.noticeRef} />
        {list.status === 'error' && (
          <LoadErrorAlert error={list.error} fallback={T.loadFailed} onRetry={list.reload} />
        )}
        {!data && list.status === 'loading' && (
          <div role="status" css={(t: Theme) => css`display: grid; gap: ${t.space(2)};`}>
            <VisuallyHidden>{MESSAGES.app.loading}</VisuallyHidden>
            {[0, 1, 2, 3, 4].map((n) => (
              <Skeleton key={n} height="36px" />
            ))}
          </div>
        )}
        {data && members.length === 0 && (
          <p role="status">{status === 'pending' && !q ? T.emptyPending : T.empty}</p>
        )}
        {data && members.length > 0 && (
          <div aria-busy={list.status === 'loading'}>
            <MembersTable
              members={members}
              selected={selected}
              expanded={expanded}
              busy={actions.busy}
              onSelect={(id, on) =>
                setSelected((current) => {
                  const next = new Set(current);
                  if (on) next.add(id);
                  else next.delete(id);
                  return next;
                })
              }
              onSelectAll={(on) => setSelected(on ? new Set(members.map((m) => m.id)) : new Set())}
              onAction={(action, member) => act(action, [member])}
              onToggleDetails={(id) => setExpanded((current) => (current === id ? null : id))}
              onChanged={onChanged}
            />
          </div>
        )}
        {data && <Pager page={page} total={data.total} limit={data.limit || PAGE_SIZE} onPage={setPage} />}
      </Tabs>
      {confirming && (
        <RejectDialog
          names={confirming.map((m) => `${m.username} (${m.email})`)}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const ids = confirming.map((m) => m.id);
            setConfirming(null);
            void actions.run('reject', ids);
          }}
        />
      )}
    </>
  );
}
