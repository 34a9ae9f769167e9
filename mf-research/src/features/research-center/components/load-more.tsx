import { MESSAGES } from '@app/contracts';
import { Button, LoadErrorAlert, VisuallyHidden, visuallyHiddenStyles } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { type RefObject, useEffect } from 'react';
import type { PagedList } from '../hooks/use-paged-list';

export const moreLoadedText = (added: number) => `${added} more ${added === 1 ? 'report' : 'reports'} loaded`;

/**
 * "Load more" under a paged list: shown only while the server announced a next page. The button keeps focus
 * while it loads (aria-disabled, not disabled, so the browser does not drop focus) and after it, as long as
 * more remains; when the last page came and the button goes away, focus moves to the first card it added,
 * so a keyboard user is never left on <body>. A failed page keeps the cards and offers Try again in place.
 * `announce` adds a polite live region saying what arrived; Explore says it in its count line instead.
 */
export function LoadMore<T>({
  list,
  listRef,
  announce = true,
}: {
  list: PagedList<T>;
  listRef: RefObject<HTMLElement | null>;
  announce?: boolean;
}) {
  const busy = list.moreStatus === 'loading';
  const { lastLoad, hasMore } = list;

  useEffect(() => {
    if (!lastLoad || hasMore || lastLoad.firstNewId === null) return;
    const active = document.activeElement;
    // Only when the user was on the button that just went away; otherwise leave focus where they put it.
    if (active && active !== document.body && active.isConnected) return;
    const card = listRef.current?.querySelector<HTMLElement>(`[data-post-id="${lastLoad.firstNewId}"]`);
    if (!card) return;
    card.tabIndex = -1;
    card.focus();
  }, [lastLoad, hasMore, listRef]);

  const failed = list.moreStatus === 'error';
  return (
    <div
      css={(t: Theme) => css`
        display: flex;
        flex-direction: column;
        align-items: center;
        gap: ${t.space(3)};
        margin-top: ${t.space(5)};
        &:empty { display: none; }
      `}
    >
      {announce && (
        <p role="status" css={visuallyHiddenStyles}>
          {lastLoad ? moreLoadedText(lastLoad.added) : ''}
        </p>
      )}
      <LoadErrorAlert error={list.moreError} fallback={MESSAGES.research.loadFailed} />
      {hasMore && (
        <Button
          variant="secondary"
          aria-disabled={busy || undefined}
          onClick={() => {
            if (!busy) list.loadMore();
          }}
        >
          {busy ? (
            <>
              Loading… <VisuallyHidden>more reports</VisuallyHidden>
            </>
          ) : failed ? (
            <>
              Try again <VisuallyHidden>to load more reports</VisuallyHidden>
            </>
          ) : (
            <>
              Load more <VisuallyHidden>reports</VisuallyHidden>
            </>
          )}
        </Button>
      )}
    </div>
  );
}
