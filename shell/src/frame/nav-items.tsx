import { isAdmin } from '@app/contracts';
import { Link, useLocation } from '@app/router';
import { useSession } from '@app/session';
import { css, type Theme } from '@emotion/react';
import { Fragment, lazy, Suspense } from 'react';
import { matchesPattern } from '../routes/route-table';

// Administrators only, so not in the shell's initial JS (its size budget): loaded once the roles say admin.
const AdminMenu = lazy(() => import('./admin-menu'));

export interface NavItem {
  to: string;
  label: string;
  /** Paths (route-table patterns) on which this item is the current section. */
  activeOn: readonly string[];
}

/**
 * Research is one section behind several paths: the centre, its alias, a post, and writing or editing one.
 * Matching these by hand (not NavLink's prefix rule) keeps the item lit on every one of them.
 */
const RESEARCH_PATHS = ['/research-center', '/research', '/create-post', '/post/:id', '/post/:id/edit'];

/** The links for a session; administrators also get the Admin menu after Research (`NavLinks`). */
export function navItems({ isLoggedIn }: { isLoggedIn: boolean }): NavItem[] {
  const items: NavItem[] = [
    { to: '/', label: 'Home', activeOn: ['/'] },
    { to: '/about', label: 'About', activeOn: ['/about'] },
    { to: '/contact', label: 'Contact', activeOn: ['/contact'] },
    { to: '/research-center', label: 'Research', activeOn: RESEARCH_PATHS },
  ];
  if (isLoggedIn) {
    items.push({ to: '/profile', label: 'Profile', activeOn: ['/profile'] });
  } else {
    items.push(
      { to: '/login', label: 'Login', activeOn: ['/login'] },
      { to: '/register', label: 'Sign Up', activeOn: ['/register'] },
    );
  }
  return items;
}

export function isActive(item: NavItem, pathname: string): boolean {
  return item.activeOn.some((pattern) => matchesPattern(pattern, pathname));
}

const linkCss = (t: Theme) => css`
  display: flex;
  align-items: center;
  color: ${t.color.text};
  text-decoration: none;
  font-weight: 500;
  border-radius: ${t.radius.sm};
  &:hover { background: ${t.color.surfaceAlt}; }
  &[aria-current='page'] { color: ${t.color.primary}; font-weight: 700; }
`;

const layouts = {
  row: {
    list: css`display: flex; gap: 4px; align-items: center;`,
    link: (t: Theme) => css`${linkCss(t)}; padding: ${t.space(2)} ${t.space(3)};`,
  },
  column: {
    list: css`display: flex; flex-direction: column; gap: 2px;`,
    // Full-width rows at least 48 px tall: easy to hit with a thumb.
    link: (t: Theme) => css`
      ${linkCss(t)};
      min-height: 48px;
      padding: 0 ${t.space(3)};
      font-size: 1.05rem;
      &[aria-current='page'] { background: ${t.color.surfaceAlt}; }
    `,
  },
} as const;

/** SPEC §2's links for the current session, laid out as the desktop row or the mobile menu's column. */
export function NavLinks({ layout, onNavigate }: { layout: 'row' | 'column'; onNavigate?: () => void }) {
  const { isLoggedIn, roles } = useSession();
  const { pathname } = useLocation();
  const style = layouts[layout];
  return (
    <ul css={[css`list-style: none; margin: 0; padding: 0;`, style.list]}>
      {navItems({ isLoggedIn }).map((item) => (
        <Fragment key={item.to}>
          <li>
            <Link
              to={item.to}
              aria-current={isActive(item, pathname) ? 'page' : undefined}
              onClick={onNavigate}
              css={style.link}
            >
              {item.label}
            </Link>
          </li>
          {item.to === '/research-center' && isAdmin(roles) && (
            <li>
              <Suspense fallback={null}>
                <AdminMenu layout={layout} linkCss={style.link} onNavigate={onNavigate} />
              </Suspense>
            </li>
          )}
        </Fragment>
      ))}
    </ul>
  );
}
