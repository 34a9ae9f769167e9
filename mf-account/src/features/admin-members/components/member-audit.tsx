import { formatDate, ROLES } from '@app/contracts';
import type { AdminAuditEntry, AdminMember } from '@app/contracts/admin-members';
import { useServerState } from '@app/server-state';
import { LoadErrorAlert } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { fetchMemberAudit } from '../api/members';
import { tableStyles } from '../table-styles';
import { MEMBERS_TEXTS as T } from '../texts';

const when = (at: number) => {
  const date = new Date(at);
  return `${formatDate(date.toISOString())}, ${date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`;
};

/** "Granted Premium", "Activated the account"; an action this screen does not know shows as recorded. */
export function auditText(entry: AdminAuditEntry): string {
  const base = T.auditActions[entry.action] ?? entry.action;
  const role = entry.detail.role;
  if (typeof role !== 'string') return base;
  return `${base} ${ROLES.labels[role as keyof typeof ROLES.labels] ?? role}`;
}

/**
 * The member's latest audit entries: who did what, when. Asked again whenever the member changes here (a
 * tier granted, an activation), so the entry just written shows at once.
 */
export function MemberAudit({ member }: { member: AdminMember }) {
  const audit = useServerState(
    (signal) => fetchMemberAudit(member.id, signal),
    [member.id, member.is_active, member.roles.join(',')],
  );
  const items = audit.data?.items ?? [];
  return (
    <section aria-label={`${T.auditHeading}: ${member.username}`} aria-busy={audit.status === 'loading'}>
      <h3 css={(t: Theme) => css`margin: 0 0 ${t.space(2)}; font-size: ${t.font.body};`}>{T.auditHeading}</h3>
      {audit.status === 'error' ? (
        <LoadErrorAlert error={audit.error} fallback={T.auditFailed} onRetry={audit.reload} />
      ) : audit.status === 'loading' && !audit.data ? (
        <p role="status">{T.working}</p>
      ) : items.length === 0 ? (
        <p css={css`margin: 0;`}>{T.auditEmpty}</p>
      ) : (
        <table css={tableStyles}>
          <thead>
            <tr>
              <th scope="col">{T.auditColumns.when}</th>
              <th scope="col">{T.auditColumns.who}</th>
              <th scope="col">{T.auditColumns.what}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((entry) => (
              <tr key={entry.id}>
                <td>{when(entry.at)}</td>
                <td>{entry.actor}</td>
                <td>{auditText(entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
