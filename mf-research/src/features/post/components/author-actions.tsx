import { type Post, VISIBILITIES, type Visibility } from '@app/contracts';
import { Link, useNavigate } from '@app/router';
import { useSession } from '@app/session';
import { Alert, Button, buttonStyles, Modal, SelectField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useState } from 'react';
import { actionError } from '../../../lib/action-error';
import { visibilityOptions } from '../../../lib/visibility-options';
import { changeVisibility, deletePost, publishPost } from '../api/post-api';

/** What the author (or an administrator) can do with a post: edit, publish a draft, visibility, delete. */
export function AuthorActions({ post, onUpdated }: { post: Post; onUpdated: (p: Post) => void }) {
  const navigate = useNavigate();
  const session = useSession();
  const [visibility, setVisibility] = useState<Visibility>(post.visibility);
  const [busy, setBusy] = useState<null | 'publish' | 'visibility' | 'delete'>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const run = async (kind: 'publish' | 'visibility', action: () => Promise<Post>, done: string) => {
    setBusy(kind);
    setError(null);
    setNotice(null);
    try {
      const updated = await action();
      onUpdated(updated);
      setNotice(done);
    } catch (e) {
      setError(
        actionError(
          e,
          kind === 'publish' ? 'Could not publish the research' : 'Could not change the visibility',
        ),
      );
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    setBusy('delete');
    setError(null);
    try {
      await deletePost(post.id);
      navigate('/research-center?tab=my', { replace: true });
    } catch (e) {
      setConfirming(false);
      setError(actionError(e, 'Could not delete the research'));
      setBusy(null);
    }
  };

  return (
    <section
      aria-label="Manage this research"
      css={(t: Theme) => css`
        display: flex;
        flex-wrap: wrap;
        gap: ${t.space(3)};
        align-items: flex-end;
        padding: ${t.space(4)};
        margin: ${t.space(4)} 0;
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.md};
        background: ${t.color.surfaceAlt};
        & > div:has(select) { margin-bottom: 0; min-width: 180px; }
      `}
    >
      <Link to={`/post/${post.id}/edit`} css={buttonStyles('secondary')}>
        Edit
      </Link>
      {post.status === 'draft' && (
        <Button
          disabled={busy !== null}
          onClick={() =>
            run('publish', () => publishPost(post.id), 'Published. Readers can now find it in Explore.')
          }
        >
          {busy === 'publish' ? 'Publishing...' : 'Publish'}
        </Button>
      )}
      <SelectField
        label="Visibility"
        value={visibility}
        options={visibilityOptions(session.roles, post.visibility)}
        onChange={(e) => setVisibility(e.target.value as Visibility)}
      />
      <Button
        variant="secondary"
        disabled={busy !== null || visibility === post.visibility}
        onClick={() =>
          run(
            'visibility',
            () => changeVisibility(post.id, visibility),
            `Visibility changed to ${VISIBILITIES.labels[visibility]}.`,
          )
        }
      >
        Change visibility
      </Button>
      <Button variant="danger" disabled={busy !== null} onClick={() => setConfirming(true)}>
        Delete
      </Button>
      {(error || notice) && (
        <div css={css`flex-basis: 100%;`}>
          {error && <Alert tone="error">{error}</Alert>}
          {notice && <Alert tone="success">{notice}</Alert>}
        </div>
      )}
      {confirming && (
        <Modal title="Delete this research?" onClose={() => setConfirming(false)} width="480px">
          <p>“{post.title}” and its comments will be deleted. This cannot be undone.</p>
          <div css={css`display: flex; gap: 12px; justify-content: flex-end;`}>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={remove} disabled={busy === 'delete'}>
              {busy === 'delete' ? 'Deleting...' : 'Delete research'}
            </Button>
          </div>
        </Modal>
      )}
    </section>
  );
}
