import { formatDate, ROLES } from '@app/contracts';
import type { AdminMember } from '@app/contracts/admin-members';
import { Badge, Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { MEMBERS_TEXTS as T } from '../texts';
import { MemberAudit } from './member-audit';
import { MemberTiers } from './member-tiers';

export const COLUMN_COUNT = 9;

const roleLabel = (role: string) => ROLES.labels[role as keyof typeof ROLES.labels] ?? role;
const fullName = (m: AdminMember) => [m.first_name, m.last_name].filter(Boolean).join(' ');

const cellActions = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(1)};
`;

export interface MemberRowProps {
  member: AdminMember;
  selected: boolean;
  expanded: boolean;
  busy: boolean;
  onSelect: (id: number, selected: boolean) => void;
  onAction: (action: 'activate' | 'reject', member: AdminMember) => void;
  onToggleDetails: (id: number) => void;
  onChanged: (member: AdminMember) => void;
}

/** One member: the row the admin scans, and under it (when opened) the tiers and the member's audit. */
export function MemberRow({
  member,
  selected,
  expanded,
  busy,
  onSelect,
  onAction,
  onToggleDetails,
  onChanged,
}: MemberRowProps) {
  const detailsId = `member-details-${member.id}`;
  const pending = !member.is_active;
  return (
    <>
      <tr css={(t: Theme) => (selected ? css`background: ${t.color.surfaceAlt};` : undefined)}>
        <td>
          <input
            type="checkbox"
            checked={selected}
            aria-label={T.selectOne(member.username)}
            onChange={(e) => onSelect(member.id, e.target.checked)}
          />
        </td>
        <th scope="row">{member.username}</th>
        <td>{fullName(member)}</td>
        <td css={css`overflow-wrap: anywhere;`}>{member.email}</td>
        <td css={css`white-space: nowrap;`}>{formatDate(member.created_at)}</td>
        <td>{member.registered_from ? <code>{member.registered_from}</code> : T.unknownAddress}</td>
        <td>
          <Badge tone={pending ? 'warning' : 'success'}>{pending ? T.pending : T.active}</Badge>
        </td>
        <td>
          {member.roles.length === 0 ? (
            T.noTiers
          ) : (
            <span css={cellActions}>
              {member.roles.map((role) => (
                <Badge key={role} tone="info">
                  {roleLabel(role)}
                </Badge>
              ))}
            </span>
          )}
        </td>
        <td>
          <span css={cellActions}>
            {pending && (
              <>
                <Button
                  size="sm"
                  aria-label={`${T.activate} ${member.username}`}
                  aria-disabled={busy || undefined}
                  onClick={() => onAction('activate', member)}
                >
                  {T.activate}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`${T.reject} ${member.username}`}
                  aria-disabled={busy || undefined}
                  onClick={() => onAction('reject', member)}
                >
                  {T.reject}
                </Button>
              </>
            )}
            <Button
              size="sm"
              variant="ghost"
              aria-label={`${T.details} ${member.username}`}
              aria-expanded={expanded}
              aria-controls={expanded ? detailsId : undefined}
              onClick={() => onToggleDetails(member.id)}
            >
              {expanded ? T.hideDetails : T.details}
            </Button>
          </span>
        </td>
      </tr>
      {expanded && (
        <tr id={detailsId}>
          <td colSpan={COLUMN_COUNT}>
            <div
              css={(t: Theme) => css`
                display: grid;
                grid-template-columns: minmax(0, 1fr) minmax(0, 2fr);
                gap: ${t.space(5)};
                padding: ${t.space(3)} ${t.space(2)};
                background: ${t.color.surfaceAlt};
                border-radius: ${t.radius.sm};
                @media (max-width: 800px) { grid-template-columns: minmax(0, 1fr); }
              `}
            >
              <MemberTiers member={member} onChanged={onChanged} />
              <MemberAudit member={member} />
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
