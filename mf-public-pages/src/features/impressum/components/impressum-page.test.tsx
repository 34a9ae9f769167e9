import { API_PATHS, type Impressum, MESSAGES } from '@app/contracts';
import { API, useApiServer } from '@app/test-utils';
import { screen } from '@testing-library/react';
import { delay, HttpResponse, http } from 'msw';
import { renderPage } from '../../../test/render';
import { DISCLAIMER_TEXT, IMPRESSUM_FIELDS, ImpressumPage } from './impressum-page';

const server = useApiServer();
const url = `${API}${API_PATHS.publicImpressum}`;

const record: Impressum = {
  name: 'Risk & Opportunity Intelligence GmbH',
  street: 'Friedrichstrasse 100',
  city: '10117 Berlin',
  country: 'Germany',
  representative: 'Jane Doe',
  email: 'legal@example.com',
  phone: '+49 30 000000',
  register: 'HRB 123456 B, Amtsgericht Charlottenburg',
  vatId: 'DE123456789',
};

function definitionOf(label: string): HTMLElement {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
}

describe('ImpressumPage', () => {
  it('shows Loading... and the disclaimer while fetching', () => {
    server.use(
      http.get(url, async () => {
        await delay('infinite');
        return HttpResponse.json(record);
      }),
    );
    renderPage(<ImpressumPage />, '/impressum');
    expect(screen.getByRole('heading', { level: 1, name: 'Impressum' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.app.loading);
    expect(screen.getByText(DISCLAIMER_TEXT)).toBeInTheDocument();
  });

  it('shows every field of the record', async () => {
    server.use(http.get(url, () => HttpResponse.json(record)));
    renderPage(<ImpressumPage />, '/impressum');
    await screen.findByText(record.name!);
    expect(IMPRESSUM_FIELDS).toHaveLength(9);
    for (const { key, label } of IMPRESSUM_FIELDS)
      expect(definitionOf(label)).toHaveTextContent(record[key]!);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('links the email with mailto: and the phone with tel:, as Contact does', async () => {
    server.use(http.get(url, () => HttpResponse.json(record)));
    renderPage(<ImpressumPage />, '/impressum');
    const email = await screen.findByRole('link', { name: record.email! });
    expect(email).toHaveAttribute('href', 'mailto:legal@example.com');
    expect(definitionOf('Email')).toContainElement(email);
    const phone = screen.getByRole('link', { name: record.phone! });
    expect(phone).toHaveAttribute('href', 'tel:+4930000000');
    expect(definitionOf('Phone')).toContainElement(phone);
  });

  it('shows a dash for empty values', async () => {
    server.use(
      http.get(url, () => HttpResponse.json({ ...record, representative: null, vatId: '', phone: null })),
    );
    renderPage(<ImpressumPage />, '/impressum');
    await screen.findByText(record.name!);
    for (const label of ['Represented by', 'VAT identification number', 'Phone']) {
      expect(definitionOf(label)).toHaveTextContent(/^-$/);
    }
    expect(definitionOf('Street')).toHaveTextContent(record.street!);
    expect(screen.queryByRole('link', { name: '-' })).not.toBeInTheDocument();
  });

  it("shows the server's error, then the fallback 'Error loading impressum'", async () => {
    server.use(http.get(url, () => HttpResponse.json({ error: 'Database unavailable' }, { status: 500 })));
    const first = renderPage(<ImpressumPage />, '/impressum');
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    first.unmount();

    server.use(http.get(url, () => new HttpResponse(null, { status: 500 })));
    renderPage(<ImpressumPage />, '/impressum');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.impressum.loadFailed);
    expect(screen.getByText(DISCLAIMER_TEXT)).toBeInTheDocument();
  });

  it('treats a malformed answer as a load failure', async () => {
    server.use(http.get(url, () => HttpResponse.json(['not', 'a', 'record'])));
    renderPage(<ImpressumPage />, '/impressum');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.impressum.loadFailed);
  });
});
