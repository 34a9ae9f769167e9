import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { useApiServer } from '@app/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { filtersOf, loginAs, renderLeads, serveLeads, url } from '../../../test/leads-fixtures';
import { LEADS_TEXTS as T } from '../model/texts';

const server = useApiServer();
const address = () => screen.getByRole('status', { name: 'address' });
const table = () => screen.getByRole('table', { name: /^Leads, Page/ });

describe('/admin/leads', () => {
  it('shows the first page of 100,000 leads with the count, and pages on the server', async () => {
    loginAs(server, ['admin']);
    const asked = serveLeads(server, 100_000);
    const { user } = renderLeads();
    expect(screen.getByRole('heading', { level: 1, name: 'Leads' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Leads, Page 1 of 4,000' })).toBeInTheDocument();
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'Received',
      'Name',
      'Company',
      'Email',
      'Industry',
      'Size',
      'Urgency',
      'Consultation',
      'Contacted',
    ]);
    expect(within(table()).getAllByRole('row')).toHaveLength(26);
    expect(screen.getByText('Page 1 of 4,000 · 100,000 leads')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV (100,000 leads)' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(asked.at(-1)?.get('page')).toBe('1');
    expect(asked.at(-1)?.get('limit')).toBe('25');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('table', { name: 'Leads, Page 2 of 4,000' })).toBeInTheDocument();
    expect(asked.at(-1)?.get('page')).toBe('2');
    expect(address()).toHaveTextContent('?page=2');
    expect(within(table()).getByRole('link', { name: 'Lead 26' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('table', { name: 'Leads, Page 1 of 4,000' })).toBeInTheDocument();
  });

  it('turns each filter into the query of the request and of the address, back at page 1', async () => {
    loginAs(server, ['admin']);
    const asked = serveLeads(server, 60, { rows: 2 });
    const { user } = renderLeads('/admin/leads?page=2');
    await screen.findByRole('table', { name: 'Leads, Page 2 of 3' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Consultation wanted' }), 'yes');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Contacted' }), 'no');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Urgency' }), 'immediate');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Industry' }), 'logistics');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company size' }), '500+');
    await user.type(screen.getByLabelText('Received from'), '2026-11-01');
    await user.type(screen.getByLabelText('Received to'), '2026-11-30');

    const expected = {
      consultation: 'yes',
      contacted: 'no',
      urgency: 'immediate',
      industry: 'logistics',
      companySize: '500+',
      from: '2026-11-01',
      to: '2026-11-30',
    };
    await waitFor(() => expect(filtersOf(asked.at(-1))).toEqual(expected));
    expect(asked.at(-1)?.get('page')).toBe('1');
    expect(Object.fromEntries(new URLSearchParams(address().textContent ?? ''))).toEqual(expected);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(filtersOf(asked.at(-1))).toEqual({}));
    expect(address()).toHaveTextContent(/^$/);
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });

  it('starts from the filters in the address (a reload, a shared link)', async () => {
    loginAs(server, ['admin']);
    const asked = serveLeads(server, 3);
    renderLeads('/admin/leads?consultation=yes&industry=retail&from=2026-10-01&page=1');
    await screen.findByRole('table', { name: 'Leads, Page 1 of 1' });
    expect(filtersOf(asked[0])).toEqual({ consultation: 'yes', industry: 'retail', from: '2026-10-01' });
    expect(screen.getByRole('combobox', { name: 'Consultation wanted' })).toHaveValue('yes');
    expect(screen.getByRole('combobox', { name: 'Industry' })).toHaveValue('retail');
    expect(screen.getByLabelText('Received from')).toHaveValue('2026-10-01');
    expect(screen.getByText('Page 1 of 1 · 3 leads')).toBeInTheDocument();
  });

  it('says when nothing matches, and offers no export', async () => {
    loginAs(server, ['admin']);
    serveLeads(server, 0);
    renderLeads('/admin/leads?urgency=long-term');
    expect(await screen.findByText(T.empty)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV (0 leads)' })).toBeDisabled();
  });

  it("shows the API's error text with Retry", async () => {
    loginAs(server, ['admin']);
    let fail = true;
    server.use(
      http.get(url(ADMIN_PATHS.leads), () =>
        fail
          ? HttpResponse.json({ error: 'limit must be 1 to 100' }, { status: 400 })
          : HttpResponse.json({ items: [], total: 0, page: 1, limit: 25 }),
      ),
    );
    const { user } = renderLeads();
    expect(await screen.findByRole('alert')).toHaveTextContent('limit must be 1 to 100');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(T.empty)).toBeInTheDocument();
  });

  it('tells a member it is for administrators only, without asking the API for leads', async () => {
    loginAs(server, ['paid-tier-2']);
    renderLeads();
    expect(await screen.findByText('Administrators only')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(T.adminOnlyText);
    expect(screen.queryByRole('group', { name: 'Filters' })).not.toBeInTheDocument();
  });

  it('shows the same notice when the API refuses with 403 (the role was taken away)', async () => {
    loginAs(server, ['admin']);
    server.use(
      http.get(url(ADMIN_PATHS.leads), () =>
        HttpResponse.json({ error: 'Administrator role required' }, { status: 403 }),
      ),
    );
    renderLeads();
    expect(await screen.findByText('Administrators only')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
