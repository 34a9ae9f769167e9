import { css, type Theme } from '@emotion/react';
import type { ReactNode } from 'react';

export interface InfoItem {
  label: string;
  value: ReactNode;
}

/** Label/value pairs as a description list, so assistive technology reads each value with its label. */
export function InfoList({ items }: { items: readonly InfoItem[] }) {
  return (
    <dl
      css={(t: Theme) => css`
        display: grid;
        grid-template-columns: minmax(140px, max-content) 1fr;
        gap: ${t.space(2)} ${t.space(6)};
        margin: 0;
        a { color: ${t.color.primary}; }
        @media (max-width: 520px) {
          grid-template-columns: 1fr;
          dd { margin-bottom: ${t.space(2)}; }
        }
      `}
    >
      {items.map((item) => (
        <div key={item.label} css={css`display: contents;`}>
          <dt css={(t: Theme) => css`font-weight: 600; color: ${t.color.textMuted};`}>{item.label}</dt>
          <dd css={css`margin: 0; white-space: pre-line; overflow-wrap: anywhere;`}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
