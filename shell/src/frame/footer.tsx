import { MESSAGES } from '@app/contracts';
import { Link } from '@app/router';
import { VisuallyHidden } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { SOCIAL_LINKS } from './social-links';

const linkCss = (t: Theme) => css`
  color: ${t.color.textMuted};
  text-decoration: none;
  &:hover { color: ${t.color.primary}; text-decoration: underline; }
`;

export function Footer({ inert }: { inert?: boolean }) {
  const year = new Date().getFullYear();
  return (
    <footer
      inert={inert}
      css={(t: Theme) => css`
        border-top: 1px solid ${t.color.border};
        background: ${t.color.surface};
        margin-top: ${t.space(10)};
      `}
    >
      <div
        css={(t: Theme) => css`
          max-width: ${t.maxWidth};
          margin: 0 auto;
          padding: ${t.space(6)} ${t.space(4)};
          display: flex;
          flex-wrap: wrap;
          gap: ${t.space(4)};
          align-items: center;
          justify-content: space-between;
        `}
      >
        <p css={css`margin: 0;`}>
          © {year} {MESSAGES.app.companyName}. All rights reserved.
        </p>
        <nav aria-label="Legal" css={css`display: flex; gap: 16px;`}>
          <Link to="/impressum" css={linkCss}>
            Impressum
          </Link>
          <Link to="/contact" css={linkCss}>
            Contact
          </Link>
        </nav>
        <ul
          aria-label="Social media"
          css={css`display: flex; gap: 8px; list-style: none; margin: 0; padding: 0;`}
        >
          {SOCIAL_LINKS.map((link) => (
            <li key={link.name}>
              <a
                href={link.href}
                title={link.name}
                css={(t: Theme) => css`
                  display: inline-flex;
                  width: 36px;
                  height: 36px;
                  align-items: center;
                  justify-content: center;
                  border-radius: ${t.radius.pill};
                  color: ${t.color.textMuted};
                  border: 1px solid ${t.color.border};
                  &:hover { color: ${t.color.primary}; border-color: ${t.color.primary}; }
                `}
              >
                <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="currentColor">
                  <path d={link.icon} />
                </svg>
                <VisuallyHidden>{link.name}</VisuallyHidden>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
