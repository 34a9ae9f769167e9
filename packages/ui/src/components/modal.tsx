import { css, type Theme } from '@emotion/react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CloseIcon } from './icons';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * An accessible modal dialog: named by its title, focus moves in on open and is kept inside, Esc and the
 * close button close it, and focus returns to whatever was focused before it opened.
 * With `fullScreenBelow` (px), narrower viewports get a full-screen sheet whose title bar (and its close
 * button) stays in view while the content scrolls: a centred box would waste a phone's few pixels.
 */
export function Modal({
  title,
  onClose,
  children,
  width = '640px',
  fullScreenBelow,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  width?: string;
  fullScreenBelow?: number;
}) {
  // Rules that apply only while the dialog is a sheet.
  const sheet = (rules: string) =>
    fullScreenBelow ? `@media (max-width: ${fullScreenBelow - 0.02}px) { ${rules} }` : '';
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const dialog = dialogRef.current;
    const first = dialog?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialog)?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !dialog) return;
      const focusables = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (focusables.length === 0) return;
      const firstEl = focusables[0]!;
      const lastEl = focusables[focusables.length - 1]!;
      if (event.shiftKey && document.activeElement === firstEl) {
        event.preventDefault();
        lastEl.focus();
      } else if (!event.shiftKey && document.activeElement === lastEl) {
        event.preventDefault();
        firstEl.focus();
      } else if (!dialog.contains(document.activeElement)) {
        event.preventDefault();
        firstEl.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse convenience; Esc and the close button are the keyboard path.
    <div
      css={css`
        position: fixed;
        inset: 0;
        background: rgba(5, 10, 20, 0.55);
        display: flex;
        align-items: flex-start;
        justify-content: center;
        padding: 5vh 16px;
        overflow-y: auto;
        z-index: 1000;
        ${sheet('padding: 0;')}
      `}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        css={(t: Theme) => css`
          width: min(${width}, 100%);
          background: ${t.color.surface};
          color: ${t.color.text};
          border-radius: ${t.radius.lg};
          box-shadow: 0 20px 50px rgba(0, 0, 0, 0.35);
          padding: ${t.space(6)};
          position: relative;
          ${sheet(`
            width: 100%;
            min-height: 100%;
            border-radius: 0;
            box-shadow: none;
            padding: 0 ${t.space(4)} ${t.space(4)};
          `)}
        `}
      >
        <div
          css={(t: Theme) => css`
            display: flex;
            justify-content: space-between;
            align-items: flex-start;
            gap: 16px;
            ${sheet(`
              position: sticky;
              top: 0;
              z-index: 2;
              align-items: center;
              margin: 0 -${t.space(4)} ${t.space(4)};
              padding: ${t.space(2)} ${t.space(2)} ${t.space(2)} ${t.space(4)};
              background: ${t.color.surface};
              border-bottom: 1px solid ${t.color.border};
            `)}
          `}
        >
          <h2 id={titleId} css={css`margin: 0 0 12px; ${sheet('margin: 0; font-size: 1.25rem;')}`}>
            {title}
          </h2>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            css={(t: Theme) => css`
              border: none;
              background: none;
              color: ${t.color.textMuted};
              display: inline-flex;
              cursor: pointer;
              padding: 8px;
              border-radius: ${t.radius.sm};
              &:hover { color: ${t.color.text}; }
            `}
          >
            <CloseIcon size={22} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
