import { css, type Theme } from '@emotion/react';
import type { ReactNode } from 'react';

/** A centred card for the account forms; each screen sets its own maximum width. */
export function FormCard({ maxWidth, children }: { maxWidth: string; children: ReactNode }) {
  return (
    <div
      css={(t: Theme) => css`
        max-width: ${maxWidth};
        margin: ${t.space(10)} auto;
        padding: 0 ${t.space(4)};
      `}
    >
      <div
        css={(t: Theme) => css`
          background: ${t.color.surface};
          color: ${t.color.text};
          border: 1px solid ${t.color.border};
          border-radius: ${t.radius.lg};
          box-shadow: ${t.shadow};
          padding: ${t.space(8)} ${t.space(6)};
          h1 { margin: 0 0 ${t.space(2)}; font-size: ${t.font.h2}; }
        `}
      >
        {children}
      </div>
    </div>
  );
}

export const mutedText = (t: Theme) => css`
  color: ${t.color.textMuted};
  margin: 0 0 ${t.space(5)};
`;

export const footerText = (t: Theme) => css`
  margin: ${t.space(5)} 0 0;
  text-align: center;
  color: ${t.color.textMuted};
`;
