import { LoadErrorAlert, Modal, Skeleton } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useRef } from 'react';
import { useLeadDetail } from '../hooks/use-lead-detail';
import { answerRows, formatReceived } from '../model/lead-answers';
import { LEAD_FIELDS as F, LEADS_TEXTS as T } from '../model/texts';
import { LeadContact } from './lead-contact';

const listStyles = (t: Theme) => css`
  display: grid;
  grid-template-columns: minmax(140px, 35%) 1fr;
  gap: ${t.space(2)} ${t.space(4)};
  margin: 0 0 ${t.space(6)};
  dt { font-weight: 600; color: ${t.color.textMuted}; }
  dd { margin: 0; overflow-wrap: anywhere; }
  ul { margin: 0; padding-left: ${t.space(5)}; }
`;

interface LeadDetailDialogProps {
  id: number;
  onClose: () => void;
  /** After a change to the lead: the table shows the contacted column too. */
  onChanged: () => void;
}

/**
 * One lead over the table, as a dialog: focus moves into it, stays there, and returns to the lead's link
 * on close (the Modal's focus management). Every answer is listed with the survey's labels.
 */
export function LeadDetailDialog({ id, onClose, onChanged }: LeadDetailDialogProps) {
  const detail = useLeadDetail(id);
  // The button that was pressed goes away with the change: focus waits on the section's heading meanwhile.
  const contactHeading = useRef<HTMLHeadingElement>(null);
  const lead = detail.data;
  const title = lead ? T.detailTitle(lead.name.trim() || lead.email) : T.detailTitle(`#${id}`);
  return (
    <Modal title={title} onClose={onClose} width="760px" fullScreenBelow={640}>
      <LoadErrorAlert error={detail.error} fallback={T.leadLoadFailed} onRetry={detail.reload} />
      {!lead && detail.status === 'loading' && (
        <div aria-busy="true" css={css`display: grid; gap: 12px;`}>
          <Skeleton height="20px" width="60%" />
          <Skeleton height="240px" />
        </div>
      )}
      {lead && (
        <>
          <p>
            {F.received}: {formatReceived(lead.created_at)}
          </p>
          <h3>{T.answersHeading}</h3>
          <dl css={listStyles}>
            {answerRows(lead).map((row) => (
              <div key={row.label} css={css`display: contents;`}>
                <dt>{row.label}</dt>
                <dd>
                  {typeof row.value === 'string' ? (
                    row.value
                  ) : row.value.length === 0 ? (
                    T.none
                  ) : (
                    <ul>
                      {row.value.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <h3 ref={contactHeading} tabIndex={-1} css={css`outline: none;`}>
            {T.contactHeading}
          </h3>
          <div aria-live="polite">
            {/* A new state of the lead is a fresh form: an empty note, no old error. */}
            <LeadContact
              key={String(lead.contacted_at)}
              lead={lead}
              onChanged={() => {
                contactHeading.current?.focus();
                detail.reload();
                onChanged();
              }}
            />
          </div>
        </>
      )}
    </Modal>
  );
}
