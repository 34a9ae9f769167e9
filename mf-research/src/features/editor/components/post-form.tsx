import { CONTENT_TYPES, type Post, type PostStatus } from '@app/contracts';
import { Link, useNavigate } from '@app/router';
import { useSession } from '@app/session';
import { Alert, Button, buttonStyles, SelectField, Tabs, TextAreaField, TextField } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { actionError } from '../../../lib/action-error';
import { visibilityHint, visibilityOptions } from '../../../lib/visibility-options';
import { MarkdownView } from '../../post';
import { createPost, updatePost } from '../api/editor-api';
import { useUnsavedGuard } from '../hooks/use-unsaved-guard';
import { readBackup, writeBackup } from './draft-backup';
import { type FieldName, type FormValues, sameValues, validate } from './form-values';

const TYPE_OPTIONS = CONTENT_TYPES.values.map((value) => ({ value, label: CONTENT_TYPES.labels[value] }));

/** Create (post undefined) or edit a post. Save draft and Publish; a failed save keeps everything typed. */
export function PostForm({ post, initial }: { post?: Post; initial: FormValues }) {
  const navigate = useNavigate();
  const session = useSession();
  const backupKey = post ? String(post.id) : undefined;
  const [restored] = useState(() => {
    const backup = readBackup(backupKey);
    return backup && !sameValues(backup, initial) ? backup : null;
  });
  const [values, setValues] = useState<FormValues>(restored ?? initial);
  const [showRestored, setShowRestored] = useState(restored !== null);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [saving, setSaving] = useState<PostStatus | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [contentTab, setContentTab] = useState<'write' | 'preview'>('write');
  const [focusErrors, setFocusErrors] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const saved = useRef(false);

  const dirty = !sameValues(values, initial);
  useUnsavedGuard(dirty && saving === null);

  useEffect(() => {
    if (!saved.current) writeBackup(backupKey, dirty ? values : null);
  }, [backupKey, dirty, values]);

  // After a failed submit, focus the first invalid field (it may only exist once the Write tab is shown).
  useEffect(() => {
    if (focusErrors) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusErrors]);

  const set = (field: FieldName) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((old) => ({ ...old, [field]: value }));
    setErrors((old) => ({ ...old, [field]: undefined }));
  };

  const save = async (status: PostStatus) => {
    setSaveError(null);
    const checked = validate(values, status);
    if (!checked.ok) {
      setErrors(checked.errors);
      if (checked.errors.content) setContentTab('write');
      setFocusErrors((n) => n + 1);
      return;
    }
    setErrors({});
    setSaving(status);
    try {
      const result = post ? await updatePost(post.id, checked.input) : await createPost(checked.input);
      saved.current = true;
      writeBackup(backupKey, null);
      navigate(`/post/${result.id}`);
    } catch (e) {
      const reason = actionError(e, 'Could not save your research').replace(/\.$/, '');
      setSaveError(`${reason}. Your changes have not been lost.`);
      setSaving(null);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void save(submitter?.value === 'draft' ? 'draft' : 'published');
  };

  const isPublished = post?.status === 'published';
  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={post ? 'Edit research' : 'New research'}>
      {showRestored && (
        <Alert tone="info">
          Your unsaved changes were restored.{' '}
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              setValues(initial);
              setShowRestored(false);
            }}
          >
            Discard them
          </Button>
        </Alert>
      )}
      <TextField
        label="Title"
        required
        value={values.title}
        error={errors.title}
        maxLength={200}
        onChange={set('title')}
      />
      <TextAreaField
        label="Summary"
        value={values.summary}
        error={errors.summary}
        hint="Optional. Shown on cards instead of the start of the content."
        maxLength={500}
        rows={3}
        onChange={set('summary')}
      />
      <Tabs
        label="Content editor"
        selected={contentTab}
        onSelect={(id) => setContentTab(id as 'write' | 'preview')}
        items={[
          { id: 'write', label: 'Write' },
          { id: 'preview', label: 'Preview' },
        ]}
      >
        {contentTab === 'write' ? (
          <TextAreaField
            label="Content (Markdown)"
            required
            value={values.content}
            error={errors.content}
            hint="Markdown: # headings, **bold**, lists, [links](https://example.com). Scripts and HTML event handlers are removed."
            rows={14}
            onChange={set('content')}
          />
        ) : (
          <div
            css={(t: Theme) => css`
              min-height: 280px;
              padding: ${t.space(4)};
              border: 1px solid ${t.color.border};
              border-radius: ${t.radius.sm};
              margin-bottom: ${t.space(4)};
            `}
          >
            {values.content.trim() ? (
              <MarkdownView markdown={values.content} label="Preview" />
            ) : (
              <p>Nothing to preview yet.</p>
            )}
          </div>
        )}
      </Tabs>
      <div
        css={(t: Theme) =>
          css`display: grid; grid-template-columns: repeat(auto-fit, minmax(min(300px, 100%), 1fr)); gap: 0 ${t.space(4)};`
        }
      >
        <SelectField
          label="Content type"
          value={values.content_type}
          error={errors.content_type}
          options={TYPE_OPTIONS}
          onChange={set('content_type')}
        />
        <SelectField
          label="Visibility"
          value={values.visibility}
          error={errors.visibility}
          options={visibilityOptions(session.roles, initial.visibility)}
          hint={visibilityHint(session.roles, session.tierLabel)}
          onChange={set('visibility')}
        />
        <TextField
          label="Tags"
          value={values.tags}
          error={errors.tags}
          hint="Comma-separated, up to 10."
          onChange={set('tags')}
        />
        <TextField
          label="Categories"
          value={values.categories}
          error={errors.categories}
          hint="Comma-separated, up to 10."
          onChange={set('categories')}
        />
      </div>
      {saveError && <Alert tone="error">{saveError}</Alert>}
      <div
        css={(t: Theme) =>
          css`display: flex; flex-wrap: wrap; gap: ${t.space(3)}; margin-top: ${t.space(2)};`
        }
      >
        {isPublished ? (
          <Button type="submit" value="published" disabled={saving !== null}>
            {saving ? 'Saving...' : 'Save changes'}
          </Button>
        ) : (
          <>
            <Button type="submit" value="draft" variant="secondary" disabled={saving !== null}>
              {saving === 'draft' ? 'Saving...' : 'Save draft'}
            </Button>
            <Button type="submit" value="published" disabled={saving !== null}>
              {saving === 'published' ? 'Publishing...' : 'Publish'}
            </Button>
          </>
        )}
        <Link to={post ? `/post/${post.id}` : '/research-center'} css={buttonStyles('ghost')}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
