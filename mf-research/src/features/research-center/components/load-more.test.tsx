import { API_PATHS, MESSAGES, type Post } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderApp } from '../../../test/render';
import { loginAs, makePost, server, url } from '../../../test/server';

type Answer = Post[] | (() => Response | Promise<Response>);

/**
 * Serves a cursor-paged list: pages[0] without a cursor, pages[n] for `cursor=c<n>`, each with
 * X-Next-Cursor while a later page exists (the API's contract). Records every request's query.
 */
function mockPaged(path: string, pages: Answer[]) {
  const requests: URLSearchParams[] = [];
  server.use(
    http.get(url(path), ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push(params);
      const index = params.has('cursor') ? Number(params.get('cursor')?.slice(1)) : 0;
      const page = pages[index];
      if (!page) return HttpResponse.json({ error: 'Unknown cursor' }, { status: 400 });
      if (typeof page === 'function') return page();
      const headers: Record<string, string> =
        index + 1 < pages.length ? { 'X-Next-Cursor': `c${index + 1}` } : {};
      return HttpResponse.json(page, { headers });
    }),
  );
  return requests;
}

function mockTerms() {
  server.use(
    http.get(url(API_PATHS.tags), () => HttpResponse.json([])),
    http.get(url(API_PATHS.categories), () => HttpResponse.json([])),
  );
}

const titles = () => screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'));
const posts = (...names: string[]) => names.map((title) => makePost({ title }));
const loadMore = () => screen.getByRole('button', { name: 'Load more reports' });

describe('Load more — Explore', () => {
  it('shows no Load more when the answer has no next cursor', async () => {
    mockTerms();
    mockPaged(API_PATHS.posts, [posts('Only A', 'Only B')]);
    renderApp('/research-center');
    await screen.findByRole('article', { name: 'Only A' });
    expect(screen.getByText('2 reports')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /load more/i })).not.toBeInTheDocument();
  });

  it('appends the next page, says what it loaded, and moves focus to the first new card at the end', async () => {
    mockTerms();
    const requests = mockPaged(API_PATHS.posts, [posts('A', 'B'), posts('C', 'D'), posts('E')]);
    const { user } = renderApp('/research-center');
    await screen.findByRole('article', { name: 'A' });
    // The total is unknown while more pages exist: the count says what is shown.
    expect(screen.getByText('Showing 2 reports')).toBeInTheDocument();

    await user.click(loadMore());
    await screen.findByRole('article', { name: 'D' });
    expect(titles()).toEqual(['A', 'B', 'C', 'D']);
    expect(requests[1]?.get('cursor')).toBe('c1');
    // The same request, only the cursor added.
    expect(requests[1]?.getAll('visibility')).toEqual(['public']);
    expect(requests[1]?.get('limit')).toBe('50');
    const count = screen.getByText('Showing 4 reports');
    expect(count).toHaveAttribute('role', 'status');
    expect(count).toHaveTextContent('Showing 4 reports, 2 more reports loaded');
    // More remains: the button stays, and keeps focus.
    expect(loadMore()).toHaveFocus();

    await user.click(loadMore());
    await screen.findByRole('article', { name: 'E' });
    expect(titles()).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(screen.getByText('5 reports')).toBeInTheDocument();
    expect(screen.getByText(', 1 more report loaded')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /load more/i })).not.toBeInTheDocument();
    // The button went away with the last page: focus goes to the first card it added, not to <body>.
    expect(screen.getByRole('article', { name: 'E' })).toHaveFocus();
  });

  it('shows a post that moved between pages only once', async () => {
    mockTerms();
    const [a, b, c] = posts('A', 'B', 'C');
    mockPaged(API_PATHS.posts, [
      [a!, b!],
      [b!, c!],
    ]);
    const { user } = renderApp('/research-center');
    await screen.findByRole('article', { name: 'A' });
    await user.click(loadMore());
    await screen.findByRole('article', { name: 'C' });
    expect(titles()).toEqual(['A', 'B', 'C']);
    expect(screen.getByText('3 reports')).toBeInTheDocument();
  });

  it('is busy while the page loads, and a failed page keeps what was loaded and offers Try again', async () => {
    mockTerms();
    let release: () => void = () => undefined;
    let fail = true;
    mockPaged(API_PATHS.posts, [
      posts('A', 'B'),
      async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return fail
          ? HttpResponse.json({ error: 'Database is busy' }, { status: 503 })
          : HttpResponse.json(posts('C'));
      },
    ]);
    const { user } = renderApp('/research-center');
    await screen.findByRole('article', { name: 'A' });

    await user.click(loadMore());
    const busy = await screen.findByRole('button', { name: 'Loading… more reports' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    expect(busy).toHaveFocus();
    release();

    expect(await screen.findByRole('alert')).toHaveTextContent('Database is busy');
    expect(titles()).toEqual(['A', 'B']);
    const retry = screen.getByRole('button', { name: 'Try again to load more reports' });
    expect(retry).toHaveFocus();

    fail = false;
    await user.click(retry);
    release();
    await screen.findByRole('article', { name: 'C' });
    expect(titles()).toEqual(['A', 'B', 'C']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the research fallback when a failed page has no error text', async () => {
    mockTerms();
    mockPaged(API_PATHS.posts, [posts('A'), () => new HttpResponse(null, { status: 502 })]);
    const { user } = renderApp('/research-center');
    await screen.findByRole('article', { name: 'A' });
    await user.click(loadMore());
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.research.loadFailed);
    expect(titles()).toEqual(['A']);
  });

  it('starts again from the first page when the search changes, keeping the ranked order', async () => {
    mockTerms();
    const lists = mockPaged(API_PATHS.posts, [posts('A', 'B'), posts('C')]);
    const searches: URLSearchParams[] = [];
    server.use(
      http.get(url(API_PATHS.searchPosts), ({ request }) => {
        const params = new URL(request.url).searchParams;
        searches.push(params);
        // Ranked best first by the server; the second page is the weaker matches.
        if (params.get('cursor') === 's1') return HttpResponse.json(posts('Weak match'));
        return HttpResponse.json(posts('Best match', 'Good match'), { headers: { 'X-Next-Cursor': 's1' } });
      }),
    );
    const { user } = renderApp('/research-center');
    await screen.findByRole('article', { name: 'A' });
    await user.click(loadMore());
    await screen.findByRole('article', { name: 'C' });

    await user.type(screen.getByRole('searchbox', { name: 'Search research' }), 'ransomware');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('article', { name: 'Best match' });
    expect(searches[0]?.has('cursor')).toBe(false);
    expect(titles()).toEqual(['Best match', 'Good match']);
    expect(screen.getByText('Showing 2 reports')).toBeInTheDocument();

    await user.click(loadMore());
    await screen.findByRole('article', { name: 'Weak match' });
    expect(searches[1]?.get('cursor')).toBe('s1');
    expect(searches[1]?.get('q')).toBe('ransomware');
    expect(titles()).toEqual(['Best match', 'Good match', 'Weak match']);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(titles()).toEqual(['A', 'B']));
    expect(lists.at(-1)?.has('cursor')).toBe(false);
    expect(loadMore()).toBeInTheDocument();
  });
});

