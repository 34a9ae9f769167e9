import { screen, within } from '@testing-library/react';
import { gridColumnsByMedia } from '../../../test/css-rules';
import { renderPage } from '../../../test/render';
import { DashboardsSection } from './dashboards-section';

const four = ['risk-radar', 'market-pulse', 'supply-chain-monitor', 'threat-landscape'].map((slug) => ({
  slug,
  title: `Title of ${slug}`,
  description: `About ${slug}.`,
}));

describe('DashboardsSection', () => {
  it('makes every card a link to its dashboard page, named by the title', () => {
    renderPage(<DashboardsSection dashboards={four} loading={false} />);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(4);
    for (const d of four) {
      const link = screen.getByRole('link', { name: d.title });
      expect(link).toHaveAttribute('href', `/dashboards/${d.slug}`);
      expect(within(link.closest('article')!).getByText(d.description)).toBeInTheDocument();
    }
  });

  it('lays four dashboards out 1, 2 or 4 across, never 3 and a lonely fourth', () => {
    renderPage(<DashboardsSection dashboards={four} loading={false} />);
    const columns = gridColumnsByMedia(screen.getByRole('list'));
    const counts = Object.values(columns).map((v) => /repeat\((\d+)/.exec(v)?.[1] ?? '1');
    expect(counts.sort()).toEqual(['1', '2', '4']);
    expect(columns.all).toBe('minmax(0, 1fr)');
  });

  it('lays three out 1 or 3 across', () => {
    renderPage(<DashboardsSection dashboards={four.slice(0, 3)} loading={false} />);
    const counts = Object.values(gridColumnsByMedia(screen.getByRole('list'))).map(
      (v) => /repeat\((\d+)/.exec(v)?.[1] ?? '1',
    );
    expect(counts.sort()).toEqual(['1', '3']);
  });

  it('keeps four card-sized placeholders while loading', () => {
    renderPage(<DashboardsSection dashboards={[]} loading={true} />);
    const region = screen.getByRole('region', { name: 'Available Dashboards' });
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
