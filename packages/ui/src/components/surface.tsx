import { css, keyframes, type Theme } from '@emotion/react';
import type { HTMLAttributes, ReactNode } from 'react';

export function Card({ children, ...rest }: HTMLAttributes<HTMLElement> & { children: ReactNode }) {
  return (
    <article
      css={(t: Theme) => css`
        background: ${t.color.surface};
        border: 1px solid ${t.color.border};
        border-radius: ${t.radius.md};
        box-shadow: ${t.shadow};
        padding: ${t.space(5)};
        display: flex;
        flex-direction: column;
        gap: ${t.space(2)};
      `}
      {...rest}
    >
      {children}
    </article>
  );
}

export type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export function Badge({
  tone = 'neutral',
  children,
  ...rest
}: { tone?: BadgeTone; children: ReactNode } & HTMLAttributes<HTMLSpanElement>) {
  return (
    <span
      css={(t: Theme) => {
        const tones: Record<BadgeTone, [string, string]> = {
          neutral: [t.color.surfaceAlt, t.color.text],
          info: [t.color.surfaceAlt, t.color.primary],
          success: [t.color.successBg, t.color.success],
          warning: [t.color.warningBg, t.color.warning],
          danger: [t.color.dangerBg, t.color.danger],
        };
        const [bg, fg] = tones[tone];
        return css`
          display: inline-flex;
          align-items: center;
          gap: 4px;
          padding: 2px ${t.space(2)};
          border-radius: ${t.radius.pill};
          background: ${bg};
          color: ${fg};
          font-size: 0.75rem;
          font-weight: 700;
          letter-spacing: 0.02em;
          white-space: nowrap;
        `;
      }}
      {...rest}
    >
      {children}
    </span>
  );
}

export type AlertTone = 'error' | 'success' | 'info' | 'warning';

/** Messages the user must notice: errors are announced assertively, others politely. */
export function Alert({
  tone = 'info',
  children,
  ...rest
}: { tone?: AlertTone; children: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      css={(t: Theme) => {
        const map: Record<AlertTone, [string, string]> = {
          error: [t.color.dangerBg, t.color.danger],
          success: [t.color.successBg, t.color.success],
          info: [t.color.surfaceAlt, t.color.text],
          warning: [t.color.warningBg, t.color.warning],
        };
        const [bg, fg] = map[tone];
        return css`
          background: ${bg};
          color: ${fg};
          border-left: 4px solid ${fg};
          border-radius: ${t.radius.sm};
          padding: ${t.space(3)} ${t.space(4)};
          margin: ${t.space(3)} 0;
        `;
      }}
      {...rest}
    >
      {children}
    </div>
  );
}

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.55; }
`;

/** A placeholder of fixed size, so content arriving later does not shift the layout. */
export function Skeleton({
  width = '100%',
  height,
  radius,
}: {
  width?: string;
  height: string;
  radius?: string;
}) {
  return (
    <span
      aria-hidden="true"
      css={(t: Theme) => css`
        display: block;
        width: ${width};
        height: ${height};
        border-radius: ${radius ?? t.radius.sm};
        background: ${t.color.skeleton};
        animation: ${pulse} 1.4s ease-in-out infinite;
        @media (prefers-reduced-motion: reduce) { animation: none; }
      `}
    />
  );
}

export function Container({ children, ...rest }: HTMLAttributes<HTMLDivElement> & { children: ReactNode }) {
  return (
    <div
      css={(t: Theme) => css`
        max-width: ${t.maxWidth};
        margin: 0 auto;
        padding: ${t.space(8)} ${t.space(4)};
      `}
      {...rest}
    >
      {children}
    </div>
  );
}

/** Present for screen readers, invisible on screen. */
export const visuallyHiddenStyles = css`
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border: 0;
`;

export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span css={visuallyHiddenStyles}>{children}</span>;
}

/**
 * Lets the browser skip an element's style, layout and paint until it comes near the viewport
 * (content-visibility), reserving `height` for it until it has been rendered once; from then on its real
 * height is kept (`auto`). For the items of long pages and lists: on a phone most of them are below the
 * fold, and laying them all out cost the first screen tens of milliseconds of main thread (issue 16).
 * Their text stays in the accessibility tree and in find-in-page.
 */
export const renderWhenNear = (height: string) => css`
  content-visibility: auto;
  contain-intrinsic-size: auto ${height};
`;

export const gridStyles =
  (min = '280px') =>
  (t: Theme) =>
    css`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(${min}, 100%), 1fr));
  gap: ${t.space(5)};
`;
