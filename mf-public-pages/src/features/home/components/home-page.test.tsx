import { forgetPrimedResponses, primeResponses } from '@app/api-client';
import { API_PATHS, MESSAGES, type Post } from '@app/contracts';
import { ShellActionsProvider } from '@app/shell-actions';
import { API, recordRequests, settleRequests, useApiServer } from '@app/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, HttpResponse, http } from 'msw';
import { renderPage } from '../../../test/render';
import { homeRequests } from '../api/load-home';
import { HomePage } from './home-page';
import { PREMIUM_ASSESSMENTS, UNLOCK_LABEL } from './premium-assessments';
import { VALUE_CARDS } from './value-cards';

const server = useApiServer();
const postsUrl = `${API}${API_PATHS.posts}`;
const dashboardsUrl = `${API}${API_PATHS.dashboards}`;

function makePost(id: number, over: Partial<Post> = {}): Post {
  return {
    id,
    _id: String(id),
    title: `Article ${id}`,
    summary: `Summary of article ${id}`,
    content: `Content of article ${id}`,
    excerpt: null,
    status: 'published',
    visibility: 'public',
    content_type: 'market_analysis',
    published_at: '2026-02-01T10:00:00Z',
    created_at: '2026-01-30T10:00:00Z',
    views: 3,
    likes: 0,
    liked: false,
    comment_count: 0,
    author: { id: 1, name: 'Analyst' },
    slug: `article-${id}`,
    tags: [],
    categories: [],
    ...over,
  };
}

const dashboards = [
  { slug: 'supply', title: 'Supply Chain Monitor', description: 'Lead times and freight costs.' },
  { slug: 'cyber', title: 'Cyber Threat Radar', description: 'Attacks on SMEs this month.' },
];

function section(name: string) {
  return screen.getByRole('region', { name });
}

function expectStaticSections() {
  for (const card of VALUE_CARDS)
    expect(screen.getByRole('heading', { name: card.title })).toBeInTheDocument();
  expect(screen.getAllByRole('button', { name: UNLOCK_LABEL })).toHaveLength(3);
  expect(screen.getByRole('link', { name: 'Browse Research' })).toHaveAttribute('href', '/research-center');
  expect(screen.getByRole('link', { name: 'Join for Free' })).toHaveAttribute('href', '/register');
}

