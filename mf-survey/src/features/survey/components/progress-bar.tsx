import { css, type Theme } from '@emotion/react';

/** SPEC §9: progress is step/4, shown as a bar and as text, and exposed as a progressbar. */
export function ProgressBar({ step, total, title }: { step: number; total: number; title: string }) {
  const label = `Step ${step} of ${total}`;
  return (
    <div css={(t: Theme) => css`margin-bottom: ${t.space(5)};`}>
      <div
        css={(t: Theme) => css`
          display: flex;
          justify-content: space-between;
          gap: ${t.space(2)};
          font-size: ${t.font.small};
          color: ${t.color.textMuted};
          margin-bottom: ${t.space(2)};
        `}
      >
        <span>{label}</span>
        <span>{Math.round((step / total) * 100)}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Survey progress"
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={step}
        aria-valuetext={`${label}: ${title}`}
        css={(t: Theme) => css`
          height: 8px;
          border-radius: ${t.radius.pill};
          background: ${t.color.surfaceAlt};
          overflow: hidden;
        `}
      >
        <div
          css={(t: Theme) => css`
            width: ${(step / total) * 100}%;
            height: 100%;
            background: ${t.color.primary};
            border-radius: inherit;
            transition: width 0.25s ease;
            @media (prefers-reduced-motion: reduce) { transition: none; }
          `}
        />
      </div>
    </div>
  );
}
