import { Card, gridStyles, Skeleton } from '@app/ui';
import type { ReactNode } from 'react';

export function CardGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <section aria-label={label} css={gridStyles('300px')}>
      {children}
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
