import { MESSAGES } from '@app/contracts';
import { ShellActionsProvider } from '@app/shell-actions';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { gridColumnsByMedia } from '../../../test/css-rules';
import { renderPage } from '../../../test/render';
import { AboutPage } from './about-page';

describe('AboutPage', () => {
  it('introduces the company and every part of the product', () => {
    renderPage(<AboutPage />, '/about');
    expect(
      screen.getByRole('heading', { level: 1, name: `About ${MESSAGES.app.companyName}` }),
    ).toBeInTheDocument();
    // Spelled out rather than read from the page's own list: an emptied list must fail here.
    for (const title of ['Research', 'Dashboards', 'Market assessment', 'Membership tiers']) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeInTheDocument();
    }
    for (const title of ['Relevant to your size', 'Evidence, not alarm', 'Action over information']) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeInTheDocument();
    }
    expect(document.title).toBe(`About | ${MESSAGES.app.companyName}`);
  });

  it('leads on to research and contact, and asks the shell to open the survey', async () => {
    const openSurvey = vi.fn();
    renderPage(
      <ShellActionsProvider value={{ openSurvey }}>
        <AboutPage />
      </ShellActionsProvider>,
      '/about',
    );
    expect(screen.getByRole('link', { name: 'Browse Research' })).toHaveAttribute('href', '/research-center');
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
    await userEvent.click(screen.getByRole('button', { name: 'Start Free Assessment' }));
    expect(openSurvey).toHaveBeenCalledTimes(1);
  });

  it('fills every grid row: four offerings 1, 2 or 4 across, three principles 1 or 3 across', () => {
    renderPage(<AboutPage />, '/about');
    const columnCounts = (heading: string) => {
      const item = screen.getByRole('heading', { level: 3, name: heading }).closest('article, li')!;
      return Object.values(gridColumnsByMedia(item.parentElement!))
        .map((v) => /repeat\((\d+)/.exec(v)?.[1] ?? '1')
        .sort();
    };
    expect(columnCounts('Research')).toEqual(['1', '2', '4']);
    expect(columnCounts('Relevant to your size')).toEqual(['1', '3']);
  });
});
