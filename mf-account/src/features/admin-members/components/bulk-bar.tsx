import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { MEMBERS_TEXTS as T } from '../texts';

/** The actions on the ticked rows of this page. */
export function BulkBar({
  count,
  busy,
  onActivate,
  onReject,
}: {
  count: number;
  busy: boolean;
  onActivate: () => void;
  onReject: () => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of buttons, not a form group; fieldset would add a frame and a legend.
    <div
      role="group"
      aria-label={T.selectedCount(count)}
      css={(t: Theme) => css`display: flex; flex-wrap: wrap; align-items: center; gap: ${t.space(2)};`}
    >
      <span aria-hidden="true">{T.selectedCount(count)}</span>
      <Button size="sm" disabled={count === 0} aria-disabled={busy || undefined} onClick={onActivate}>
        {busy ? T.working : T.activateSelected}
      </Button>
      <Button
        size="sm"
        variant="danger"
        disabled={count === 0}
        aria-disabled={busy || undefined}
        onClick={onReject}
      >
        {T.rejectSelected}
      </Button>
    </div>
  );
}
