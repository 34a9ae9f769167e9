import { errorMessage } from '@app/api-client';
import { type Impressum, MESSAGES } from '@app/contracts';
import { useServerState } from '@app/server-state';
import { Alert, Card, Container, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { EmailValue, PhoneValue } from '../../../components/contact-links';
import { InfoList } from '../../../components/info-list';
import { orDash } from '../../../lib/display';
import { getImpressum } from '../api/get-impressum';

/** Every field of the impressum record, in the order SPEC §2 lists them. */
export const IMPRESSUM_FIELDS: readonly { key: keyof Impressum; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'street', label: 'Street' },
  { key: 'city', label: 'City' },
  { key: 'country', label: 'Country' },
  { key: 'representative', label: 'Represented by' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'register', label: 'Commercial register' },
  { key: 'vatId', label: 'VAT identification number' },
];

export const DISCLAIMER_TITLE = 'Disclaimer: external links';
export const DISCLAIMER_TEXT =
  'Our pages contain links to external websites of third parties over whose content we have no influence. ' +
  'We therefore cannot accept any liability for this external content. The respective provider or operator ' +
  'of the linked pages is always responsible for their content. The linked pages were checked for possible ' +
  'legal violations at the time of linking; no illegal content was recognisable then. Should we become ' +
  'aware of any legal infringement, we will remove such links immediately.';

/** Email and phone are links, as on Contact: a visitor reading the legal page can write or call at once. */
function impressumValue(record: Impressum, key: keyof Impressum) {
  if (key === 'email') return <EmailValue email={record.email} />;
  if (key === 'phone') return <PhoneValue phone={record.phone} />;
  return orDash(record[key]);
}

/** SPEC §2 Impressum: the record from the API, a dash for empty values, and a fixed disclaimer. */
export function ImpressumPage() {
  usePageTitle('Impressum');
  const state = useServerState(getImpressum, []);
  return (
    <Container>
      <h1>Impressum</h1>
      <Card aria-labelledby="impressum-company-heading">
        <h2 id="impressum-company-heading" css={css`margin: 0 0 8px;`}>
          Company information
        </h2>
        {state.status === 'loading' && <p role="status">{MESSAGES.app.loading}</p>}
        {state.status === 'error' && (
          <Alert tone="error">{errorMessage(state.error, MESSAGES.impressum.loadFailed)}</Alert>
        )}
        {state.status === 'done' && (
          <InfoList
            items={IMPRESSUM_FIELDS.map(({ key, label }) => ({
              label,
              value: impressumValue(state.data, key),
            }))}
          />
        )}
      </Card>
      <section
        aria-labelledby="impressum-disclaimer-heading"
        css={(t: Theme) => css`margin-top: ${t.space(8)}; max-width: 75ch;`}
      >
        <h2 id="impressum-disclaimer-heading">{DISCLAIMER_TITLE}</h2>
        <p css={(t: Theme) => css`color: ${t.color.textMuted};`}>{DISCLAIMER_TEXT}</p>
      </section>
    </Container>
  );
}
