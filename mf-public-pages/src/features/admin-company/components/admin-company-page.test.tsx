import { API_PATHS, MESSAGES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type SiteDetails, SITE_ADMIN_MESSAGES as T } from '@app/contracts/site-admin';
import { API, useApiServer } from '@app/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { renderPage } from '../../../test/render';
import AdminCompanyPage from './admin-company-page';

const server = useApiServer();

const profile = (roles: string[]) => ({
  id: 1,
  username: 'boss',
  name: { first: 'Ada', last: 'Admin' },
  email: 'boss@example.com',
  address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: '' },
  roles,
  is_active: true,
  created_at: '2026-01-01T12:00:00Z',
  last_login: null,
});

const DETAILS: SiteDetails = {
  impressum: {
    name: 'Example GmbH',
    street: 'Musterstraße 1',
    city: '99999 Musterstadt',
    country: 'Germany',
    representative: 'Erika Mustermann',
    email: 'info@example.com',
    phone: null,
    register: 'HRB 00000',
    vatId: 'DE000000000',
  },
  contact: { email: 'contact@example.com', phone: '+49 30 0000000', address: 'Musterstraße 1' },
  fromEnvironment: { impressum: ['name'], contact: [] },
};

/** An administrator's session and the admin site API answering `details`. */
function asAdmin(details: SiteDetails = DETAILS) {
  localStorage.setItem('token', 'admin-token');
  server.use(
    http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(profile(['admin']))),
    http.get(`${API}${ADMIN_PATHS.site}`, () => HttpResponse.json(details)),
  );
}

const form = (name: string) => screen.getByRole('form', { name });
const field = (formName: string, label: string) =>
  within(form(formName)).getByRole('textbox', { name: new RegExp(`^${label}`) });

