import { useEffect } from 'react';

export const LEAVE_MESSAGE = 'You have unsaved changes. Leave this page and lose them?';

/**
 * Warns before unsaved changes are lost. react-router's useBlocker needs a data router, which the shell
 * does not use (it renders <BrowserRouter>), so the guard works at the DOM level instead:
 * - beforeunload covers reloads, closing the tab and leaving for another site;
 * - a capture-phase click listener on window asks before any same-page link (ours or the shell's nav)
 *   navigates, and cancels the click when the user says no. It runs before React's own handlers.
 * The browser's Back button is not covered (popstate cannot be cancelled); the session-storage backup of
 * the form (draft-backup.ts) is the safety net for that case.
 */
export function useUnsavedGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.('a[href]');
      if (!(anchor instanceof HTMLAnchorElement)) return;
      if (anchor.target && anchor.target !== '_self') return;
      if (anchor.hasAttribute('download')) return;
      const to = new URL(anchor.href, window.location.href);
      if (
        to.origin === window.location.origin &&
        to.pathname === window.location.pathname &&
        to.search === window.location.search
      )
        return;
      if (!window.confirm(LEAVE_MESSAGE)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('click', onClick, true);
    };
  }, [dirty]);
}
