import { API_PATHS, RATE_LIMIT_MESSAGES, rateLimitMessage } from '@app/contracts';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderWithProviders } from '../../../test/render';
import { loginAs, server, url } from '../../../test/server';
import { CommentsSection } from './comments-section';
import { LikeButton } from './like-button';

describe('over a rate limit (429)', () => {
  it('a comment shows the server message where it was written and keeps the text', async () => {
    loginAs([]);
    const error = rateLimitMessage(RATE_LIMIT_MESSAGES.comment, 420);
    server.use(
      http.get(url(API_PATHS.postComments(7)), () => HttpResponse.json([])),
      http.post(url(API_PATHS.postComments(7)), () =>
        HttpResponse.json({ error }, { status: 429, headers: { 'Retry-After': '420' } }),
      ),
    );
    const { user } = renderWithProviders(<CommentsSection postId={7} />);
    expect(await screen.findByText('No comments yet.')).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Add a comment' });
    await user.type(box, 'A thought worth keeping');
    await user.click(screen.getByRole('button', { name: 'Post comment' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are commenting too quickly. Please try again in 7 minutes.',
    );
    expect(box).toHaveValue('A thought worth keeping');
    expect(screen.getByText('No comments yet.')).toBeInTheDocument();
  });

  it('a like shows the server message and the count stays as it was', async () => {
    loginAs([]);
    const error = rateLimitMessage(RATE_LIMIT_MESSAGES.like, 30);
    server.use(http.post(url(API_PATHS.postLike(4)), () => HttpResponse.json({ error }, { status: 429 })));
    const { user } = renderWithProviders(
      <LikeButton postId={4} initialLiked={false} initialLikes={2} canLike />,
    );
    await user.click(screen.getByRole('button', { name: 'Like · 2 likes' }));
    expect(
      await screen.findByText('You are liking too quickly. Please try again in 30 seconds.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Like · 2 likes' })).toHaveAttribute('aria-pressed', 'false');
  });
});
