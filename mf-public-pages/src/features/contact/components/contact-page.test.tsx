import { API_PATHS, MESSAGES } from '@app/contracts';
import { ShellActionsProvider } from '@app/shell-actions';
import { API, useApiServer } from '@app/test-utils';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, HttpResponse, http } from 'msw';
import { renderPage } from '../../../test/render';
import { ContactPage } from './contact-page';

const server = useApiServer();
const url = `${API}${API_PATHS.publicContact}`;

function definitionOf(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

function expectHours() {
  expect(screen.getByText(MESSAGES.contact.hoursWeekdays)).toBeInTheDocument();
  expect(screen.getByText(MESSAGES.contact.hoursWeekend)).toBeInTheDocument();
}

describe('ContactPage', () => {
  it('shows Loading... and the business hours while the record loads', async () => {
    server.use(
      http.get(url, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    renderPage(<ContactPage />, '/contact');
    expect(screen.getByRole('heading', { level: 1, name: 'Contact' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.app.loading);
    expectHours();
  });

  it('shows email, phone and address from the API as links where they can be used', async () => {
    server.use(
      http.get(url, () =>
        HttpResponse.json({
          email: 'hello@example.com',
          phone: '+49 30 1234 567',
          address: 'Main St 1, Berlin',
        }),
      ),
    );
    renderPage(<ContactPage />, '/contact');
    const email = await screen.findByRole('link', { name: 'hello@example.com' });
    expect(email).toHaveAttribute('href', 'mailto:hello@example.com');
    expect(screen.getByRole('link', { name: '+49 30 1234 567' })).toHaveAttribute('href', 'tel:+49301234567');
    expect(definitionOf('Address')).toHaveTextContent('Main St 1, Berlin');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expectHours();
  });

  it('shows a dash for every empty value', async () => {
    server.use(http.get(url, () => HttpResponse.json({ email: null, phone: '', address: '  ' })));
    renderPage(<ContactPage />, '/contact');
    await screen.findByText('Email', { selector: 'dt' });
    for (const label of ['Email', 'Phone', 'Address']) expect(definitionOf(label)).toHaveTextContent(/^-$/);
    const details = screen.getByRole('article', { name: 'Get in touch' });
    expect(within(details).queryByRole('link')).not.toBeInTheDocument();
  });

  it("shows the server's error and still the business hours", async () => {
    server.use(http.get(url, () => HttpResponse.json({ error: 'Contact is offline' }, { status: 503 })));
    renderPage(<ContactPage />, '/contact');
    expect(await screen.findByRole('alert')).toHaveTextContent('Contact is offline');
    expectHours();
  });

  it("falls back to 'Error loading contact information' without a server message", async () => {
    server.use(http.get(url, () => HttpResponse.error()));
    renderPage(<ContactPage />, '/contact');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(MESSAGES.contact.loadFailed)).toBeInTheDocument();
    expectHours();
  });

  it('offers the assessment and the research after the contact details, so the page leads somewhere', async () => {
    server.use(http.get(url, () => HttpResponse.json({ email: 'a@b.example', phone: null, address: null })));
    const openSurvey = vi.fn();
    renderPage(
      <ShellActionsProvider value={{ openSurvey }}>
        <ContactPage />
      </ShellActionsProvider>,
      '/contact',
    );
    await screen.findByRole('link', { name: 'a@b.example' });
    const next = screen.getByRole('region', { name: 'Not sure what to ask yet?' });
    await userEvent.click(within(next).getByRole('button', { name: 'Start Free Assessment' }));
    expect(openSurvey).toHaveBeenCalledTimes(1);
    expect(within(next).getByRole('link', { name: 'Browse Research' })).toHaveAttribute(
      'href',
      '/research-center',
    );
  });
});
