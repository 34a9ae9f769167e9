import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { LeadDetail } from '@app/contracts/leads';
import { useApiServer } from '@app/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { loginAs, makeDetail, renderLeads, serveLeads, url } from '../../../test/leads-fixtures';

const server = useApiServer();
const dialog = () => screen.getByRole('dialog', { name: 'Lead: Jane Doe' });
/** The answer listed under a label (dt/dd pairs). */
const answer = (label: string) => {
  const term = within(dialog()).getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
};

/** GET and POST/DELETE of one lead, against a lead kept here as the API would keep it. */
function serveLead(start: LeadDetail, refuseMark?: { status: number; error: string }) {
  let lead = start;
  const marked: unknown[] = [];
  let unmarked = 0;
  server.use(
    http.get(url(ADMIN_PATHS.lead(lead.id)), () => HttpResponse.json(lead)),
    http.post(url(ADMIN_PATHS.leadContacted(lead.id)), async ({ request }) => {
      const body = (await request.json()) as { note: string };
      marked.push(body);
      if (refuseMark) return HttpResponse.json({ error: refuseMark.error }, { status: refuseMark.status });
      lead = {
        ...lead,
        contacted_at: Date.parse('2026-11-21T10:00:00Z'),
        contacted_by: 'ada',
        contacted_note: body.note,
      };
      return HttpResponse.json(lead);
    }),
    http.delete(url(ADMIN_PATHS.leadContacted(lead.id)), () => {
      unmarked += 1;
      lead = { ...lead, contacted_at: null, contacted_by: null, contacted_note: '' };
      return HttpResponse.json(lead);
    }),
  );
  return { marked, unmarked: () => unmarked };
}

describe('a lead in detail', () => {
  it('opens from the table as a dialog with every answer labelled, and gives focus back on close', async () => {
    loginAs(server, ['admin']);
    serveLeads(server, 30);
    serveLead(makeDetail(7));
    const { user } = renderLeads();
    const link = await screen.findByRole('link', { name: 'Lead 7' });
    await user.click(link);

    await screen.findByRole('dialog', { name: 'Lead: Jane Doe' });
    expect(answer('Company')).toHaveTextContent('Northwind Freight');
    expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent('?lead=7');
    expect(within(dialog()).getByRole('button', { name: 'Close' })).toHaveFocus();
    expect(answer('Company size')).toHaveTextContent('51-200 employees');
    expect(answer('Industry')).toHaveTextContent('Logistics');
    expect(answer('Role')).toHaveTextContent('COO');
    expect(answer('Years in role')).toHaveTextContent('4-7 years');
    expect(
      within(answer('Primary challenges'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Supply chain disruption', 'Cash flow and access to financing']);
    expect(answer('Risk concerns')).toHaveTextContent('Cyber attack or data breach');
    expect(answer('Growth goals')).toHaveTextContent('—');
    expect(answer('Intelligence topics')).toHaveTextContent('Market trends');
    expect(answer('Report frequency')).toHaveTextContent('Monthly');
    expect(answer('Urgency')).toHaveTextContent('Immediate (within a month)');
    expect(answer('Email')).toHaveTextContent('jane@example.com');
    expect(answer('First name')).toHaveTextContent('Jane');
    expect(answer('Last name')).toHaveTextContent('Doe');
    expect(answer('Phone')).toHaveTextContent('—');
    expect(answer('Preferred communication')).toHaveTextContent('Email and a video meeting');
    expect(answer('Consultation wanted')).toHaveTextContent('Yes');

    await user.click(within(dialog()).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'address' })).toHaveTextContent(/^$/);
    expect(screen.getByRole('link', { name: 'Lead 7' })).toHaveFocus();
  });

  it('marks the lead contacted with a note, shows who and when, and un-marks it', async () => {
    loginAs(server, ['admin']);
    const asked = serveLeads(server, 30);
    const calls = serveLead(makeDetail(7));
    const { user } = renderLeads('/admin/leads?consultation=yes&lead=7');
    const note = await within(await screen.findByRole('dialog')).findByRole('textbox', { name: 'Note' });
    expect(within(dialog()).getByText('Not contacted yet.')).toBeInTheDocument();
    const listLoads = asked.length;

    await user.type(note, 'Called, demo on Monday');
    await user.click(within(dialog()).getByRole('button', { name: 'Mark as contacted' }));
    expect(await within(dialog()).findByText('Contacted on Nov 21, 2026 by ada.')).toBeInTheDocument();
    expect(within(dialog()).getByText('Called, demo on Monday')).toBeInTheDocument();
    expect(calls.marked).toEqual([{ note: 'Called, demo on Monday' }]);
    expect(within(dialog()).getByRole('heading', { name: 'Contact' })).toHaveFocus();
    // The table is asked again (its Contacted column), with the same filters.
    await waitFor(() => expect(asked.length).toBe(listLoads + 1));
    expect(asked.at(-1)?.get('consultation')).toBe('yes');

    await user.click(within(dialog()).getByRole('button', { name: 'Mark as not contacted' }));
    expect(await within(dialog()).findByText('Not contacted yet.')).toBeInTheDocument();
    expect(calls.unmarked()).toBe(1);
    expect(within(dialog()).getByRole('textbox', { name: 'Note' })).toHaveValue('');
  });

  it("keeps the typed note and shows the API's error when marking fails", async () => {
    loginAs(server, ['admin']);
    serveLeads(server, 30);
    serveLead(makeDetail(7), { status: 400, error: 'The note must be at most 2,000 characters' });
    const { user } = renderLeads('/admin/leads?lead=7');
    const note = await within(await screen.findByRole('dialog')).findByRole('textbox', { name: 'Note' });
    await user.type(note, 'Left a voicemail');
    await user.click(within(dialog()).getByRole('button', { name: 'Mark as contacted' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'The note must be at most 2,000 characters',
    );
    expect(within(dialog()).getByRole('textbox', { name: 'Note' })).toHaveValue('Left a voicemail');
    expect(within(dialog()).getByText('Not contacted yet.')).toBeInTheDocument();
  });

  it("shows a lead's load error in the dialog", async () => {
    loginAs(server, ['admin']);
    serveLeads(server, 30);
    server.use(
      http.get(url(ADMIN_PATHS.lead(999)), () =>
        HttpResponse.json({ error: 'Lead not found' }, { status: 404 }),
      ),
    );
    renderLeads('/admin/leads?lead=999');
    const d = await screen.findByRole('dialog', { name: 'Lead: #999' });
    expect(await within(d).findByRole('alert')).toHaveTextContent('Lead not found');
  });
});
