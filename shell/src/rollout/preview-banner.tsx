import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { useState } from 'react';
import { exitPreview, type PreviewState } from './preview';

const bar = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${t.space(3)};
  padding: ${t.space(2)} ${t.space(4)};
  font-size: 0.9rem;
  background: ${t.color.surfaceAlt};
  border-bottom: 2px solid ${t.color.primary};
`;

/**
 * While a preview link is active, every page says so (a QA tester must never mistake a preview for the
 * live site), with a way out. A refused link says why once; the live versions are what the page shows.
 */
export function PreviewBanner({ state }: { state: PreviewState }) {
  const [dismissed, setDismissed] = useState(false);
  if (state.status === 'none' || dismissed) return null;
  if (state.status === 'refused') {
    return (
      <div role="alert" css={bar}>
        <span>Preview link refused: {state.message}</span>
        <Button size="sm" variant="secondary" onClick={() => setDismissed(true)}>
          Dismiss
        </Button>
      </div>
    );
  }
  const exit = async () => {
    await exitPreview();
    // The previewed build is loaded into this page; a reload is the one clean way back to the live one.
    window.location.reload();
  };
  return (
    <div role="status" aria-label="Preview" css={bar}>
      <span>
        Previewing {state.grant.remote} {state.grant.version} ·{' '}
      </span>
      <Button size="sm" variant="secondary" onClick={() => void exit()}>
        Exit preview
      </Button>
    </div>
  );
}
