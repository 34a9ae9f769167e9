import { MESSAGES, type Post } from '@app/contracts';
import { Link } from '@app/router';
import { Alert, Button, buttonStyles } from '@app/ui';
import { CardGrid, CardGridSkeleton } from './card-grid';
import { EmptyState } from './guest-empty-state';
import { PostCard } from './post-card';

/** My Research: the user's own posts, drafts included, each with View. The page loads them for the badge. */
export function MyResearchTab({
  posts,
  loading,
  error,
  onRetry,
}: {
  posts: Post[] | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  if (error)
    return (
      <Alert tone="error">
        {error}{' '}
        <Button size="sm" variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      </Alert>
    );
  if (loading || !posts) return <CardGridSkeleton />;
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
    <CardGrid label="My research reports">
      {posts.map((post) => (
        <PostCard key={post.id} post={post} variant="mine" />
      ))}
    </CardGrid>
  );
}
