import { API_PATHS, MESSAGES, type Post } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderApp } from '../../../test/render';
import { loginAs, makePost, server, url } from '../../../test/server';
import { makeTeaser } from '../../../test/teaser';

/** Answers the Explore list with `posts` and records every list request's query. */
function mockExplore(posts: Post[] | (() => Response)) {
  const requests: URLSearchParams[] = [];
  server.use(
    http.get(url(API_PATHS.posts), ({ request }) => {
      requests.push(new URL(request.url).searchParams);
      return typeof posts === 'function' ? posts() : HttpResponse.json(posts);
    }),
    http.get(url(API_PATHS.tags), () => HttpResponse.json([{ name: 'cyber', count: 2 }])),
    http.get(url(API_PATHS.categories), () => HttpResponse.json([{ name: 'Europe', count: 1 }])),
  );
  return requests;
}

function mockMine(posts: Post[]) {
  server.use(http.get(url(API_PATHS.myPosts), () => HttpResponse.json(posts)));
}

describe('Research Center — Explore', () => {
  it('asks a guest for published public posts only and shows every card field', async () => {
    const requests = mockExplore([
      makePost({
        id: 1,
        title: 'Supply chain risk',
        excerpt: 'A short excerpt',
        visibility: 'public',
        content_type: 'threat_intel',
        published_at: '2026-11-21T12:00:00.000Z',
        author: { id: 3, name: 'Grace Hopper' },
        views: 42,
      }),
      makePost({
        id: 2,
        title: '',
        // Lists carry no content: the card falls back to the summary, cut to 120 characters.
        excerpt: null,
        summary: 'c'.repeat(200),
        published_at: null,
        author: { name: null },
      }),
      makePost({ id: 3, title: 'Bad date', published_at: 'garbage' }),
    ]);
    renderApp('/research-center');
    const first = await screen.findByRole('article', { name: 'Supply chain risk' });
    expect(requests[0]?.get('status')).toBe('published');
    expect(requests[0]?.getAll('visibility')).toEqual(['public']);

    expect(within(first).getByText('Public')).toBeInTheDocument();
    expect(within(first).getByText('Threat Intelligence')).toBeInTheDocument();
    expect(within(first).getByRole('heading', { name: 'Supply chain risk' })).toBeInTheDocument();
    // The outline goes h1 → h2 (the list, for screen readers) → h3 (each card), never h1 → h3.
    expect(screen.getByRole('heading', { level: 2, name: 'Research reports' })).toBeInTheDocument();
    expect(within(first).getByRole('heading', { level: 3 })).toHaveTextContent('Supply chain risk');
    expect(within(first).getByText('A short excerpt')).toBeInTheDocument();
    expect(within(first).getByText('Nov 21, 2026')).toBeInTheDocument();
    expect(within(first).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(first).getByText('42 views')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Read Supply chain risk' })).toHaveAttribute(
      'href',
      '/post/1',
    );

    const untitled = screen.getByRole('article', { name: MESSAGES.research.untitled });
    expect(within(untitled).getByText('c'.repeat(120))).toBeInTheDocument();
    expect(within(untitled).getByText(MESSAGES.research.noDate)).toBeInTheDocument();
    expect(within(untitled).getByText(MESSAGES.research.anonymous)).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: 'Bad date' })).getByText('Invalid date'),
    ).toBeInTheDocument();

    // Guests: tier badge 'Guest', only the Explore tab, no New Research.
    expect(screen.getByLabelText('Your tier: Guest')).toHaveTextContent('Guest');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Explore Research']);
    expect(screen.queryByRole('link', { name: 'New Research' })).not.toBeInTheDocument();
  });

  it.each([
    [[], 'Basic Member', ['public']],
    [['paid-tier-1'], 'Premium', ['public', 'members_only']],
    [['paid-tier-2'], 'Premium Pro', ['public', 'members_only', 'paid-tier-1']],
    [['admin'], 'Administrator', ['public', 'members_only', 'paid-tier-1', 'paid-tier-2', 'private']],
  ])(
    'asks a member with roles %j (%s) for exactly the §6 visibilities, once the profile is known',
    async (roles, label, expected) => {
      loginAs(roles);
      mockMine([]);
      const requests = mockExplore([makePost({ title: 'Anything' })]);
      renderApp('/research');
      await screen.findByRole('article', { name: 'Anything' });
      expect(requests).toHaveLength(1);
      expect(requests[0]?.getAll('visibility')).toEqual(expected);
      expect(screen.getByLabelText(`Your tier: ${label}`)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'New Research' })).toHaveAttribute('href', '/create-post');
    },
  );

  it('shows the teasers the API sends: Upgrade (to /plans) for a member, Log In and Sign Up for a guest', async () => {
    loginAs([]);
    mockMine([]);
    mockExplore(() => HttpResponse.json([makeTeaser({ id: 9, title: 'Pro only' })]));
    const { unmount } = renderApp('/research-center');
    const card = await screen.findByRole('article', { name: 'Pro only' });
    expect(within(card).getByText('This research requires a Premium Pro subscription.')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Upgrade to read Pro only' })).toHaveAttribute(
      'href',
      '/plans',
    );
    expect(within(card).queryByRole('link', { name: /Read/ })).not.toBeInTheDocument();
    unmount();
    localStorage.clear();

    const requests = mockExplore(() =>
      HttpResponse.json([
        makeTeaser({ id: 10, title: 'Members', visibility: 'members_only', required_tier: 'basic' }),
      ]),
    );
    renderApp('/research-center');
    const guestCard = await screen.findByRole('article', { name: 'Members' });
    expect(requests[0]?.get('teasers')).toBe('1');
    expect(
      within(guestCard).getByText('This research is for members. Log in or sign up free to read it.'),
    ).toBeInTheDocument();
    expect(within(guestCard).getByRole('link', { name: 'Log In to read Members' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(within(guestCard).getByRole('link', { name: 'Sign Up to read Members' })).toHaveAttribute(
      'href',
      '/register',
    );
  });

  it('does not lock the user’s own post', async () => {
    loginAs([], { id: 7 });
    mockMine([]);
    mockExplore([makePost({ title: 'Mine', visibility: 'paid-tier-2', author: { id: 7, name: 'Me' } })]);
    renderApp('/research-center');
    const card = await screen.findByRole('article', { name: 'Mine' });
    expect(within(card).getByRole('link', { name: 'Read Mine' })).toBeInTheDocument();
  });

  it('offers Sign Up Free and Log In to guests when there is nothing to show', async () => {
    mockExplore([]);
    renderApp('/research-center');
    expect(await screen.findByRole('link', { name: 'Sign Up Free' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it('searches with /api/posts/search and filters by type, tag and category', async () => {
    const searches: URLSearchParams[] = [];
    server.use(
      http.get(url(API_PATHS.searchPosts), ({ request }) => {
        searches.push(new URL(request.url).searchParams);
        return HttpResponse.json([makePost({ title: 'Found it' })]);
      }),
    );
    const requests = mockExplore([makePost({ title: 'Default list' })]);
    const { user } = renderApp('/research-center');
    await screen.findByRole('article', { name: 'Default list' });

    await user.type(screen.getByRole('searchbox', { name: 'Search research' }), 'ransomware');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('article', { name: 'Found it' });
    expect(searches[0]?.get('q')).toBe('ransomware');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByRole('article', { name: 'Default list' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Content type' }), 'osint');
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Tag' }), 'cyber');
    await waitFor(() => expect(requests.at(-1)?.get('tag')).toBe('cyber'));
    const last = requests.at(-1)!;
    expect(last.get('content_type')).toBe('osint');
    expect(last.getAll('visibility')).toEqual([]);
  });

  it('shows the server error, or the research fallback, when the list fails', async () => {
    mockExplore(() => HttpResponse.json({ error: 'Database is down' }, { status: 500 }));
    const { unmount } = renderApp('/research-center');
    expect(await screen.findByRole('alert')).toHaveTextContent('Database is down');
    unmount();
    mockExplore(() => new HttpResponse(null, { status: 502 }));
    renderApp('/research-center');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.research.loadFailed);
  });

  it('on a 401 shows the session-expired message, clears the token and falls back to the guest view', async () => {
    loginAs(['paid-tier-1']);
    server.use(
      http.get(url(API_PATHS.myPosts), () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
    );
    mockExplore([makePost({ title: 'Public one' })]);
    renderApp('/research-center');
    expect(await screen.findByText(MESSAGES.research.sessionExpired)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    await waitFor(() => expect(screen.getAllByRole('tab')).toHaveLength(1));
    expect(screen.getByLabelText('Your tier: Guest')).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Public one' })).toBeInTheDocument();
  });
});

describe('Research Center — My Research and Analytics', () => {
  it('shows the session-expired notice when a 401 ends the session on a members-only tab', async () => {
    loginAs([]);
    mockExplore([]);
    mockMine([]);
    server.use(
      http.get(url(API_PATHS.stats), () => HttpResponse.json({ error: 'Unauthorized' }, { status: 401 })),
    );
    renderApp('/research-center?tab=analytics');
    // The Analytics tab disappears with the session; the page still says why.
    expect(await screen.findByText(MESSAGES.research.sessionExpired)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Explore Research']);
    expect(screen.queryByText(MESSAGES.research.loginToView)).not.toBeInTheDocument();
  });

  it('tells a guest to log in to view their research', async () => {
    mockExplore([]);
    renderApp('/research-center?tab=my');
    expect(await screen.findByText(MESSAGES.research.loginToView)).toBeInTheDocument();
  });

  it('shows the count badge, the own posts with View, and the empty state', async () => {
    loginAs([]);
    mockExplore([]);
    mockMine([
      makePost({ id: 5, title: 'My draft', status: 'draft', published_at: null }),
      makePost({ id: 6, title: 'My published' }),
    ]);
    const { user } = renderApp('/research-center');
    const tab = await screen.findByRole('tab', { name: /My Research/ });
    await waitFor(() => expect(tab).toHaveTextContent('My Research2'));
    await user.click(tab);
    const draft = await screen.findByRole('article', { name: 'My draft' });
    expect(within(draft).getByText('Draft')).toBeInTheDocument();
    expect(within(draft).getByRole('link', { name: 'View My draft' })).toHaveAttribute('href', '/post/5');
    expect(screen.getByTestId('location')).toHaveTextContent('/research-center?tab=my');
  });

  it("offers 'Create First Research Report' when the user has none", async () => {
    loginAs([]);
    mockExplore([]);
    mockMine([]);
    renderApp('/research-center?tab=my');
    expect(await screen.findByRole('link', { name: MESSAGES.research.createFirst })).toHaveAttribute(
      'href',
      '/create-post',
    );
  });

  it('shows totals, four categories and account info', async () => {
    loginAs(['paid-tier-1'], { email: 'ana@example.com', created_at: '2025-03-04T10:00:00.000Z' });
    mockExplore([]);
    mockMine([]);
    server.use(
      http.get(url(API_PATHS.stats), () =>
        HttpResponse.json({
          total: 7,
          published: 5,
          drafts: 2,
          views: 1234,
          by_content_type: {
            research_report: 3,
            threat_intel: 2,
            market_analysis: 1,
            osint: 0,
            case_study: 1,
            technical: 0,
          },
        }),
      ),
    );
    renderApp('/research-center?tab=analytics');
    const overview = await screen.findByRole('region', { name: 'Overview' });
    await within(overview).findByText('1,234');
    const value = (region: HTMLElement, label: string) =>
      within(region).getByText(label).closest('dl')?.querySelector('dd')?.textContent;
    expect(value(overview, 'Total Reports')).toBe('7');
    expect(value(overview, 'Published')).toBe('5');
    expect(value(overview, 'Drafts')).toBe('2');
    expect(value(overview, 'Total Views')).toBe('1,234');
    const categories = screen.getByRole('region', { name: 'By Category' });
    expect(
      within(categories)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Research Report', 'Threat Intelligence', 'Market Analysis', 'OSINT Analysis']);
    expect(value(categories, 'Threat Intelligence')).toBe('2');
    expect(value(categories, 'OSINT Analysis')).toBe('0');
    const account = screen.getByRole('region', { name: 'Account' });
    expect(within(account).getByText('Premium')).toBeInTheDocument();
    expect(within(account).getByText('Public, member and Premium research')).toBeInTheDocument();
    expect(within(account).getByText('Mar 4, 2025')).toBeInTheDocument();
    expect(within(account).getByText('ana@example.com')).toBeInTheDocument();
  });
});