describe('Load more — My Research', () => {
  it('appends older own posts, announces them, and counts "2+" in the badge while more exist', async () => {
    loginAs([]);
    const requests = mockPaged(API_PATHS.myPosts, [posts('Mine 1', 'Mine 2'), posts('Mine 3')]);
    const { user } = renderApp('/research-center?tab=my');
    await screen.findByRole('article', { name: 'Mine 1' });
    expect(screen.getByLabelText('2+ reports')).toHaveTextContent('2+');

    await user.click(loadMore());
    await screen.findByRole('article', { name: 'Mine 3' });
    expect(requests[1]?.get('cursor')).toBe('c1');
    expect(requests[1]?.get('limit')).toBe('100');
    expect(titles()).toEqual(['Mine 1', 'Mine 2', 'Mine 3']);
    expect(screen.getByText('1 more report loaded')).toBeInTheDocument();
    expect(screen.getByLabelText('3 reports')).toHaveTextContent('3');
    const card = screen.getByRole('article', { name: 'Mine 3' });
    expect(card).toHaveFocus();
    expect(within(card).getByRole('link', { name: 'View Mine 3' })).toBeInTheDocument();
  });

  it('shows no Load more for a single page', async () => {
    loginAs([]);
    mockPaged(API_PATHS.myPosts, [posts('Only mine')]);
    renderApp('/research-center?tab=my');
    await screen.findByRole('article', { name: 'Only mine' });
    expect(screen.queryByRole('button', { name: /load more/i })).not.toBeInTheDocument();
    expect(screen.getByLabelText('1 report')).toHaveTextContent('1');
  });
});
