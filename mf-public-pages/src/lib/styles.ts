import { css, type Theme } from '@emotion/react';

/** Secondary text in the theme's muted colour (intros, descriptions, notes). */
export const muted = (t: Theme) => css`color: ${t.color.textMuted};`;

/**
 * The tinted band that ends a page with its next step (About, Contact, Plans, Home's research promo):
 * one surface, so the bands look alike; each page sets its own spacing and layout.
 */
export const bandSurface = (t: Theme) => css`
  border-radius: ${t.radius.lg};
  background: ${t.color.surfaceAlt};
  border: 1px solid ${t.color.border};
`;
