import { type Comment, CommentInputSchema, fieldErrors, formatDate } from '@app/contracts';
import { Button, TextAreaField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useState } from 'react';
import * as v from 'valibot';
import { actionError } from '../../../lib/action-error';
import { authorOf } from '../../../lib/format';
import { deleteComment, editComment } from '../api/post-api';

/** One comment; its author may edit it in place or delete it after a second click to confirm. */
export function CommentItem({
  comment,
  isOwn,
  onChanged,
  onDeleted,
}: {
  comment: Comment;
  isOwn: boolean;
  onChanged: (c: Comment) => void;
  onDeleted: (id: number) => void;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-delete'>('view');
  const [text, setText] = useState(comment.content);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const parsed = v.safeParse(CommentInputSchema, { content: text });
    if (!parsed.success) {
      setFieldError(fieldErrors(parsed.issues).content);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onChanged(await editComment(comment.id, parsed.output.content));
      setMode('view');
    } catch (e) {
      setError(actionError(e, 'Could not save the comment'));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await deleteComment(comment.id);
      onDeleted(comment.id);
    } catch (e) {
      setError(actionError(e, 'Could not delete the comment'));
      setBusy(false);
    }
  };

  const author = authorOf(comment);
  return (
    <li
      aria-label={`Comment by ${author}`}
      css={(t: Theme) => css`
        list-style: none;
        padding: ${t.space(3)} 0;
        border-bottom: 1px solid ${t.color.border};
      `}
    >
      <p
        css={(t: Theme) =>
          css`margin: 0 0 ${t.space(1)}; font-size: ${t.font.small}; color: ${t.color.textMuted};`
        }
      >
        <strong css={(t: Theme) => css`color: ${t.color.text};`}>{author}</strong> ·{' '}
        {formatDate(comment.created_at)}
        {comment.updated_at !== comment.created_at && ' · edited'}
      </p>
      {mode === 'edit' ? (
        <div>
          <TextAreaField
            label="Edit comment"
            value={text}
            error={fieldError}
            autoFocus
            onChange={(e) => {
              setText(e.target.value);
              setFieldError(undefined);
            }}
          />
          <div css={css`display: flex; gap: 8px;`}>
            <Button size="sm" onClick={save} disabled={busy}>
              Save comment
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                setText(comment.content);
                setFieldError(undefined);
                setMode('view');
              }}
            >
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <p css={css`margin: 0; white-space: pre-wrap; overflow-wrap: anywhere;`}>{comment.content}</p>
      )}
      {isOwn && mode === 'view' && (
        <div css={(t: Theme) => css`display: flex; gap: ${t.space(2)}; margin-top: ${t.space(2)};`}>
          <Button size="sm" variant="ghost" onClick={() => setMode('edit')}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setMode('confirm-delete')}>
            Delete
          </Button>
        </div>
      )}
      {mode === 'confirm-delete' && (
        <div
          css={(t: Theme) =>
            css`display: flex; gap: ${t.space(2)}; align-items: center; margin-top: ${t.space(2)};`
          }
        >
          <span>Delete this comment?</span>
          <Button size="sm" variant="danger" onClick={remove} disabled={busy} autoFocus>
            Yes, delete
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setMode('view')}>
            Keep
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" css={(t: Theme) => css`color: ${t.color.danger}; margin: 4px 0 0;`}>
          {error}
        </p>
      )}
    </li>
  );
}
