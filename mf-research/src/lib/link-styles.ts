import { css, type Theme } from '@emotion/react';

/**
 * A link inside running text ("Log in to like"): the theme's primary colour in both themes instead of the
 * browser's default blue, underlined only on hover so it reads as part of the sentence. Standalone links
 * (Back, Cancel) use @app/ui's buttonStyles instead.
 */
export const inlineLinkCss = (t: Theme) => css`
  color: ${t.color.primary};
  font-weight: 600;
  text-decoration: none;
  text-underline-offset: 3px;
  &:hover {
    text-decoration: underline;
  }
`;
