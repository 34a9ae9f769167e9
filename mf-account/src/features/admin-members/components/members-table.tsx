import type { AdminMember } from '@app/contracts/admin-members';
import { css, type Theme } from '@emotion/react';
import { useEffect, useRef } from 'react';
import { tableStyles } from '../table-styles';
import { MEMBERS_TEXTS as T } from '../texts';
import { MemberRow, type MemberRowProps } from './member-row';

type RowHandlers = Pick<MemberRowProps, 'onSelect' | 'onAction' | 'onToggleDetails' | 'onChanged'>;

/** "Select all on this page": checked when every row is, mixed when some are. */
function SelectAll({
  members,
  selected,
  onSelectAll,
}: {
  members: readonly AdminMember[];
  selected: ReadonlySet<number>;
  onSelectAll: (selected: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const count = members.filter((m) => selected.has(m.id)).length;
  const all = members.length > 0 && count === members.length;
  // `indeterminate` has no attribute; it is set on the element, and read by screen readers as "mixed".
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={all}
      aria-label={T.selectAll}
      disabled={members.length === 0}
      onChange={(e) => onSelectAll(e.target.checked)}
    />
  );
}

export function MembersTable({
  members,
  selected,
  expanded,
  busy,
  onSelectAll,
  ...handlers
}: {
  members: readonly AdminMember[];
  selected: ReadonlySet<number>;
  expanded: number | null;
  busy: boolean;
  onSelectAll: (selected: boolean) => void;
} & RowHandlers) {
  const C = T.columns;
  return (
    <div css={css`overflow-x: auto;`}>
      <table css={tableStyles}>
        <caption
          css={(t: Theme) => css`
            text-align: left;
            color: ${t.color.textMuted};
            font-size: ${t.font.small};
            margin-bottom: ${t.space(2)};
          `}
        >
          {T.tableCaption}
        </caption>
        <thead>
          <tr>
            <td>
              <SelectAll members={members} selected={selected} onSelectAll={onSelectAll} />
            </td>
            <th scope="col">{C.username}</th>
            <th scope="col">{C.name}</th>
            <th scope="col">{C.email}</th>
            <th scope="col">{C.registered}</th>
            <th scope="col">{C.from}</th>
            <th scope="col">{C.status}</th>
            <th scope="col">{C.tiers}</th>
            <th scope="col">{C.actions}</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <MemberRow
              key={member.id}
              member={member}
              selected={selected.has(member.id)}
              expanded={expanded === member.id}
              busy={busy}
              {...handlers}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
