import { css, type Theme } from '@emotion/react';

/** The tables of the admin screens: full width, ruled rows, muted headings. */
export const adminTable = (t: Theme) => css`
  width: 100%;
  border-collapse: collapse;
  font-size: ${t.font.small};
  th, td { text-align: left; padding: ${t.space(2)}; border-bottom: 1px solid ${t.color.border}; vertical-align: top; }
  th { color: ${t.color.textMuted}; font-weight: 600; }
  code { font-size: 0.85em; }
`;
