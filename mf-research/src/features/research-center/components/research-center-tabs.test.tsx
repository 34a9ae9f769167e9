import { API_PATHS } from '@app/contracts';
import { useNavigate } from '@app/router';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderWithProviders } from '../../../test/render';
import { loginAs, server, url } from '../../../test/server';
import { ResearchCenterPage } from './research-center-page';

/** The browser's Back and Forward buttons, as the router sees them. */
function HistoryButtons() {
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => navigate(-1)}>
        Browser back
      </button>
      <button type="button" onClick={() => navigate(1)}>
        Browser forward
      </button>
    </>
  );
}

const title = (screenName: string) => `${screenName} | Risk & Opportunity Intelligence`;

describe('Research Center tabs in the URL', () => {
  beforeEach(() => {
    loginAs([]);
    server.use(
      http.get(url(API_PATHS.posts), () => HttpResponse.json([])),
      http.get(url(API_PATHS.myPosts), () => HttpResponse.json([])),
      http.get(url(API_PATHS.tags), () => HttpResponse.json([])),
      http.get(url(API_PATHS.categories), () => HttpResponse.json([])),
      http.get(url(API_PATHS.stats), () =>
        HttpResponse.json({ total: 0, published: 0, drafts: 0, views: 0, by_content_type: {} }),
      ),
    );
  });

  it('puts each tab in ?tab=, names it in the browser tab, and Back/Forward move between tabs', async () => {
    const { user } = renderWithProviders(
      <>
        <ResearchCenterPage />
        <HistoryButtons />
      </>,
      '/research-center',
    );
    await waitFor(() => expect(document.title).toBe(title('Research Center')));

    await user.click(await screen.findByRole('tab', { name: 'Analytics' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/research-center?tab=analytics');
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(document.title).toBe(title('Research Analytics')));

    await user.click(screen.getByRole('tab', { name: /My Research/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/research-center?tab=my');
    await waitFor(() => expect(document.title).toBe(title('My Research')));

    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/research-center?tab=analytics');
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/research-center$/);
    expect(screen.getByRole('tab', { name: 'Explore Research' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('button', { name: 'Browser forward' }));
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the tab a link names', async () => {
    renderWithProviders(<ResearchCenterPage />, '/research-center?tab=analytics');
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
  });
});
