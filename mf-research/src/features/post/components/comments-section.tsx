import { errorMessage } from '@app/api-client';
import { type Comment, CommentInputSchema, fieldErrors, isOwner } from '@app/contracts';
import { Link } from '@app/router';
import { useServerState } from '@app/server-state';
import { useSession } from '@app/session';
import { Alert, Button, inlineLinkStyles, TextAreaField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useRef, useState } from 'react';
import * as v from 'valibot';
import { actionError } from '../../../lib/action-error';
import { addComment, getComments } from '../api/post-api';
import { CommentItem } from './comment-item';

export function CommentsSection({ postId }: { postId: number }) {
  const session = useSession();
  const list = useServerState((signal) => getComments(postId, signal), [postId, session.token]);
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const comments = list.data ?? [];
  const viewer = { id: session.profile?.id, roles: session.roles };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(CommentInputSchema, { content: text });
    if (!parsed.success) {
      setFieldError(fieldErrors(parsed.issues).content);
      formRef.current?.querySelector('textarea')?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await addComment(postId, parsed.output.content);
      list.setData([...comments, created]);
      setText('');
    } catch (e) {
      // The typed text stays in the field, so nothing is lost.
      setError(actionError(e, 'Could not post the comment'));
    } finally {
      setBusy(false);
    }
  };

  const replace = (c: Comment) => list.setData(comments.map((x) => (x.id === c.id ? c : x)));
  const drop = (id: number) => list.setData(comments.filter((x) => x.id !== id));

  return (
    <section aria-labelledby="comments-heading" css={(t: Theme) => css`margin-top: ${t.space(8)};`}>
      <h2 id="comments-heading">Comments ({comments.length})</h2>
      {list.status === 'error' && (
        <Alert tone="error">{errorMessage(list.error, 'Could not load the comments')}</Alert>
      )}
      {list.status === 'done' && comments.length === 0 && <p>No comments yet.</p>}
      <ul css={css`padding: 0; margin: 0;`}>
        {comments.map((c) => (
          <CommentItem
            key={c.id}
            comment={c}
            isOwn={isOwner(viewer, c)}
            onChanged={replace}
            onDeleted={drop}
          />
        ))}
      </ul>
      {session.isLoggedIn ? (
        <form ref={formRef} onSubmit={submit} noValidate css={(t: Theme) => css`margin-top: ${t.space(4)};`}>
          <TextAreaField
            label="Add a comment"
            value={text}
            error={fieldError}
            maxLength={5000}
            onChange={(e) => {
              setText(e.target.value);
              setFieldError(undefined);
            }}
          />
          {error && <Alert tone="error">{error}</Alert>}
          <Button type="submit" disabled={busy}>
            {busy ? 'Posting...' : 'Post comment'}
          </Button>
        </form>
      ) : (
        <p>
          <Link to="/login" css={inlineLinkStyles}>
            Log in
          </Link>{' '}
          to join the discussion.
        </p>
      )}
    </section>
  );
}
