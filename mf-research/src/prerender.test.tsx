import { forgetPrimedResponses, primeResponses } from '@app/api-client';
import { API_PATHS, NEXT_CURSOR_HEADER } from '@app/contracts';
import { settleRequests } from '@app/test-utils';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { serverRequests } from './prerender';
import { renderApp } from './test/render';
import { API, loginAs, makePost, server, url } from './test/server';
import { makeTeaser } from './test/teaser';

// The edge fetches serverRequests(path) as a guest and primes the page with the answers
// (docs/decisions/0021-first-screen-with-data.md). These keys must be exactly what the screens ask for,
// or the live page would ask again and show a skeleton over the picture.

/** Records every request the Research Center makes on arrival. */
function recordArrival() {
  const asked: string[] = [];
  const record = ({ request }: { request: Request }) => {
    const u = new URL(request.url);
    asked.push(`${u.pathname}${u.search}`);
    return HttpResponse.json([]);
  };
  server.use(
    http.get(url(API_PATHS.posts), record),
    http.get(url(API_PATHS.tags), record),
    http.get(url(API_PATHS.categories), record),
  );
  return asked;
}

/** The server's answers to a guest's arrival: one card, a next page, one tag, one category. */
function primeArrival() {
  const [list, tags, categories, ...rest] = serverRequests('/research-center') ?? [];
  expect(rest).toEqual([]);
  primeResponses({
    [list ?? '']: {
      body: [makePost({ title: 'Primed card' })],
      headers: { [NEXT_CURSOR_HEADER.toLowerCase()]: 'next-1' },
    },
    [tags ?? '']: { body: [{ name: 'cyber', count: 2 }] },
    [categories ?? '']: { body: [{ name: 'Europe', count: 1 }] },
  });
}

afterEach(forgetPrimedResponses);

describe('the Research Center rendered from primed answers', () => {
  it('names the requests a guest arrives with: Explore’s first page, tags, categories', () => {
    expect(serverRequests('/research-center')).toEqual([
      `${API_PATHS.posts}?status=published&visibility=public&teasers=1&limit=50`,
      API_PATHS.tags,
      API_PATHS.categories,
    ]);
    expect(serverRequests('/about')).toBeNull();
  });

  it("shows a guest the server's cards, Load more and the filters in its first render, and asks nothing", async () => {
    const asked = recordArrival();
    primeArrival();
    renderApp('/research-center');
    // No waiting: the first render already has them (the server's picture is the same page).
    expect(screen.getByRole('heading', { name: 'Primed card' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Load more/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'cyber (2)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Europe (1)' })).toBeInTheDocument();
    // Every request the render started has reached msw once a later one has: there were none.
    await settleRequests(server, API);
    expect(asked).toEqual([]);
  });

  it('never gives a member the answers a guest was primed with', async () => {
    const asked = recordArrival();
    loginAs(['paid-tier-1']);
    // A member's Research Center also loads their own posts (the My Research tab's count).
    server.use(http.get(url(API_PATHS.myPosts), () => HttpResponse.json([])));
    primeArrival();
    renderApp('/research-center');
    expect(screen.queryByRole('heading', { name: 'Primed card' })).not.toBeInTheDocument();
    await waitFor(() => expect(asked.some((q) => q.startsWith(`${API_PATHS.posts}?`))).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Primed card' })).not.toBeInTheDocument();
  });
});

describe('a post page rendered from a primed answer', () => {
  it('names the one request a post’s page is made from: the post, by the id or slug in the path', () => {
    expect(serverRequests('/post/7')).toEqual([API_PATHS.post(7)]);
    expect(serverRequests('/post/market-outlook')).toEqual([API_PATHS.post('market-outlook')]);
    expect(serverRequests('/post/7/edit')).toBeNull();
    expect(serverRequests('/post/')).toBeNull();
  });

  it('shows a guest the post in its first render, then reads it once to count the visit', async () => {
    const reads: string[] = [];
    server.use(
      http.get(url(API_PATHS.post(7)), ({ request }) => {
        reads.push(request.headers.get('authorization') ?? 'guest');
        return HttpResponse.json(
          makePost({ id: 7, title: 'Primed post', content: 'Body **text**', views: 4 }),
        );
      }),
      http.get(url(API_PATHS.postComments(7)), () => HttpResponse.json([])),
    );
    const [key = ''] = serverRequests('/post/7') ?? [];
    primeResponses({
      [key]: { body: makePost({ id: 7, title: 'Primed post', content: 'Body **text**', views: 3 }) },
    });
    renderApp('/post/7');
    // No waiting: the first render is the server's picture.
    expect(screen.getByRole('heading', { level: 1, name: 'Primed post' })).toBeInTheDocument();
    expect(screen.getByText('text').tagName).toBe('STRONG');
    expect(screen.getByText('3 views')).toBeInTheDocument();
    // The primed read was a prefetch (no view counted): the page's own read counts it, and shows the count.
    expect(await screen.findByText('4 views')).toBeInTheDocument();
    expect(reads).toEqual(['guest']);
    expect(screen.getByRole('heading', { level: 1, name: 'Primed post' })).toBeInTheDocument();
  });

  it('keeps the post shown when that background read fails', async () => {
    let failed = 0;
    server.use(
      http.get(url(API_PATHS.post(7)), () => {
        failed += 1;
        return HttpResponse.json({ error: 'down' }, { status: 500 });
      }),
      http.get(url(API_PATHS.postComments(7)), () => HttpResponse.json([])),
    );
    const [key = ''] = serverRequests('/post/7') ?? [];
    primeResponses({ [key]: { body: makePost({ id: 7, title: 'Primed post', views: 3 }) } });
    renderApp('/post/7');
    // The read was refused…
    await waitFor(() => expect(failed).toBe(1));
    // …and the screen has taken the refusal in: a request started after it has gone all the way through
    // the same client (its answer parsed) and back, which is further than the refusal had left to go.
    await settleRequests(server, API);
    expect(screen.getByRole('heading', { level: 1, name: 'Primed post' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('never makes a teaser the first screen: the picture may be shown to a member, who can read the post', async () => {
    server.use(http.get(url(API_PATHS.post(500)), () => HttpResponse.json(makeTeaser())));
    primeResponses({ [API_PATHS.post(500)]: { body: makeTeaser() } });
    renderApp('/post/500');
    // The first render (the server's picture) is the loading state, not "locked"…
    expect(screen.queryByText(/requires a Premium Pro subscription/)).not.toBeInTheDocument();
    // …which the live page, which knows who is looking, shows once it has asked.
    expect(await screen.findByText(/requires a Premium Pro subscription/)).toBeInTheDocument();
  });
});
