import { css, type Theme } from '@emotion/react';

/**
 * A text link inside running text or beside a form ("Log In", "Sign in", "Contact"): the theme's primary
 * colour in both themes instead of the browser's default blue, underlined on hover and keyboard focus only,
 * so it reads as part of the sentence. Apply it to the router's Link or an <a>: `css={inlineLinkStyles}`.
 * Standalone actions (Back, Cancel) use buttonStyles instead.
 */
export const inlineLinkStyles = (t: Theme) => css`
  color: ${t.color.primary};
  font-weight: 600;
  text-decoration: none;
  text-underline-offset: 3px;
  border-radius: 2px;
  &:hover,
  &:focus-visible {
    text-decoration: underline;
  }
`;
