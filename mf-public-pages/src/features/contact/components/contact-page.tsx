import { errorMessage } from '@app/api-client';
import { type Contact, MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { useServerState } from '@app/server-state';
import { useShellActions } from '@app/shell-actions';
import { Alert, Button, buttonStyles, Card, Container, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { EmailValue, PhoneValue } from '../../../components/contact-links';
import { InfoList } from '../../../components/info-list';
import { orDash } from '../../../lib/display';
import { bandSurface, muted } from '../../../lib/styles';
import { getContact } from '../api/get-contact';

const C = MESSAGES.contact;

function ContactDetails({ contact }: { contact: Contact }) {
  return (
    <InfoList
      items={[
        { label: 'Email', value: <EmailValue email={contact.email} /> },
        { label: 'Phone', value: <PhoneValue phone={contact.phone} /> },
        { label: 'Address', value: orDash(contact.address) },
      ]}
    />
  );
}

/** Ways forward for a visitor who came to Contact without a question yet, so the page does not end in a void. */
function NextSteps() {
  const { openSurvey } = useShellActions();
  return (
    <section
      aria-labelledby="contact-next-heading"
      css={(t: Theme) => css`
        margin-top: ${t.space(8)};
        padding: ${t.space(6)};
        ${bandSurface(t)};
        display: grid;
        gap: ${t.space(4)} ${t.space(6)};
        align-items: center;
        /* Text and buttons side by side on desktop, so the band has no empty half. */
        @media (min-width: 860px) {
          grid-template-columns: minmax(0, 1fr) auto;
        }
      `}
    >
      <div>
        <h2 id="contact-next-heading" css={css`margin: 0;`}>
          Not sure what to ask yet?
        </h2>
        <p css={(t: Theme) => css`${muted(t)}; margin: ${t.space(2)} 0 0;`}>
          The free market assessment takes five minutes and gives our analysts what they need for a useful
          first conversation. Or browse our public research first.
        </p>
      </div>
      <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(3)};`}>
        <Button onClick={openSurvey}>Start Free Assessment</Button>
        <Link to="/research-center" css={buttonStyles('secondary')}>
          Browse Research
        </Link>
      </div>
    </section>
  );
}

/** SPEC §2 Contact: the record from the API, and business hours that never depend on it. */
export function ContactPage() {
  usePageTitle('Contact');
  const state = useServerState(getContact, []);
  return (
    <Container>
      <h1>Contact</h1>
      <p css={(t: Theme) => css`${muted(t)}; max-width: 65ch;`}>
        Questions about our research, your assessment results or a membership? Reach our team through any of
        the channels below and we will get back to you within one business day.
      </p>
      <div
        css={(t: Theme) => css`
          display: grid;
          gap: ${t.space(5)};
          margin-top: ${t.space(6)};
          /* Details need the room (long addresses); hours are two lines, so they get the narrower column. */
          @media (min-width: 860px) {
            grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
          }
        `}
      >
        <Card aria-labelledby="contact-details-heading">
          <h2 id="contact-details-heading" css={css`margin: 0 0 8px;`}>
            Get in touch
          </h2>
          {state.status === 'loading' && <p role="status">{MESSAGES.app.loading}</p>}
          {state.status === 'error' && <Alert tone="error">{errorMessage(state.error, C.loadFailed)}</Alert>}
          {state.status === 'done' && <ContactDetails contact={state.data} />}
        </Card>
        <Card aria-labelledby="contact-hours-heading">
          <h2 id="contact-hours-heading" css={css`margin: 0 0 8px;`}>
            Business hours
          </h2>
          <ul css={css`margin: 0; padding-left: 1.2em; display: grid; gap: 4px;`}>
            <li>{C.hoursWeekdays}</li>
            <li>{C.hoursWeekend}</li>
          </ul>
          <p css={(t: Theme) => css`${muted(t)}; margin: ${t.space(2)} 0 0;`}>
            Messages that arrive outside these hours are answered on the next business day.
          </p>
        </Card>
      </div>
      <NextSteps />
    </Container>
  );
}
