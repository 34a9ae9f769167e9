import { COMPANY_SIZES, formatDate, INDUSTRIES, URGENCIES } from '@app/contracts';
import type { LeadSummary } from '@app/contracts/leads';
import { Link } from '@app/router';
import { Badge, inlineLinkStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { formatReceived, labelOf } from '../model/lead-answers';
import { LEAD_FIELDS as F, LEADS_TEXTS as T } from '../model/texts';

const tableStyles = (t: Theme) => css`
  width: 100%;
  border-collapse: collapse;
  font-size: ${t.font.small};
  th, td { text-align: left; padding: ${t.space(2)} ${t.space(3)}; border-bottom: 1px solid ${t.color.border}; vertical-align: top; }
  th { color: ${t.color.textMuted}; font-weight: 600; white-space: nowrap; background: ${t.color.surfaceAlt}; }
  tbody tr:hover { background: ${t.color.surfaceAlt}; }
  td.nowrap { white-space: nowrap; }
`;

/** A size without the repeated word: the column header already says what the number counts. */
const sizeText = (value: string) => labelOf(COMPANY_SIZES, value).replace(/ employees$/, '');
/** 'Immediate' for 'Immediate (within a month)': the table keeps room for the address; the detail says it all. */
const urgencyText = (value: string) => labelOf(URGENCIES, value).replace(/ \(.*\)$/, '');

/** An address breaks after its @ when the column is narrow, never inside a name or a domain. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

interface LeadsTableProps {
  leads: LeadSummary[];
  caption: string;
  /** The address of a lead's detail (the current list with ?lead=ID). */
  leadSearch: (id: number) => string;
}

/**
 * The page of leads as a real table (column headers, a caption saying which page), in a scroll box of its
 * own on narrow screens; the box is focusable so a keyboard can scroll it too.
 */
export function LeadsTable({ leads, caption, leadSearch }: LeadsTableProps) {
  return (
    <section
      aria-label={T.tableLabel}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1).
      tabIndex={0}
      css={(t: Theme) => css`
        overflow-x: auto;
        background: ${t.color.surface};
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.md};
      `}
    >
      <table css={tableStyles}>
        <caption css={(t: Theme) => css`text-align: left; padding: ${t.space(3)}; font-weight: 600;`}>
          {caption}
        </caption>
        <thead>
          <tr>
            <th scope="col">{F.received}</th>
            <th scope="col">{F.name}</th>
            <th scope="col">{F.company}</th>
            <th scope="col">{F.email}</th>
            <th scope="col">{F.industry}</th>
            <th scope="col">{F.size}</th>
            <th scope="col">{F.urgency}</th>
            <th scope="col">{F.consultationShort}</th>
            <th scope="col">{F.contacted}</th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id}>
              <td>{formatReceived(lead.created_at)}</td>
              <td>
                {/* The lead's way into its detail; a visitor who gave no name is named by the address. */}
                <Link to={{ search: leadSearch(lead.id) }} css={inlineLinkStyles}>
                  {lead.name.trim() || lead.email}
                </Link>
              </td>
              <td>{lead.company.trim() || T.none}</td>
              <td>
                <EmailText email={lead.email} />
              </td>
              <td>{labelOf(INDUSTRIES, lead.industry)}</td>
              <td className="nowrap">{sizeText(lead.company_size)}</td>
              <td className="nowrap">{urgencyText(lead.urgency)}</td>
              <td>{lead.consultation ? <Badge tone="success">{T.yes}</Badge> : T.no}</td>
              <td className="nowrap">
                {lead.contacted_at === null ? T.no : formatDate(new Date(lead.contacted_at).toISOString())}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
