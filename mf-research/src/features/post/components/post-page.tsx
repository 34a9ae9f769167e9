import { isStatus } from '@app/api-client';
import { can, formatDate, isTeaser, MESSAGES, POST_STATUSES } from '@app/contracts';
import { useParams } from '@app/router';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Badge, Container, LoadErrorAlert, SessionExpiredNotice, Skeleton, usePageTitle } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { authorOf, titleOf, viewsText } from '../../../lib/format';
import { peekPost, readPost } from '../api/post-api';
import { AuthorActions } from './author-actions';
import { CommentsSection } from './comments-section';
import { LikeButton } from './like-button';
import { MarkdownView } from './markdown-view';
import { BackLink, PostHeader, PostSummary } from './post-header';
import { LockedPostPage, MissingPostPage } from './post-status-page';

const chipsCss = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(2)};
  padding: 0;
  margin: 0;
  list-style: none;
`;

/** The tab names the post once it is shown (a child, so the locked and missing pages name themselves). */
function PostTitle({ title }: { title: string }) {
  usePageTitle(title);
  return null;
}

/**
 * /post/:id — a post by id or slug (the API counts a view on each load). Above the visitor's tier the API
 * sends a teaser instead, shown as the locked page.
 *
 * A guest's first visit starts from the answer the edge rendered the page from (primed into it,
 * docs/decisions/0022-post-page-rendered-per-request.md): the post shows at once, with no skeleton. That
 * read was a prefetch and counted no view, so the page reads the post itself as well (`refresh`), in the
 * background: the visit is counted once, and the count shown is brought up to date.
 */
export function PostPage() {
  const { id = '' } = useParams();
  const session = useSession();
  const result = useServerState(
    (signal) => readPost(id, signal),
    [id, session.token],
    true,
    () => peekPost(id),
    { refresh: true },
  );
  // While another id loads, the previous post must not show under the new address.
  const data = result.data && (String(result.data.id) === id || result.data.slug === id) ? result.data : null;
  const teaser = data && isTeaser(data) ? data : null;
  const post = data && !isTeaser(data) ? data : null;

  if (teaser) return <LockedPostPage teaser={teaser} />;
  if (isStatus(result.error, 403)) return <LockedPostPage />;
  if (isStatus(result.error, 404)) return <MissingPostPage />;

  const expiredAlert = session.sessionExpired && <SessionExpiredNotice />;

  // After a 401 the post loads again as a guest (the token is a dependency): no error page in between.
  // A failed background read (counting a primed visit) leaves the post shown.
  if (result.status === 'error' && !isStatus(result.error, 401) && !post)
    return (
      <Container>
        <h1>Research</h1>
        <LoadErrorAlert
          error={result.error}
          fallback={MESSAGES.research.loadFailed}
          onRetry={result.reload}
        />
      </Container>
    );

  if (!post)
    return (
      <Container aria-busy="true">
        {expiredAlert}
        <Skeleton width="30%" height="22px" />
        <div css={css`height: 16px;`} />
        <Skeleton height="44px" />
        <div css={css`height: 16px;`} />
        <Skeleton height="240px" />
      </Container>
    );

  const isAuthor = can({ id: session.profile?.id, roles: session.roles }, 'edit', post);

  return (
    <Container>
      <PostTitle title={titleOf(post)} />
      {expiredAlert}
      <BackLink />
      <article css={css`max-width: 800px;`}>
        <PostHeader
          visibility={post.visibility}
          contentType={post.content_type}
          badges={post.status === 'draft' && <Badge tone="warning">{POST_STATUSES.labels.draft}</Badge>}
          title={titleOf(post)}
          byline={
            <>
              <span>By {authorOf(post)}</span>
              <span>
                {formatDate(post.published_at ?? (post.status === 'draft' ? post.created_at : null))}
              </span>
              <span>{viewsText(post.views)}</span>
            </>
          }
        />
        {isAuthor && <AuthorActions post={post} onUpdated={result.setData} />}
        <PostSummary summary={post.summary} />
        <MarkdownView markdown={post.content} label="Research content" />
        {(post.tags.length > 0 || post.categories.length > 0) && (
          <dl
            css={(t: Theme) =>
              css`margin: ${t.space(6)} 0; dt { font-weight: 600; margin-top: ${t.space(2)}; } dd { margin: ${t.space(1)} 0 0; }`
            }
          >
            {post.tags.length > 0 && (
              <>
                <dt>Tags</dt>
                <dd>
                  <ul css={chipsCss}>
                    {post.tags.map((tag) => (
                      <li key={tag}>
                        <Badge tone="info">#{tag}</Badge>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            {post.categories.length > 0 && (
              <>
                <dt>Categories</dt>
                <dd>
                  <ul css={chipsCss}>
                    {post.categories.map((category) => (
                      <li key={category}>
                        <Badge>{category}</Badge>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
          </dl>
        )}
        <LikeButton
          key={`${post.id}-${session.token ?? 'guest'}`}
          postId={post.id}
          initialLiked={post.liked}
          initialLikes={post.likes}
          canLike={session.isLoggedIn}
        />
        <CommentsSection postId={post.id} />
      </article>
    </Container>
  );
}
