import { errorMessage, isStatus } from '@app/api-client';
import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { Button } from '@app/ui';
import { css } from '@emotion/react';
import { useState } from 'react';
import { toggleLike } from '../api/post-api';

/** A toggle: aria-pressed says whether the user likes the post; the count is part of the name. */
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
      setError(
        isStatus(e, 401) ? MESSAGES.research.sessionExpired : errorMessage(e, 'Could not save your like'),
      );
    } finally {
      setBusy(false);
    }
  };

  const label = `${state.likes} ${state.likes === 1 ? 'like' : 'likes'}`;
  if (!canLike)
    return (
      <p css={css`margin: 0;`}>
        <span aria-hidden="true">♥ </span>
        {label} · <Link to="/login">Log in to like</Link>
      </p>
    );
  return (
    <div css={css`display: flex; gap: 12px; align-items: center; flex-wrap: wrap;`}>
      <Button
        variant={state.liked ? 'primary' : 'secondary'}
        aria-pressed={state.liked}
        disabled={busy}
        onClick={onClick}
      >
        <span aria-hidden="true">{state.liked ? '♥' : '♡'}</span> Like · {label}
      </Button>
      {error && (
        <span role="alert" css={(t) => css`color: ${t.color.danger};`}>
          {error}
        </span>
      )}
    </div>
  );
}
