import { type RefObject, useEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Width from which the header shows its links in one row and the menu is not needed. */
export const DESKTOP_MIN_WIDTH = 1024;
export const DESKTOP_MEDIA = `@media (min-width: ${DESKTOP_MIN_WIDTH}px)`;
export const MOBILE_MEDIA = `@media (max-width: ${DESKTOP_MIN_WIDTH - 0.02}px)`;

function isShown(el: HTMLElement): boolean {
  if (el.closest('[hidden]')) return false;
  // The desktop links stay in the DOM on a phone, hidden by CSS: skip what is not rendered (jsdom has no
  // layout and no checkVisibility, so there everything outside [hidden] counts).
  return typeof el.checkVisibility === 'function' ? el.checkVisibility() : true;
}

/**
 * What makes the open mobile menu modal: focus moves to its first item, Tab cycles inside `region` (the
 * header: brand, menu button and menu), Esc closes, the page behind does not scroll, and growing the window
 * to the desktop layout (where the menu is not shown) closes it.
 */
export function useMenuDrawer({
  open,
  region,
  menu,
  onClose,
}: {
  open: boolean;
  region: RefObject<HTMLElement | null>;
  menu: RefObject<HTMLElement | null>;
  /** `returnFocus` is false when the menu closes because it is no longer on screen. */
  onClose: (returnFocus: boolean) => void;
}) {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onCloseRef.current(true);
        return;
      }
      if (event.key !== 'Tab' || !region.current) return;
      const focusables = [...region.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(isShown);
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (event.shiftKey && active === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      } else if (!(active instanceof HTMLElement) || !focusables.includes(active)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    const desktop = window.matchMedia?.(`(min-width: ${DESKTOP_MIN_WIDTH}px)`);
    const onDesktop = (event: MediaQueryListEvent) => {
      if (event.matches) onCloseRef.current(false);
    };
    desktop?.addEventListener?.('change', onDesktop);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      desktop?.removeEventListener?.('change', onDesktop);
    };
  }, [open, region, menu]);
}
