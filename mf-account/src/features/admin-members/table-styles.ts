import { css, type Theme } from '@emotion/react';

/** The admin tables' look, as the shell's Rollouts tables: compact rows, muted headings, hairline rules. */
export const tableStyles = (t: Theme) => css`
  width: 100%;
  border-collapse: collapse;
  font-size: ${t.font.small};
  th, td {
    text-align: left;
    padding: ${t.space(2)};
    border-bottom: 1px solid ${t.color.border};
    vertical-align: top;
  }
  thead th { color: ${t.color.textMuted}; font-weight: 600; white-space: nowrap; }
`;