describe('HomePage', () => {
  it('asks for 6 published public posts and the dashboards in parallel', async () => {
    let releaseDashboards: () => void = () => undefined;
    const dashboardsAsked = new Promise<void>((resolve) => {
      releaseDashboards = resolve;
    });
    let query: URLSearchParams | null = null;
    server.use(
      http.get(postsUrl, async ({ request }) => {
        query = new URL(request.url).searchParams;
        // Answers only once the dashboards call has also arrived: a sequential page would hang here.
        await dashboardsAsked;
        return HttpResponse.json([makePost(1)]);
      }),
      http.get(dashboardsUrl, () => {
        releaseDashboards();
        return HttpResponse.json(dashboards);
      }),
    );
    renderPage(<HomePage />);
    expect(await screen.findByRole('link', { name: 'Article 1' })).toBeInTheDocument();
    expect(query!.get('status')).toBe('published');
    expect(query!.get('visibility')).toBe('public');
    expect(query!.get('limit')).toBe('6');
  });

  it('shows fixed-size skeletons while loading, and the rest of the page at once', () => {
    server.use(
      http.get(postsUrl, async () => {
        await delay('infinite');
        return HttpResponse.json([]);
      }),
      http.get(dashboardsUrl, async () => {
        await delay('infinite');
        return HttpResponse.json([]);
      }),
    );
    renderPage(<HomePage />);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(section('Latest Insights')).toHaveAttribute('aria-busy', 'true');
    expect(section('Available Dashboards')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText(MESSAGES.home.noInsights)).not.toBeInTheDocument();
    expectStaticSections();
  });

  it('shows up to 6 articles, each with its summary or excerpt and a link to /post/{id}', async () => {
    // Lists send cards: the excerpt the server cut from the content, not the content (issue 17).
    const posts = [
      makePost(11),
      makePost(12, { summary: '', content: 'Only **content** here', excerpt: 'Only content here' }),
      ...[13, 14, 15, 16, 17].map((id) => makePost(id)),
    ];
    server.use(
      http.get(postsUrl, () => HttpResponse.json(posts)),
      http.get(dashboardsUrl, () => HttpResponse.json(dashboards)),
    );
    renderPage(<HomePage />);
    const insights = await waitFor(() => {
      const s = section('Latest Insights');
      expect(s).toHaveAttribute('aria-busy', 'false');
      return s;
    });
    const articles = within(insights).getAllByRole('article');
    expect(articles).toHaveLength(6);
    expect(within(insights).getByRole('link', { name: 'Article 11' })).toHaveAttribute('href', '/post/11');
    expect(within(insights).getByText('Summary of article 11')).toBeInTheDocument();
    expect(within(insights).getByText('Only content here')).toBeInTheDocument();
    expect(within(insights).queryByRole('link', { name: 'Article 17' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lists the dashboards with title and description', async () => {
    server.use(
      http.get(postsUrl, () => HttpResponse.json([])),
      http.get(dashboardsUrl, () => HttpResponse.json(dashboards)),
    );
    renderPage(<HomePage />);
    const list = await screen.findByRole('heading', { name: 'Supply Chain Monitor' });
    expect(list).toBeInTheDocument();
    expect(screen.getByText('Attacks on SMEs this month.')).toBeInTheDocument();
  });

  it("says 'No insights available at the moment' without articles", async () => {
    server.use(
      http.get(postsUrl, () => HttpResponse.json([])),
      http.get(dashboardsUrl, () => HttpResponse.json(dashboards)),
    );
    renderPage(<HomePage />);
    expect(await screen.findByText(MESSAGES.home.noInsights)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expectStaticSections();
  });

  it("shows the server's error with an empty article list, and the rest of the page", async () => {
    server.use(
      http.get(postsUrl, () => HttpResponse.json({ error: 'Posts are unavailable' }, { status: 500 })),
      http.get(dashboardsUrl, () => HttpResponse.json(dashboards)),
    );
    renderPage(<HomePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Posts are unavailable');
    expect(within(section('Latest Insights')).queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByText(MESSAGES.home.noInsights)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cyber Threat Radar' })).toBeInTheDocument();
    expectStaticSections();
  });

  it("falls back to 'Error loading homepage data' with empty lists", async () => {
    server.use(
      http.get(postsUrl, () => HttpResponse.error()),
      http.get(dashboardsUrl, () => new HttpResponse('oops', { status: 502 })),
    );
    renderPage(<HomePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.home.loadFailed);
    expect(screen.getByText(MESSAGES.home.noInsights)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Supply Chain Monitor' })).not.toBeInTheDocument();
    expectStaticSections();
  });

  it('asks the shell to open the survey from every locked premium card', async () => {
    server.use(
      http.get(postsUrl, () => HttpResponse.json([])),
      http.get(dashboardsUrl, () => HttpResponse.json([])),
    );
    const openSurvey = vi.fn();
    renderPage(
      <ShellActionsProvider value={{ openSurvey }}>
        <HomePage />
      </ShellActionsProvider>,
    );
    const premium = section('Premium Risk Assessments');
    const buttons = within(premium).getAllByRole('button', { name: UNLOCK_LABEL });
    expect(buttons).toHaveLength(PREMIUM_ASSESSMENTS.length);
    for (const [i, button] of buttons.entries()) {
      expect(button).toHaveAccessibleDescription(PREMIUM_ASSESSMENTS[i]!.title);
      await userEvent.click(button);
    }
    expect(openSurvey).toHaveBeenCalledTimes(3);
    await screen.findByText(MESSAGES.home.noInsights);
  });

  it('starts from the answers the server primed the page with: articles and dashboards at once, no request', async () => {
    server.use(
      http.get(postsUrl, () => HttpResponse.json([])),
      http.get(dashboardsUrl, () => HttpResponse.json([])),
    );
    const asked = recordRequests(server);
    const [posts = '', dashboardsKey = '', ...rest] = homeRequests();
    expect(rest).toEqual([]);
    // The keys are exactly what loadHome asks (the edge fetches them from the API base).
    expect(posts).toBe(`${API_PATHS.posts}?status=published&visibility=public&limit=6`);
    primeResponses({ [posts]: { body: [makePost(1), makePost(2)] }, [dashboardsKey]: { body: dashboards } });
    try {
      renderPage(<HomePage />);
      // The first render already has them: the server's picture and the live page are the same page.
      expect(within(section('Latest Insights')).getByText('Article 2')).toBeInTheDocument();
      expect(screen.getByText('Cyber Threat Radar')).toBeInTheDocument();
      // Every request the render started has reached msw once a later one has: there were none.
      await settleRequests(server, API);
      expect(asked).toEqual([]);
    } finally {
      forgetPrimedResponses();
    }
  });
});
