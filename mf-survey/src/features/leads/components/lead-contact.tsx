import { errorMessage } from '@app/api-client';
import { formatDate } from '@app/contracts';
import type { LeadDetail } from '@app/contracts/leads';
import { Alert, Button, TextAreaField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useState } from 'react';
import { useContactedChange } from '../hooks/use-lead-detail';
import { LEADS_TEXTS as T } from '../model/texts';

const NOTE_MAX = 2000;

/**
 * Who contacted the lead, when, and what they noted; or the form to say so. A failed save keeps the typed
 * note and says why (the API's error text).
 */
export function LeadContact({ lead, onChanged }: { lead: LeadDetail; onChanged: () => void }) {
  const [note, setNote] = useState('');
  const change = useContactedChange(lead.id, onChanged);
  const failure = change.error ? (
    <Alert tone="error">{errorMessage(change.error, T.saveFailed)}</Alert>
  ) : null;

  if (lead.contacted_at !== null) {
    const when = formatDate(new Date(lead.contacted_at).toISOString());
    return (
      <div>
        <p>{lead.contacted_by ? T.contactedBy(when, lead.contacted_by) : T.contactedOn(when)}</p>
        {lead.contacted_note !== '' && (
          <blockquote
            css={(t: Theme) => css`
              margin: 0 0 ${t.space(4)};
              padding: ${t.space(2)} ${t.space(4)};
              border-left: 4px solid ${t.color.border};
              white-space: pre-wrap;
              overflow-wrap: anywhere;
            `}
          >
            {lead.contacted_note}
          </blockquote>
        )}
        {failure}
        <Button variant="secondary" disabled={change.busy} onClick={() => void change.unmark()}>
          {change.busy ? T.unmarking : T.unmarkContacted}
        </Button>
      </div>
    );
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void change.mark(note).then((saved) => saved && setNote(''));
      }}
    >
      <p>{T.notContacted}</p>
      <TextAreaField
        label={T.note}
        hint={T.noteHint}
        value={note}
        maxLength={NOTE_MAX}
        onChange={(e) => setNote(e.target.value)}
        disabled={change.busy}
      />
      {failure}
      <Button type="submit" disabled={change.busy}>
        {change.busy ? T.marking : T.markContacted}
      </Button>
    </form>
  );
}
