import { API_PATHS } from '@app/contracts';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderWithProviders } from '../../../test/render';
import { loginAs, server, url } from '../../../test/server';
import { LikeButton } from './like-button';

describe('LikeButton', () => {
  it('shows a Liked state: pressed, the word and a filled heart, and back', async () => {
    loginAs([]);
    let liked = false;
    server.use(
      http.post(url(API_PATHS.postLike(4)), () => {
        liked = !liked;
        return HttpResponse.json({ liked, likes: liked ? 1 : 0 });
      }),
    );
    const { user } = renderWithProviders(
      <LikeButton postId={4} initialLiked={false} initialLikes={0} canLike />,
    );
    const like = screen.getByRole('button', { name: 'Like · 0 likes' });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    expect(like.querySelector('svg')).toHaveAttribute('fill', 'none');
    expect(like).not.toHaveTextContent('♥');

    await user.click(like);
    const unlike = await screen.findByRole('button', { name: 'Liked · 1 like' });
    expect(unlike).toHaveAttribute('aria-pressed', 'true');
    expect(unlike.querySelector('svg')).toHaveAttribute('fill', 'currentColor');
    expect(unlike.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');

    await user.click(unlike);
    expect(await screen.findByRole('button', { name: 'Like · 0 likes' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('starts liked when the post says so, and invites a guest to log in without a glyph', () => {
    const { unmount } = renderWithProviders(<LikeButton postId={4} initialLiked initialLikes={3} canLike />);
    expect(screen.getByRole('button', { name: 'Liked · 3 likes' })).toHaveAttribute('aria-pressed', 'true');
    unmount();
    renderWithProviders(<LikeButton postId={4} initialLiked={false} initialLikes={3} canLike={false} />);
    expect(screen.getByText(/3 likes/)).not.toHaveTextContent('♥');
    expect(screen.getByRole('link', { name: 'Log in to like' })).toHaveAttribute('href', '/login');
  });
});