describe('AdminCompanyPage', () => {
  it('pre-fills both forms from the API and says which field the environment sets', async () => {
    asAdmin();
    renderPage(<AdminCompanyPage />, '/admin/company');
    expect(screen.getByRole('heading', { level: 1, name: T.title })).toBeInTheDocument();
    expect(await screen.findByRole('form', { name: T.impressumHeading })).toBeInTheDocument();
    expect(field(T.impressumHeading, 'Company name')).toHaveValue('Example GmbH');
    expect(field(T.impressumHeading, 'Phone')).toHaveValue('');
    expect(field(T.contactHeading, 'Address')).toHaveValue('Musterstraße 1');
    expect(field(T.impressumHeading, 'Company name')).toHaveAccessibleDescription(T.pinned('SITE_NAME'));
    expect(screen.getAllByText(/the environment wins at the next start/)).toHaveLength(1);
  });

  it('shows a bad email at its field, keeps what was typed and sends nothing', async () => {
    asAdmin();
    const user = userEvent.setup();
    renderPage(<AdminCompanyPage />, '/admin/company');
    await screen.findByRole('form', { name: T.contactHeading });
    const email = field(T.contactHeading, 'Email');
    await user.clear(email);
    await user.type(email, 'not an email');
    await user.click(within(form(T.contactHeading)).getByRole('button', { name: T.saveContact }));
    expect(
      await within(form(T.contactHeading)).findByText('Email must be an email address'),
    ).toBeInTheDocument();
    expect(email).toHaveValue('not an email');
    expect(email).toHaveFocus();
    expect(within(form(T.contactHeading)).getByText(T.fixErrors)).toBeInTheDocument();
    // The change clears that field's error.
    await user.type(email, 'x');
    expect(
      within(form(T.contactHeading)).queryByText('Email must be an email address'),
    ).not.toBeInTheDocument();
  });

  it("shows the API's field error and message, and keeps the typed values", async () => {
    asAdmin();
    server.use(
      http.put(`${API}${ADMIN_PATHS.siteImpressum}`, () =>
        HttpResponse.json(
          { error: 'VAT ID is refused here', vatId: 'VAT ID is refused here' },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderPage(<AdminCompanyPage />, '/admin/company');
    await screen.findByRole('form', { name: T.impressumHeading });
    const vat = field(T.impressumHeading, 'VAT ID');
    await user.clear(vat);
    await user.type(vat, 'XX1');
    await user.click(screen.getByRole('button', { name: T.saveImpressum }));
    const impressum = form(T.impressumHeading);
    expect(await within(impressum).findAllByText('VAT ID is refused here')).toHaveLength(2);
    expect(vat).toHaveValue('XX1');
    expect(vat).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(T.saved)).not.toBeInTheDocument();
  });

  it('falls back to its own text when the save fails without a message', async () => {
    asAdmin();
    server.use(http.put(`${API}${ADMIN_PATHS.siteContact}`, () => HttpResponse.error()));
    const user = userEvent.setup();
    renderPage(<AdminCompanyPage />, '/admin/company');
    await screen.findByRole('form', { name: T.contactHeading });
    await user.type(field(T.contactHeading, 'Phone'), '1');
    await user.click(screen.getByRole('button', { name: T.saveContact }));
    expect(await within(form(T.contactHeading)).findByRole('alert')).toHaveTextContent(T.saveFailed);
    expect(field(T.contactHeading, 'Phone')).toHaveValue('+49 30 00000001');
  });

  it('saves the typed values, shows the stored ones and confirms, leaving the other form as typed', async () => {
    asAdmin();
    let sent: unknown = null;
    // The answer waits until the test has seen the busy button: no timing involved.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.put(`${API}${ADMIN_PATHS.siteContact}`, async ({ request }) => {
        sent = await request.json();
        await answered;
        return HttpResponse.json({
          ...DETAILS,
          contact: { email: 'new@example.com', phone: null, address: 'Elm Row 2' },
        });
      }),
    );
    const user = userEvent.setup();
    renderPage(<AdminCompanyPage />, '/admin/company');
    await screen.findByRole('form', { name: T.contactHeading });
    await user.type(field(T.impressumHeading, 'Street'), ' (rear)');
    const email = field(T.contactHeading, 'Email');
    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.clear(field(T.contactHeading, 'Phone'));
    await user.clear(field(T.contactHeading, 'Address'));
    await user.type(field(T.contactHeading, 'Address'), ' Elm Row 2 ');
    await user.click(screen.getByRole('button', { name: T.saveContact }));
    expect(await screen.findByRole('button', { name: T.saving })).toBeDisabled();
    answer();
    expect(await within(form(T.contactHeading)).findByText(T.saved)).toBeInTheDocument();
    expect(sent).toEqual({ email: 'new@example.com', phone: '', address: ' Elm Row 2 ' });
    expect(field(T.contactHeading, 'Address')).toHaveValue('Elm Row 2');
    expect(field(T.impressumHeading, 'Street')).toHaveValue('Musterstraße 1 (rear)');
  });

  it('tells a member "Administrators only" without asking for the details', async () => {
    localStorage.setItem('token', 'member-token');
    let asked = 0;
    server.use(
      http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(profile([]))),
      http.get(`${API}${ADMIN_PATHS.site}`, () => {
        asked += 1;
        return HttpResponse.json(DETAILS);
      }),
    );
    renderPage(<AdminCompanyPage />, '/admin/company');
    expect(await screen.findByText(T.adminOnly)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(asked).toBe(0);
  });

  it('shows "Administrators only" when the API refuses, with no profile to go by', async () => {
    localStorage.setItem('token', 'member-token');
    server.use(
      http.get(`${API}${API_PATHS.profile}`, () =>
        HttpResponse.json({ error: 'Profile store offline' }, { status: 500 }),
      ),
      http.get(`${API}${ADMIN_PATHS.site}`, () =>
        HttpResponse.json({ error: 'Administrator role required' }, { status: 403 }),
      ),
    );
    renderPage(<AdminCompanyPage />, '/admin/company');
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.app.loading);
    expect(await screen.findByText(T.adminOnly)).toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it("shows the server's error when the details cannot be loaded", async () => {
    localStorage.setItem('token', 'admin-token');
    server.use(
      http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(profile(['admin']))),
      http.get(`${API}${ADMIN_PATHS.site}`, () => HttpResponse.json({}, { status: 500 })),
    );
    renderPage(<AdminCompanyPage />, '/admin/company');
    expect(await screen.findByRole('alert')).toHaveTextContent(T.loadFailed);
  });
});
