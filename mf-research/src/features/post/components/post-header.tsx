import type { ContentType, Visibility } from '@app/contracts';
import { CONTENT_TYPES } from '@app/contracts';
import { Link } from '@app/router';
import { ArrowLeftIcon, Badge, inlineLinkStyles, LockIcon } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import type { ReactNode } from 'react';
import { VisibilityBadge } from '../../research-center';

/** The way back to the list, in the theme's link style with the shared arrow icon. */
export function BackLink() {
  return (
    <p>
      <Link
        to="/research-center"
        css={(t: Theme) =>
          css`${inlineLinkStyles(t)}; display: inline-flex; align-items: center; gap: ${t.space(1)};`
        }
      >
        <ArrowLeftIcon size={16} />
        Research Center
      </Link>
    </p>
  );
}

/**
 * The top of a post page and of a locked post's teaser: visibility and type badges (plus `badges`), the
 * title (after a lock icon when `locked`) and the byline, one item per span.
 */
export function PostHeader({
  visibility,
  contentType,
  badges,
  title,
  locked = false,
  byline,
}: {
  visibility: Visibility;
  contentType: ContentType;
  badges?: ReactNode;
  title: string;
  locked?: boolean;
  byline: ReactNode;
}) {
  return (
    <header>
      <div css={(t: Theme) => css`display: flex; flex-wrap: wrap; gap: ${t.space(2)};`}>
        <VisibilityBadge visibility={visibility} />
        <Badge>{CONTENT_TYPES.labels[contentType]}</Badge>
        {badges}
      </div>
      <h1 css={css`overflow-wrap: anywhere;`}>
        {locked && <LockIcon size={28} css={css`vertical-align: -3px; margin-right: 10px;`} />}
        {title}
      </h1>
      <p
        css={(t: Theme) => css`
          display: flex;
          flex-wrap: wrap;
          gap: ${t.space(1)} ${t.space(3)};
          color: ${t.color.textMuted};
          margin: 0;
        `}
      >
        {byline}
      </p>
    </header>
  );
}

/** The summary as the post's lead paragraph; nothing when there is none. */
export function PostSummary({ summary }: { summary: string }) {
  if (summary.trim() === '') return null;
  return (
    <p
      css={(t: Theme) => css`
        font-size: 1.15rem;
        color: ${t.color.textMuted};
        border-left: 4px solid ${t.color.primary};
        padding-left: ${t.space(4)};
        overflow-wrap: anywhere;
      `}
    >
      {summary}
    </p>
  );
}
