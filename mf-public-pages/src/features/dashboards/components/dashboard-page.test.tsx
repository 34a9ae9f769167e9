import { API_PATHS, type DashboardDetail } from '@app/contracts';
import { API, useApiServer } from '@app/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import App from '../../../app';
import { renderPage } from '../../../test/render';
import { DASHBOARD_LOAD_FAILED, DASHBOARD_NOT_FOUND } from './dashboard-page';

const server = useApiServer();

const dashboard: DashboardDetail = {
  slug: 'supply-chain-monitor',
  title: 'Supply Chain Monitor',
  description: 'Lead times, freight rates and supplier distress signals.',
  indicators: [
    {
      id: 'freight',
      title: 'Container freight rate',
      unit: 'USD',
      description: 'Spot price for a 40-foot container.',
      points: [
        { period: '2025-04', value: 2850 },
        { period: '2025-05', value: 5240 },
        { period: '2025-06', value: 3180 },
      ],
    },
    {
      id: 'distress',
      title: 'Suppliers in distress',
      unit: '%',
      description: 'Share of tracked suppliers in trouble.',
      points: [
        { period: '2025-04', value: 7.5 },
        { period: '2025-05', value: 7.1 },
        { period: '2025-06', value: 6.4 },
      ],
    },
  ],
};

function answer(slug: string, status: number, body: object) {
  server.use(http.get(`${API}${API_PATHS.dashboard(slug)}`, () => HttpResponse.json(body, { status })));
}

describe('DashboardPage', () => {
  it('charts every indicator, each chart named and described by its summary in words', async () => {
    answer('supply-chain-monitor', 200, dashboard);
    renderPage(<App />, '/dashboards/supply-chain-monitor');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Supply Chain Monitor' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Supply Chain Monitor \|/));
    expect(screen.getByText(/Demo data, monthly from Apr 2025 to Jun 2025/)).toBeInTheDocument();

    const charts = screen.getAllByRole('img');
    expect(charts).toHaveLength(2);
    const freight = screen.getByRole('img', {
      name: 'Container freight rate, line chart of 3 months from Apr 2025 to Jun 2025',
    });
    expect(freight.tagName.toLowerCase()).toBe('svg');
    expect(freight).toHaveAccessibleDescription(
      'Container freight rate rose from 2,850 USD in Apr 2025 to 3,180 USD in Jun 2025, up 330 USD. ' +
        'Highest: 5,240 USD in May 2025. Lowest: 2,850 USD in Apr 2025.',
    );
    // The summary is on screen too, not only for screen readers.
    expect(screen.getByText(/^Container freight rate rose from/)).toBeVisible();
    expect(screen.getByRole('img', { name: /^Suppliers in distress/ })).toHaveAccessibleDescription(
      /fell from 7.5% in Apr 2025 to 6.4% in Jun 2025, down 1.1 percentage points/,
    );

    const card = screen.getByRole('article', { name: 'Suppliers in distress' });
    // The latest value leads the card.
    expect(
      within(card).getByText((_, el) => el?.tagName === 'P' && el.textContent === '6.4% in Jun 2025'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('lists every value in a table on request', async () => {
    answer('supply-chain-monitor', 200, dashboard);
    renderPage(<App />, '/dashboards/supply-chain-monitor');
    const card = await screen.findByRole('article', { name: 'Container freight rate' });
    await userEvent.click(within(card).getByText('Show the data'));
    const table = within(card).getByRole('table', { name: 'Container freight rate, monthly values' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[2]!).getByRole('rowheader')).toHaveTextContent('May 2025');
    expect(within(rows[2]!).getByRole('cell')).toHaveTextContent('5,240 USD');
  });

  it('says an indicator has no data instead of drawing an empty chart', async () => {
    answer('empty', 200, {
      ...dashboard,
      slug: 'empty',
      indicators: [{ ...dashboard.indicators[0]!, points: [] }],
    });
    renderPage(<App />, '/dashboards/empty');
    expect(await screen.findByText('No data for this indicator yet.')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it("says 'Dashboard not found' for an unknown dashboard, in the heading and the page title", async () => {
    answer('no-such-thing', 404, { error: 'Dashboard not found' });
    renderPage(<App />, '/dashboards/no-such-thing');
    expect(await screen.findByRole('heading', { level: 1, name: DASHBOARD_NOT_FOUND })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Dashboard not found \|/));
    expect(screen.getByRole('link', { name: 'Back to Home' })).toBeInTheDocument();
  });

  it("shows the server's error, or 'Error loading dashboard'", async () => {
    answer('risk-radar', 500, { error: 'Series store offline' });
    const first = renderPage(<App />, '/dashboards/risk-radar');
    expect(await screen.findByRole('alert')).toHaveTextContent('Series store offline');
    first.unmount();

    server.use(http.get(`${API}${API_PATHS.dashboard('risk-radar')}`, () => HttpResponse.error()));
    renderPage(<App />, '/dashboards/risk-radar');
    expect(await screen.findByRole('alert')).toHaveTextContent(DASHBOARD_LOAD_FAILED);
  });
});
