import { Card, gridStyles, renderWhenNear, Skeleton, visuallyHiddenStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type ReactNode, type Ref, useId } from 'react';

/** On a phone 2 of Explore's up to 50 cards are on screen: the rest wait (340px: an average card). */
const listCss = (t: Theme) => css`
  ${gridStyles('300px')(t)};
  & > * {
    ${renderWhenNear('340px')};
  }
`;

/**
 * A titled list of cards. The title is an h2 for screen readers only: the cards' titles are h3, and a page
 * must not jump from its h1 to h3 (the outline, and Lighthouse's heading-order audit).
 */
export function CardGrid({
  children,
  label,
  ref,
}: {
  children: ReactNode;
  label: string;
  /** The section, for Load more to find the first card it added (each card carries data-post-id). */
  ref?: Ref<HTMLElement>;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} ref={ref}>
      <h2 id={id} css={visuallyHiddenStyles}>
        {label}
      </h2>
      <div css={listCss}>{children}</div>
    </section>
  );
}

/** Fixed-size placeholders while a list loads, so the cards arriving do not shift the page. */
export function CardGridSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div aria-busy="true" aria-label="Loading research" role="status" css={gridStyles('300px')}>
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} aria-hidden="true">
          <Skeleton width="40%" height="20px" />
          <Skeleton height="26px" />
          <Skeleton height="60px" />
          <Skeleton width="60%" height="16px" />
        </Card>
      ))}
    </div>
  );
}
