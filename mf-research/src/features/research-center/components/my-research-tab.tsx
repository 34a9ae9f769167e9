import { MESSAGES, type PostCard as PostCardData } from '@app/contracts';
import { Link } from '@app/router';
import { buttonStyles, LoadErrorAlert } from '@app/ui';
import { useRef } from 'react';
import type { PagedList } from '../hooks/use-paged-list';
import { CardGrid, CardGridSkeleton } from './card-grid';
import { EmptyState } from './guest-empty-state';
import { LoadMore } from './load-more';
import { PostCard } from './post-card';

/**
 * My Research: the user's own posts, drafts included, each with View, and Load more while the server has
 * older ones. The page loads the list (its first page feeds the tab's count badge).
 */
export function MyResearchTab({ list }: { list: PagedList<PostCardData> }) {
  const gridRef = useRef<HTMLElement>(null);
  if (list.firstStatus === 'error')
    return (
      <LoadErrorAlert
        error={list.firstError}
        fallback={MESSAGES.research.loadFailed}
        onRetry={list.reloadFirst}
      />
    );
  const posts = list.items;
  if (!posts) return <CardGridSkeleton />;
  if (posts.length === 0)
    return (
      <EmptyState
        title="You have not written any research yet"
        text="Share your first analysis with the community."
      >
        <Link to="/create-post" css={buttonStyles('primary')}>
          {MESSAGES.research.createFirst}
        </Link>
      </EmptyState>
    );
  return (
    <>
      <CardGrid label="My research reports" ref={gridRef}>
        {posts.map((post) => (
          <PostCard key={post.id} post={post} variant="mine" />
        ))}
      </CardGrid>
      <LoadMore list={list} listRef={gridRef} />
    </>
  );
}
