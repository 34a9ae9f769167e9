import { MESSAGES } from '@app/contracts';
import { NavLink, useNavigate } from '@app/router';
import { useSession } from '@app/session';
import { Button } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { startTransition } from 'react';
import { ROLLOUTS_PATH } from '../admin/rollouts-path';
import { ThemeToggle } from './theme-toggle';

const linkCss = (t: Theme) => css`
  color: ${t.color.text};
  text-decoration: none;
  font-weight: 500;
  padding: ${t.space(2)} ${t.space(3)};
  border-radius: ${t.radius.sm};
  &:hover { background: ${t.color.surfaceAlt}; }
  &[aria-current='page'] { color: ${t.color.primary}; font-weight: 700; }
`;

/** SPEC §2 top navigation, logged-out and logged-in variants. */
export function Nav() {
  const { isLoggedIn, logout, tier } = useSession();
  const navigate = useNavigate();
  const onLogout = () => {
    // One transition for both updates: the router renders navigations as transitions, so clearing the
    // token outside it would first re-render the current page without a session (and /profile's guard
    // would send the user to /login instead of home).
    startTransition(() => {
      logout();
      navigate('/');
    });
  };
  return (
    <header
      css={(t: Theme) => css`
        background: ${t.color.surface};
        border-bottom: 1px solid ${t.color.border};
        position: sticky;
        top: 0;
        z-index: 10;
      `}
    >
      <nav
        aria-label="Main"
        css={(t: Theme) => css`
          max-width: ${t.maxWidth};
          margin: 0 auto;
          padding: ${t.space(2)} ${t.space(4)};
          display: flex;
          flex-wrap: wrap;
          align-items: center;
          gap: ${t.space(2)};
        `}
      >
        <NavLink to="/" end css={(t: Theme) => css`${linkCss(t)}; font-weight: 800; margin-right: auto;`}>
          {MESSAGES.app.companyName}
        </NavLink>
        <ul
          css={css`display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 0; align-items: center;`}
        >
          <li>
            <NavLink to="/" end css={linkCss}>
              Home
            </NavLink>
          </li>
          <li>
            <NavLink to="/about" css={linkCss}>
              About
            </NavLink>
          </li>
          <li>
            <NavLink to="/contact" css={linkCss}>
              Contact
            </NavLink>
          </li>
          <li>
            <NavLink to="/research-center" css={linkCss}>
              Research
            </NavLink>
          </li>
          {tier === 'admin' && (
            <li>
              <NavLink to={ROLLOUTS_PATH} css={linkCss}>
                Rollouts
              </NavLink>
            </li>
          )}
          {isLoggedIn ? (
            <>
              <li>
                <NavLink to="/profile" css={linkCss}>
                  Profile
                </NavLink>
              </li>
              <li>
                <Button variant="secondary" size="sm" onClick={onLogout}>
                  Logout
                </Button>
              </li>
            </>
          ) : (
            <>
              <li>
                <NavLink to="/login" css={linkCss}>
                  Login
                </NavLink>
              </li>
              <li>
                <NavLink to="/register" css={linkCss}>
                  Sign Up
                </NavLink>
              </li>
            </>
          )}
        </ul>
        <ThemeToggle />
      </nav>
    </header>
  );
}
