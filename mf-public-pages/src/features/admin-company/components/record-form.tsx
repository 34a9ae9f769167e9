import type { SiteDetails, SiteRecordKey } from '@app/contracts/site-admin';
import { SITE_ADMIN_MESSAGES as T } from '@app/contracts/site-admin';
import { Alert, Button, Card, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useId, useRef } from 'react';
import { useRecordForm } from '../hooks/use-record-form';
import { envVariableOf, RECORD_FORMS } from '../lib/fields';

export interface RecordFormProps {
  record: SiteRecordKey;
  heading: string;
  submitLabel: string;
  initial: Record<string, string | null>;
  /** Fields a SITE_* / CONTACT_* variable sets at start (GET /api/admin/site's fromEnvironment). */
  pinned: readonly string[];
  save: (input: Record<string, string>) => Promise<SiteDetails>;
  onSaved: (details: SiteDetails) => void;
}

const grid = (t: Theme) => css`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr));
  column-gap: ${t.space(4)};
`;

/** One record's form (Impressum or Contact) on /admin/company. */
export function RecordForm({
  record,
  heading,
  submitLabel,
  initial,
  pinned,
  save,
  onSaved,
}: RecordFormProps) {
  const form = useRecordForm(record, initial, save, onSaved);
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (form.busy) return;
    const [first] = await form.submit();
    // The first field in error gets focus, so a keyboard or screen reader user lands on what to fix.
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} css={css`margin-top: 0;`}>
        {heading}
      </h2>
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-labelledby={headingId} aria-busy={form.busy}>
        <div css={grid}>
          {RECORD_FORMS[record].fields.map((field) => (
            <TextField
              key={field.name}
              name={field.name}
              label={field.label}
              type={'type' in field ? field.type : 'text'}
              autoComplete={'autoComplete' in field ? field.autoComplete : 'off'}
              required={field.name === 'name'}
              value={form.values[field.name] ?? ''}
              error={form.errors[field.name]}
              hint={pinned.includes(field.name) ? T.pinned(envVariableOf(record, field.name)) : undefined}
              onChange={(e) => form.change(field.name, e.target.value)}
            />
          ))}
        </div>
        {form.error && <Alert tone="error">{form.error}</Alert>}
        {form.saved && <Alert tone="success">{T.saved}</Alert>}
        <Button type="submit" disabled={form.busy}>
          {form.busy ? T.saving : submitLabel}
        </Button>
      </form>
    </Card>
  );
}
