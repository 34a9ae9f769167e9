import { errorMessage } from '@app/api-client';
import { type Contact, MESSAGES } from '@app/contracts';
import { Alert, Card, Container } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { EMPTY_VALUE, orDash } from '../../../lib/display';
import { InfoList } from '../../../lib/info-list';
import { useLoad } from '../../../lib/use-load';
import { usePageTitle } from '../../../lib/use-page-title';
import { getContact } from '../api/get-contact';

const C = MESSAGES.contact;

function ContactDetails({ contact }: { contact: Contact }) {
  const email = orDash(contact.email);
  const phone = orDash(contact.phone);
  return (
    <InfoList
      items={[
        {
          label: 'Email',
          value: email === EMPTY_VALUE ? email : <a href={`mailto:${email}`}>{email}</a>,
        },
        {
          label: 'Phone',
          value: phone === EMPTY_VALUE ? phone : <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>,
        },
        { label: 'Address', value: orDash(contact.address) },
      ]}
    />
  );
}

/** SPEC §2 Contact: the record from the API, and business hours that never depend on it. */
export function ContactPage() {
  usePageTitle('Contact');
  const state = useLoad(getContact);
  return (
    <Container>
      <h1>Contact</h1>
      <p css={(t: Theme) => css`color: ${t.color.textMuted}; max-width: 65ch;`}>
        Questions about our research, your assessment results or a membership? Reach our team through any of
        the channels below and we will get back to you within one business day.
      </p>
      <div
        css={(t: Theme) => css`
          display: grid;
          grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr));
          gap: ${t.space(5)};
          margin-top: ${t.space(6)};
        `}
      >
        <Card aria-labelledby="contact-details-heading">
          <h2 id="contact-details-heading" css={css`margin: 0 0 8px;`}>
            Get in touch
          </h2>
          {state.status === 'loading' && <p role="status">{MESSAGES.app.loading}</p>}
          {state.status === 'error' && <Alert tone="error">{errorMessage(state.error, C.loadFailed)}</Alert>}
          {state.status === 'loaded' && <ContactDetails contact={state.data} />}
        </Card>
        <Card aria-labelledby="contact-hours-heading">
          <h2 id="contact-hours-heading" css={css`margin: 0 0 8px;`}>
            Business hours
          </h2>
          <ul css={css`margin: 0; padding-left: 1.2em; display: grid; gap: 4px;`}>
            <li>{C.hoursWeekdays}</li>
            <li>{C.hoursWeekend}</li>
          </ul>
        </Card>
      </div>
    </Container>
  );
}
