import {
  CONTENT_TYPES,
  formatDate,
  isTeaser,
  POST_STATUSES,
  type PostCardOrTeaser,
  type PostTeaser,
} from '@app/contracts';
import { Link } from '@app/router';
import { Badge, buttonStyles, Card, LockIcon, VisuallyHidden } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { authorOf, excerptOf, titleOf, viewsText } from '../../../lib/format';
import { LockedActions, LockNotice } from './locked-actions';
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

const titleCss = (t: Theme) => css`margin: 0; font-size: ${t.font.h3};`;
const actionsCss = (t: Theme) => css`margin-top: auto; padding-top: ${t.space(2)};`;

export type CardVariant = 'explore' | 'mine';

/**
 * A post above the visitor's tier, as the API sent it (no content): its badges, title, summary and the
 * lock message with the way up (SPEC §2's locked state; Log In and Sign Up, or Upgrade).
 */
function TeaserCard({ post }: { post: PostTeaser }) {
  const title = titleOf(post);
  return (
    <Card aria-label={title} data-post-id={post.id}>
      <div css={headCss}>
        <VisibilityBadge visibility={post.visibility} />
        <Badge>{CONTENT_TYPES.labels[post.content_type]}</Badge>
      </div>
      <h3 css={titleCss}>
        <LockIcon size={18} css={css`vertical-align: -2px; margin-right: 6px;`} />
        {title}
      </h3>
      {post.summary.trim() !== '' && <p css={css`margin: 0; overflow-wrap: anywhere;`}>{post.summary}</p>}
      <p css={metaCss}>
        <span>{formatDate(post.published_at)}</span>
        <span>{authorOf(post)}</span>
      </p>
      <div
        css={(t: Theme) => css`
          ${actionsCss(t)};
          display: flex;
          flex-direction: column;
          gap: ${t.space(2)};
          align-items: flex-start;
        `}
      >
        <LockNotice visibility={post.visibility} />
        <LockedActions about={title} />
      </div>
    </Card>
  );
}

/**
 * One research card (SPEC §2). Explore cards end with Read, or, for a teaser (a post above the visitor's
 * tier), a lock message with Log In and Sign Up (guest) or Upgrade (member). My Research cards show the
 * status and View.
 */
export function PostCard({ post, variant }: { post: PostCardOrTeaser; variant: CardVariant }) {
  if (isTeaser(post)) return <TeaserCard post={post} />;
  const title = titleOf(post);
  const date = variant === 'mine' ? (post.published_at ?? post.created_at) : post.published_at;
  return (
    <Card aria-label={title} data-post-id={post.id}>
      <div css={headCss}>
        <VisibilityBadge visibility={post.visibility} />
        <Badge>{CONTENT_TYPES.labels[post.content_type]}</Badge>
        {variant === 'mine' && (
          <Badge tone={post.status === 'published' ? 'success' : 'neutral'}>
            {POST_STATUSES.labels[post.status]}
          </Badge>
        )}
      </div>
      <h3 css={titleCss}>{title}</h3>
      <p css={css`margin: 0; overflow-wrap: anywhere;`}>{excerptOf(post)}</p>
      <p css={metaCss}>
        <span>{formatDate(date)}</span>
        <span>{authorOf(post)}</span>
        <span>{viewsText(post.views)}</span>
      </p>
      <div css={actionsCss}>
        {variant === 'mine' ? (
          <Link to={`/post/${post.id}`} css={buttonStyles('secondary', 'sm')}>
            View <VisuallyHidden>{title}</VisuallyHidden>
          </Link>
        ) : (
          <Link to={`/post/${post.id}`} css={buttonStyles('primary', 'sm')}>
            Read <VisuallyHidden>{title}</VisuallyHidden>
          </Link>
        )}
      </div>
    </Card>
  );
}
