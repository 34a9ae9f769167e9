import { useSession } from '@app/session';
import { Alert, Button } from '@app/ui';
import { useState } from 'react';
import { useAsync } from '../../../lib/use-async';
import { type ExploreFilters, fetchExplore, hasFilters, NO_FILTERS } from '../api/research-api';
import { CardGrid, CardGridSkeleton } from './card-grid';
import { ExploreFiltersBar } from './explore-filters';
import { EmptyState, GuestEmptyState } from './guest-empty-state';
import { PostCard } from './post-card';
import { useLoadError } from './use-load-error';

/**
 * Explore Research: the §6 list, search and filters (docs/decisions/0007-explore-visibilities.md), with
 * the posts above the visitor's tier as teasers, so the research sells what an upgrade opens.
 */
export function ExploreTab() {
  const session = useSession();
  const [filters, setFilters] = useState<ExploreFilters>(NO_FILTERS);
  // §6 adds tiers only "for a logged-in user with a profile": wait for the profile rather than ask twice.
  const ready =
    !session.isLoggedIn || session.profileStatus === 'loaded' || session.profileStatus === 'error';
  const visibilities = session.exploreVisibilities();
  const key = visibilities.join(',');
  const list = useAsync(
    (signal) => fetchExplore(visibilities, filters, signal),
    [key, filters, session.token],
    ready,
  );
  const loadError = useLoadError(list.error);

  const isGuest = !session.isLoggedIn;
  const posts = list.data ?? [];

  return (
    <div>
      <ExploreFiltersBar filters={filters} onChange={setFilters} />
      {loadError && (
        <Alert tone="error">
          {loadError}{' '}
          <Button size="sm" variant="secondary" onClick={list.reload}>
            Try again
          </Button>
        </Alert>
      )}
      {!ready || (list.status === 'loading' && !list.data) ? (
        <CardGridSkeleton />
      ) : list.status === 'error' && !list.data ? null : posts.length === 0 ? (
        hasFilters(filters) ? (
          <EmptyState
            title="No research found"
            text="No research matches your search. Try other words or filters."
          />
        ) : isGuest ? (
          <GuestEmptyState />
        ) : (
          <EmptyState title="No research yet" text="Nothing has been published for your tier yet." />
        )
      ) : (
        <>
          <p role="status" css={{ margin: '0 0 12px' }}>
            {posts.length === 1 ? '1 report' : `${posts.length} reports`}
          </p>
          <CardGrid label="Research reports">
            {posts.map((post) => (
              // The server decides what is locked: a post above the tier arrives as a teaser.
              <PostCard key={post.id} post={post} variant="explore" />
            ))}
          </CardGrid>
        </>
      )}
    </div>
  );
}
