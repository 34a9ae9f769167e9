import { Link } from '@app/router';
import { Button, HeartIcon, inlineLinkStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useState } from 'react';
import { actionError } from '../../../lib/action-error';
import { toggleLike } from '../api/post-api';

const heartCss = (liked: boolean) => (t: Theme) =>
  css`
  flex: none;
  color: ${liked ? t.color.danger : 'currentColor'};
`;

/**
 * A toggle: aria-pressed says whether the user likes the post, and so do the filled heart and the word
 * "Liked"; the count is part of the name.
 */
export function LikeButton({
  postId,
  initialLiked,
  initialLikes,
  canLike,
}: {
  postId: number;
  initialLiked: boolean;
  initialLikes: number;
  canLike: boolean;
}) {
  const [state, setState] = useState({ liked: initialLiked, likes: initialLikes });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      setState(await toggleLike(postId));
    } catch (e) {
      setError(actionError(e, 'Could not save your like'));
    } finally {
      setBusy(false);
    }
  };

  const label = `${state.likes} ${state.likes === 1 ? 'like' : 'likes'}`;
  if (!canLike)
    return (
      <p css={css`margin: 0; display: flex; align-items: center; gap: 6px; flex-wrap: wrap;`}>
        <HeartIcon size={18} css={heartCss(false)} />
        {label} ·{' '}
        <Link to="/login" css={inlineLinkStyles}>
          Log in to like
        </Link>
      </p>
    );
  return (
    <div css={css`display: flex; gap: 12px; align-items: center; flex-wrap: wrap;`}>
      <Button
        variant="secondary"
        aria-pressed={state.liked}
        disabled={busy}
        onClick={onClick}
        css={(t: Theme) =>
          state.liked &&
          css`border-color: ${t.color.danger}; &:hover:not(:disabled) { border-color: ${t.color.danger}; }`
        }
      >
        <HeartIcon size={18} fill={state.liked ? 'currentColor' : 'none'} css={heartCss(state.liked)} />
        {state.liked ? 'Liked' : 'Like'} · {label}
      </Button>
      {error && (
        <span role="alert" css={(t) => css`color: ${t.color.danger};`}>
          {error}
        </span>
      )}
    </div>
  );
}
