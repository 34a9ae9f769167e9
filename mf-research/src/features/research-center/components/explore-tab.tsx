import { MESSAGES } from '@app/contracts';
import { useSession } from '@app/session';
import { LoadErrorAlert, VisuallyHidden } from '@app/ui';
import { useRef, useState } from 'react';
import { type ExploreFilters, fetchExplore, hasFilters, NO_FILTERS, peekExplore } from '../api/research-api';
import { usePagedList } from '../hooks/use-paged-list';
import { CardGrid, CardGridSkeleton } from './card-grid';
import { ExploreFiltersBar } from './explore-filters';
import { EmptyState, GuestEmptyState } from './guest-empty-state';
import { LoadMore, moreLoadedText } from './load-more';
import { PostCard } from './post-card';

/**
 * The count line. While more pages exist the total is unknown (the API pages by cursor and sends no
 * total), so it says what is shown rather than claim a total it does not know.
 */
function countText(count: number, hasMore: boolean): string {
  const reports = count === 1 ? '1 report' : `${count} reports`;
  return hasMore ? `Showing ${reports}` : reports;
}

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
  // A new filter or search (or session) loads its first page and drops the pages loaded before it.
  const list = usePagedList(
    (cursor, signal) => fetchExplore(visibilities, filters, cursor, signal),
    [key, filters, session.token],
    ready,
    () => peekExplore(visibilities, filters),
  );
  const gridRef = useRef<HTMLElement>(null);

  const isGuest = !session.isLoggedIn;
  const posts = list.items ?? [];

  return (
    <div>
      <ExploreFiltersBar filters={filters} onChange={setFilters} />
      <LoadErrorAlert
        error={list.firstError}
        fallback={MESSAGES.research.loadFailed}
        onRetry={list.reloadFirst}
      />
      {!ready || (list.firstStatus !== 'error' && !list.items) ? (
        <CardGridSkeleton />
      ) : list.firstStatus === 'error' && !list.items ? null : posts.length === 0 ? (
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
            {countText(posts.length, list.hasMore)}
            {list.lastLoad && <VisuallyHidden>{`, ${moreLoadedText(list.lastLoad.added)}`}</VisuallyHidden>}
          </p>
          <CardGrid label="Research reports" ref={gridRef}>
            {posts.map((post) => (
              // The server decides what is locked: a post above the tier arrives as a teaser.
              <PostCard key={post.id} post={post} variant="explore" />
            ))}
          </CardGrid>
          {/* Search results arrive ranked, best first: shown in that order, pages appended as they come. */}
          <LoadMore list={list} listRef={gridRef} announce={false} />
        </>
      )}
    </div>
  );
}
