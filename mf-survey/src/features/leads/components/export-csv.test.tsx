import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { useApiServer } from '@app/test-utils';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { filtersOf, loginAs, renderLeads, serveLeads, url } from '../../../test/leads-fixtures';
import { csvFileName } from '../hooks/use-csv-export';

const server = useApiServer();
const CSV = "id,company\r\n1,\"'=cmd|' /C calc'!A0\"\r\n";

/** jsdom has no object URLs and no downloads: what the browser would save is caught here. */
function catchDownloads() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const href = `blob:test/${blobs.size}`;
    blobs.set(href, blob);
    return href;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href) as Blob });
  });
  return saved;
}

afterEach(() => vi.restoreAllMocks());

describe('CSV export', () => {
  it('asks for exactly the filters of the table, with the token, and saves the file', async () => {
    loginAs(server, ['admin']);
    serveLeads(server, 1234);
    const csvQueries: URLSearchParams[] = [];
    const auth: (string | null)[] = [];
    server.use(
      http.get(url(ADMIN_PATHS.leadsCsv), ({ request }) => {
        csvQueries.push(new URL(request.url).searchParams);
        auth.push(request.headers.get('authorization'));
        return new HttpResponse(CSV, { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      }),
    );
    const saved = catchDownloads();
    const { user } = renderLeads(
      '/admin/leads?consultation=yes&contacted=no&companySize=10-50&from=2026-11-01&page=3',
    );
    const button = await screen.findByRole('button', { name: 'Export CSV (1,234 leads)' });
    await user.click(button);

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(filtersOf(csvQueries[0])).toEqual({
      consultation: 'yes',
      contacted: 'no',
      companySize: '10-50',
      from: '2026-11-01',
    });
    // Every matching lead, not one page of them.
    expect(csvQueries[0]?.has('page')).toBe(false);
    expect(auth).toEqual(['Bearer test-token']);
    expect(saved[0]?.name).toBe(csvFileName());
    expect(await saved[0]?.blob.text()).toBe(CSV);
    expect(screen.getByRole('button', { name: 'Export CSV (1,234 leads)' })).toBeEnabled();
  });

  it("shows the API's error when the export is refused", async () => {
    loginAs(server, ['admin']);
    serveLeads(server, 5);
    server.use(
      http.get(url(ADMIN_PATHS.leadsCsv), () =>
        HttpResponse.json({ error: 'Too many exports, try again in a minute' }, { status: 429 }),
      ),
    );
    const saved = catchDownloads();
    const { user } = renderLeads();
    await user.click(await screen.findByRole('button', { name: 'Export CSV (5 leads)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many exports, try again in a minute');
    expect(saved).toEqual([]);
  });
});
