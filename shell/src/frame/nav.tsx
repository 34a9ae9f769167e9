import { MESSAGES } from '@app/contracts';
import { Link, useLocation, useNavigate } from '@app/router';
import { useSession } from '@app/session';
import { Button, buttonStyles, CloseIcon, LogOutIcon, MenuIcon } from '@app/ui';
import { css, keyframes, type Theme } from '@emotion/react';
import { startTransition, useCallback, useEffect, useId, useRef, useState } from 'react';
import { NavLinks } from './nav-items';
import { ThemeToggle } from './theme-toggle';
import { DESKTOP_MEDIA, MOBILE_MEDIA, useMenuDrawer } from './use-menu-drawer';

const slideIn = keyframes`from { opacity: 0; transform: translateY(-8px); } to { opacity: 1; transform: none; }`;

const desktopOnly = css`${MOBILE_MEDIA} { display: none; }`;

/**
 * SPEC §2 top navigation, logged-out and logged-in variants: one row from 1024 px; below, a 56 px bar with the
 * brand and a menu button whose menu holds the links, the theme toggle and Logout.
 */
export function Nav({ onMenuOpenChange }: { onMenuOpenChange?: (open: boolean) => void }) {
  const { isLoggedIn, logout } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const headerRef = useRef<HTMLElement>(null);
  const menuRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }, []);
  useMenuDrawer({ open, region: headerRef, menu: menuRef, onClose: close });
  useEffect(() => {
    onMenuOpenChange?.(open);
  }, [open, onMenuOpenChange]);
  // Back/forward while the menu is open: the new page is shown, not hidden behind the menu. Adjusted while
  // rendering (React's pattern for state that follows a changed value), so no frame shows the stale menu.
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setOpen(false);
  }

  const onLogout = () => {
    close(true);
    // One transition for both updates: the router renders navigations as transitions, so clearing the
    // token outside it would first re-render the current page without a session (and /profile's guard
    // would send the user to /login instead of home).
    startTransition(() => {
      logout();
      navigate('/');
    });
  };

  return (
    <header ref={headerRef} css={css`position: sticky; top: 0; z-index: 10;`}>
      {open && (
        // biome-ignore lint/a11y/noStaticElementInteractions: a click outside is a pointer convenience; Esc and the menu button are the keyboard path.
        // biome-ignore lint/a11y/useKeyWithClickEvents: see above.
        <div
          data-testid="menu-backdrop"
          onClick={() => close(true)}
          css={css`position: fixed; inset: 0; background: rgba(5, 10, 20, 0.55);`}
        />
      )}
      <div
        css={(t: Theme) => css`
          position: relative;
          background: ${t.color.surface};
          border-bottom: 1px solid ${t.color.border};
        `}
      >
        <div
          css={(t: Theme) => css`
            max-width: ${t.maxWidth};
            margin: 0 auto;
            padding: 0 ${t.space(4)};
            min-height: 56px;
            display: flex;
            align-items: center;
            gap: ${t.space(2)};
          `}
        >
          {/* No side padding: the name starts on the same line as the page's content below. */}
          <Link
            to="/"
            css={(t: Theme) => css`
              margin-right: auto;
              min-width: 0;
              padding: ${t.space(2)} 0;
              color: ${t.color.text};
              font-weight: 800;
              text-decoration: none;
              white-space: nowrap;
              overflow: hidden;
              text-overflow: ellipsis;
            `}
          >
            {MESSAGES.app.companyName}
          </Link>
          <nav aria-label="Main" css={[css`display: flex; align-items: center; gap: 8px;`, desktopOnly]}>
            <NavLinks layout="row" />
            {isLoggedIn && (
              <Button variant="secondary" size="sm" onClick={onLogout}>
                Logout
              </Button>
            )}
            <ThemeToggle />
          </nav>
          <button
            ref={buttonRef}
            type="button"
            aria-label={open ? 'Close menu' : 'Menu'}
            aria-expanded={open}
            aria-controls={menuId}
            onClick={() => (open ? close(true) : setOpen(true))}
            css={(t: Theme) => css`
              display: inline-flex;
              align-items: center;
              justify-content: center;
              flex: none;
              width: 44px;
              height: 44px;
              margin-right: -${t.space(1)};
              padding: 0;
              border: 1px solid ${t.color.border};
              border-radius: ${t.radius.sm};
              background: ${t.color.surface};
              color: ${t.color.text};
              cursor: pointer;
              &:hover { border-color: ${t.color.primary}; }
              ${DESKTOP_MEDIA} { display: none; }
            `}
          >
            {open ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
          </button>
        </div>
      </div>
      {/* Always in the DOM (hidden while closed) so that aria-controls names an element. */}
      <nav
        ref={menuRef}
        id={menuId}
        aria-label="Main"
        hidden={!open}
        css={(t: Theme) => css`
          position: absolute;
          top: 100%;
          left: 0;
          right: 0;
          max-height: calc(100dvh - 56px);
          overflow-y: auto;
          display: flex;
          flex-direction: column;
          gap: ${t.space(4)};
          padding: ${t.space(3)} ${t.space(4)} ${t.space(5)};
          background: ${t.color.surface};
          border-bottom: 1px solid ${t.color.border};
          box-shadow: 0 12px 24px rgba(0, 0, 0, 0.25);
          animation: ${slideIn} 0.16s ease-out;
          @media (prefers-reduced-motion: reduce) { animation: none; }
          &[hidden] { display: none; }
          ${DESKTOP_MEDIA} { display: none; }
        `}
      >
        <NavLinks layout="column" onNavigate={() => close(true)} />
        <div
          css={(t: Theme) => css`
            display: flex;
            flex-direction: column;
            gap: ${t.space(2)};
            padding-top: ${t.space(4)};
            border-top: 1px solid ${t.color.border};
          `}
        >
          <ThemeToggle variant="row" />
          {isLoggedIn && (
            <button
              type="button"
              onClick={onLogout}
              css={[buttonStyles('secondary'), css`min-height: 48px;`]}
            >
              <LogOutIcon size={20} />
              Logout
            </button>
          )}
        </div>
      </nav>
    </header>
  );
}
