import { API_PATHS, type Comment, MESSAGES, type Post } from '@app/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderApp } from '../../../test/render';
import { loginAs, makePost, server, url } from '../../../test/server';
import { makeTeaser } from '../../../test/teaser';

function makeComment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: 1,
    post_id: 1,
    content: 'Great read',
    author: { id: 50, name: 'Someone Else' },
    created_at: '2026-11-21T12:00:00.000Z',
    updated_at: '2026-11-21T12:00:00.000Z',
    likes: 0,
    liked: false,
    ...overrides,
  };
}

function mockPost(post: Post, comments: Comment[] = []) {
  server.use(
    http.get(url(API_PATHS.post(post.id)), () => HttpResponse.json(post)),
    http.get(url(API_PATHS.postComments(post.id)), () => HttpResponse.json(comments)),
  );
}

describe('Post page', () => {
  it('shows title, meta, summary, rendered Markdown, tags and categories', async () => {
    mockPost(
      makePost({
        id: 1,
        title: 'Port congestion',
        summary: 'Why ships wait',
        content: '## Findings\n\n- **Delays** up 20%\n\n[source](https://example.com)',
        content_type: 'market_analysis',
        visibility: 'members_only',
        author: { id: 2, name: 'Ada' },
        views: 12,
        tags: ['shipping', 'asia'],
        categories: ['Logistics'],
      }),
    );
    renderApp('/post/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Port congestion' })).toBeInTheDocument();
    expect(screen.getByText('Market Analysis')).toBeInTheDocument();
    expect(screen.getByText('Members')).toBeInTheDocument();
    expect(screen.getByText('By Ada')).toBeInTheDocument();
    expect(screen.getByText('Nov 21, 2026')).toBeInTheDocument();
    expect(screen.getByText('12 views')).toBeInTheDocument();
    expect(screen.getByText('Why ships wait')).toBeInTheDocument();
    const content = screen.getByRole('region', { name: 'Research content' });
    expect(within(content).getByRole('heading', { level: 2, name: 'Findings' })).toBeInTheDocument();
    expect(within(content).getByRole('link', { name: 'source' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    expect(screen.getByText('#shipping')).toBeInTheDocument();
    expect(screen.getByText('Logistics')).toBeInTheDocument();
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    // A guest sees no author tools and is invited to log in to like and comment.
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to like' })).toHaveAttribute('href', '/login');
  });

  it('renders hostile Markdown harmlessly', async () => {
    mockPost(
      makePost({
        id: 1,
        content:
          'Hello <script>window.__pwned=1</script>\n\n<img src=x onerror="window.__pwned=2">\n\n[click](javascript:alert(1))',
      }),
    );
    renderApp('/post/1');
    const content = await screen.findByRole('region', { name: 'Research content' });
    // Raw HTML shows as text: no script or img element, no handler or javascript: URL in any attribute.
    expect(content.querySelector('script, img')).toBeNull();
    const attributes = [...content.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].map((a) => `${a.name}=${a.value}`),
    );
    expect(attributes.join(' ')).not.toMatch(/\bon[a-z]+=|javascript:/i);
    expect(content).toHaveTextContent('<img src=x onerror="window.__pwned=2">');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('shows the teaser of a post above a guest’s tier: title, type, summary, lock message, Log In and Sign Up', async () => {
    server.use(http.get(url(API_PATHS.post('500')), () => HttpResponse.json(makeTeaser())));
    renderApp('/post/500');
    const h1 = await screen.findByRole('heading', { level: 1, name: 'Pro outlook' });
    // The lock in the H1 is an SVG icon (the emoji rendered as a box without an emoji font).
    expect(h1.querySelector('svg')).not.toBeNull();
    expect(h1.textContent).not.toContain('🔒');
    expect(screen.getByText('Premium Pro')).toBeInTheDocument();
    expect(screen.getByText('Market Analysis')).toBeInTheDocument();
    expect(screen.getByText('What the next quarter holds for logistics.')).toBeInTheDocument();
    expect(screen.getByText('This research requires a Premium Pro subscription.')).toBeInTheDocument();
    const main = screen.getByRole('region', { name: 'Unlock this research' });
    expect(within(main).getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(within(main).getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
    expect(screen.queryByRole('link', { name: 'Upgrade' })).not.toBeInTheDocument();
    // No content area, no likes, no comments: none of them exist for a teaser.
    expect(screen.queryByLabelText('Research content')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /like/i })).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Pro outlook \(locked\) \| /));
  });

  it('offers a member Upgrade on a teaser, leading to the Plans page', async () => {
    loginAs([]);
    server.use(
      http.get(url(API_PATHS.post('500')), () =>
        HttpResponse.json(makeTeaser({ visibility: 'paid-tier-1', required_tier: 'premium' })),
      ),
    );
    const { user } = renderApp('/post/500');
    const upgrade = await screen.findByRole('link', { name: 'Upgrade' });
    expect(screen.getByText('This research requires a Premium subscription.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log In' })).not.toBeInTheDocument();
    await user.click(upgrade);
    expect(screen.getByTestId('location')).toHaveTextContent('/plans');
  });

  it('shows a generic locked page for a 403 and a not-found page for a 404', async () => {
    server.use(
      http.get(url(API_PATHS.post('5')), () =>
        HttpResponse.json({ error: 'This research requires a higher subscription tier' }, { status: 403 }),
      ),
      http.get(url(API_PATHS.post('6')), () =>
        HttpResponse.json({ error: 'Post not found' }, { status: 404 }),
      ),
    );
    const { unmount } = renderApp('/post/5');
    expect(await screen.findByRole('heading', { name: 'Locked research' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/register');
    unmount();
    renderApp('/post/6');
    expect(await screen.findByRole('heading', { name: 'Research not found' })).toBeInTheDocument();
  });

  it('shows the server error or the research fallback on other failures', async () => {
    server.use(http.get(url(API_PATHS.post('7')), () => new HttpResponse(null, { status: 500 })));
    renderApp('/post/7');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.research.loadFailed);
  });

  it('toggles the like and shows the count', async () => {
    loginAs([]);
    mockPost(makePost({ id: 1, likes: 2, liked: false }));
    let liked = false;
    server.use(
      http.post(url(API_PATHS.postLike(1)), () => {
        liked = !liked;
        return HttpResponse.json({ liked, likes: liked ? 3 : 2 });
      }),
    );
    const { user } = renderApp('/post/1');
    const button = await screen.findByRole('button', { name: 'Like · 2 likes' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await user.click(button);
    expect(await screen.findByRole('button', { name: 'Liked · 3 likes' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'Liked · 3 likes' }));
    expect(await screen.findByRole('button', { name: 'Like · 2 likes' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('adds, edits and deletes the user’s own comment, and only their own', async () => {
    loginAs([], { id: 7 });
    mockPost(makePost({ id: 1, author: { id: 2, name: 'Ada' } }), [makeComment({ id: 1 })]);
    const posted: unknown[] = [];
    server.use(
      http.post(url(API_PATHS.postComments(1)), async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json(
          makeComment({ id: 2, content: 'My view', author: { id: 7, name: 'Mia Member' } }),
          {
            status: 201,
          },
        );
      }),
      http.put(url(API_PATHS.comment(2)), async ({ request }) => {
        const { content } = (await request.json()) as { content: string };
        return HttpResponse.json(
          makeComment({
            id: 2,
            content,
            author: { id: 7, name: 'Mia Member' },
            updated_at: '2026-11-22T00:00:00Z',
          }),
        );
      }),
      http.delete(url(API_PATHS.comment(2)), () => new HttpResponse(null, { status: 204 })),
    );
    const { user } = renderApp('/post/1');
    const others = await screen.findByRole('listitem', { name: 'Comment by Someone Else' });
    expect(within(others).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText('Comment cannot be empty')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'My view');
    await user.click(screen.getByRole('button', { name: 'Post comment' }));
    const mine = await screen.findByRole('listitem', { name: 'Comment by Mia Member' });
    expect(posted).toEqual([{ content: 'My view' }]);
    expect(screen.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');

    await user.click(within(mine).getByRole('button', { name: 'Edit' }));
    const editBox = within(mine).getByRole('textbox', { name: 'Edit comment' });
    await user.clear(editBox);
    await user.type(editBox, 'Changed my mind');
    await user.click(within(mine).getByRole('button', { name: 'Save comment' }));
    expect(await within(mine).findByText('Changed my mind')).toBeInTheDocument();

    await user.click(within(mine).getByRole('button', { name: 'Delete' }));
    await user.click(within(mine).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Comment by Mia Member' })).not.toBeInTheDocument(),
    );
  });

  it('keeps a comment that failed to post and shows why', async () => {
    loginAs([]);
    mockPost(makePost({ id: 1 }));
    server.use(
      http.post(url(API_PATHS.postComments(1)), () =>
        HttpResponse.json({ error: 'Slow down' }, { status: 429 }),
      ),
    );
    const { user } = renderApp('/post/1');
    const box = await screen.findByRole('textbox', { name: 'Add a comment' });
    await user.type(box, 'Keep me');
    await user.click(screen.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText('Slow down')).toBeInTheDocument();
    expect(box).toHaveValue('Keep me');
  });

  it('gives the author Edit, Publish, visibility and Delete with confirmation', async () => {
    // A Premium author may publish up to Premium, not Premium Pro or Admin Only (decision 0011).
    loginAs(['paid-tier-1'], { id: 7 });
    const draft = makePost({
      id: 1,
      title: 'My draft',
      status: 'draft',
      published_at: null,
      author: { id: 7, name: 'Me' },
    });
    mockPost(draft);
    let deleted = false;
    server.use(
      http.put(url(API_PATHS.postPublish(1)), () =>
        HttpResponse.json({ ...draft, status: 'published', published_at: '2026-11-21T12:00:00.000Z' }),
      ),
      http.put(url(API_PATHS.postVisibility(1)), async ({ request }) => {
        const { visibility } = (await request.json()) as { visibility: Post['visibility'] };
        return HttpResponse.json({ ...draft, status: 'published', visibility });
      }),
      http.delete(url(API_PATHS.post(1)), () => {
        deleted = true;
        return new HttpResponse(null, { status: 204 });
      }),
      // Where a deleted post's author lands: My Research.
      http.get(url(API_PATHS.myPosts), () => HttpResponse.json([])),
      http.get(url(API_PATHS.posts), () => HttpResponse.json([])),
      http.get(url(API_PATHS.tags), () => HttpResponse.json([])),
      http.get(url(API_PATHS.categories), () => HttpResponse.json([])),
    );
    const { user } = renderApp('/post/1');
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/post/1/edit');
    expect(screen.getByText('Draft')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Published. Readers can now find it in Explore.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Publish' })).not.toBeInTheDocument();

    const visibility = screen.getByRole('combobox', { name: 'Visibility' });
    await waitFor(() =>
      expect(
        within(visibility)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Public', 'Members', 'Premium']),
    );
    await user.selectOptions(visibility, 'paid-tier-1');
    await user.click(screen.getByRole('button', { name: 'Change visibility' }));
    expect(await screen.findByText('Visibility changed to Premium.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this research?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete research' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/research-center?tab=my'));
    expect(deleted).toBe(true);
  });
});
