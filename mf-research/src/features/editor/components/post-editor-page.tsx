import { isStatus } from '@app/api-client';
import { can, MESSAGES } from '@app/contracts';
import { useParams } from '@app/router';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Alert, Container, LoadErrorAlert, SessionExpiredNotice, Skeleton, usePageTitle } from '@app/ui';
import { css } from '@emotion/react';
import { getPost, MissingPostPage } from '../../post';
import { EMPTY_VALUES, valuesFromPost } from './form-values';
import { GuestWritePrompt } from './guest-write-prompt';
import { PostForm } from './post-form';

/** /create-post and /post/:id/edit. Only logged-in users write; only the author (or an admin) edits. */
export function PostEditorPage() {
  const { id } = useParams();
  const session = useSession();
  // A 401 while saving ends the session; the form stays so the user's text is not lost.
  const expired = session.sessionExpired;
  const editing = id !== undefined;
  const loaded = useServerState((signal) => getPost(id ?? '', signal), [id], editing && session.isLoggedIn);
  const heading = editing ? 'Edit Research' : 'New Research';
  const guest = !session.isLoggedIn && !expired;
  usePageTitle(guest ? 'Log in to write research' : heading);

  if (guest) return <GuestWritePrompt heading={heading} />;

  if (editing) {
    if (isStatus(loaded.error, 404) || isStatus(loaded.error, 403)) return <MissingPostPage />;
    if (loaded.status === 'error')
      return (
        <Container>
          <h1>{heading}</h1>
          {expired && <SessionExpiredNotice />}
          <LoadErrorAlert
            error={loaded.error}
            fallback={MESSAGES.research.loadFailed}
            onRetry={loaded.reload}
          />
        </Container>
      );
  }
  const post = editing ? loaded.data : undefined;
  const mayEdit = !post || can({ id: session.profile?.id, roles: session.roles }, 'edit', post);
  const profilePending =
    session.isLoggedIn && (session.profileStatus === 'loading' || session.profileStatus === 'none');
  if (editing && (!post || (!mayEdit && profilePending)))
    return (
      <Container aria-busy="true">
        <h1>{heading}</h1>
        <Skeleton height="40px" />
        <div css={css`height: 16px;`} />
        <Skeleton height="320px" />
      </Container>
    );

  return (
    <Container>
      <div css={css`max-width: 880px;`}>
        <h1>{heading}</h1>
        {expired && <SessionExpiredNotice newTab />}
        {mayEdit ? (
          <PostForm
            key={post?.id ?? 'new'}
            post={post ?? undefined}
            initial={post ? valuesFromPost(post) : EMPTY_VALUES}
          />
        ) : (
          <Alert tone="error">Only the author can edit this research.</Alert>
        )}
      </div>
    </Container>
  );
}
