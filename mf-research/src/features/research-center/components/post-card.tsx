import { CONTENT_TYPES, POST_STATUSES, type Post } from '@app/contracts';
import { Link } from '@app/router';
import { useShellActions } from '@app/shell-actions';
import { Badge, Button, buttonStyles, Card, VisuallyHidden } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { authorOf, excerptOf, formatDate, titleOf, viewsText } from '../../../lib/format';
import { lockMessage } from '../../../lib/lock-text';
import { VisibilityBadge } from './visibility-badge';

const metaCss = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(1)} ${t.space(3)};
  margin: 0;
  color: ${t.color.textMuted};
  font-size: ${t.font.small};
`;

const headCss = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(2)};
  align-items: center;
`;

export type CardVariant = 'explore' | 'mine';

/**
 * One research card (SPEC §2). Explore cards end with Read, or, when the user may not open the post, a
 * lock message with Login (guest) or Upgrade (logged in). My Research cards show the status and View.
 */
export function PostCard({
  post,
  variant,
  locked = false,
  isGuest = false,
}: {
  post: Post;
  variant: CardVariant;
  locked?: boolean;
  isGuest?: boolean;
}) {
  const { openSurvey } = useShellActions();
  const title = titleOf(post);
  const date = variant === 'mine' ? (post.published_at ?? post.created_at) : post.published_at;
  return (
    <Card aria-label={title}>
      <div css={headCss}>
        <VisibilityBadge visibility={post.visibility} />
        <Badge>{CONTENT_TYPES.labels[post.content_type]}</Badge>
        {variant === 'mine' && (
          <Badge tone={post.status === 'published' ? 'success' : 'neutral'}>
            {POST_STATUSES.labels[post.status]}
          </Badge>
        )}
      </div>
      <h3 css={(t: Theme) => css`margin: 0; font-size: ${t.font.h3};`}>{title}</h3>
      {locked ? null : <p css={css`margin: 0; overflow-wrap: anywhere;`}>{excerptOf(post)}</p>}
      <p css={metaCss}>
        <span>{formatDate(date)}</span>
        <span>{authorOf(post)}</span>
        <span>{viewsText(post.views)}</span>
      </p>
      <div css={(t: Theme) => css`margin-top: auto; padding-top: ${t.space(2)};`}>
        {variant === 'mine' ? (
          <Link to={`/post/${post.id}`} css={buttonStyles('secondary', 'sm')}>
            View <VisuallyHidden>{title}</VisuallyHidden>
          </Link>
        ) : locked ? (
          <div
            css={(t: Theme) =>
              css`display: flex; flex-direction: column; gap: ${t.space(2)}; align-items: flex-start;`
            }
          >
            <p css={(t: Theme) => css`margin: 0; color: ${t.color.warning}; font-weight: 600;`}>
              <span aria-hidden="true">🔒 </span>
              {lockMessage(post.visibility)}
            </p>
            {isGuest ? (
              <Link to="/login" css={buttonStyles('primary', 'sm')}>
                Login <VisuallyHidden>to read {title}</VisuallyHidden>
              </Link>
            ) : (
              <Button size="sm" onClick={openSurvey}>
                Upgrade <VisuallyHidden>to read {title}</VisuallyHidden>
              </Button>
            )}
          </div>
        ) : (
          <Link to={`/post/${post.id}`} css={buttonStyles('primary', 'sm')}>
            Read <VisuallyHidden>{title}</VisuallyHidden>
          </Link>
        )}
      </div>
    </Card>
  );
}
