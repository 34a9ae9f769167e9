import type { DashboardIndicator } from '@app/contracts';
import { css, type Theme } from '@emotion/react';
import { useRef } from 'react';
import { useElementWidth } from '../hooks/use-element-width';
import { formatPeriod, niceTicks } from '../lib/format';

/** The box is this tall from the first paint, so the page never shifts when the chart measures itself. */
export const CHART_HEIGHT = 200;
const PAD = { top: 12, right: 12, bottom: 32, left: 52 };
/** Room for one month label ("Apr '25", about 45 px at 12 px) and a gap. */
const LABEL_SPACING = 64;

const styles = (t: Theme) => css`
  display: block;
  overflow: visible;
  .grid { stroke: ${t.color.border}; stroke-width: 1; }
  .zero { stroke: ${t.color.textMuted}; stroke-width: 1; }
  .label { fill: ${t.color.textMuted}; font-size: 12px; font-family: inherit; }
  .area { fill: ${t.color.primary}; opacity: 0.12; }
  .line { fill: none; stroke: ${t.color.primary}; stroke-width: 2.5; stroke-linejoin: round; stroke-linecap: round; }
  .last { fill: ${t.color.surface}; stroke: ${t.color.primary}; stroke-width: 2.5; }
`;

/** Compact axis numbers: 4,000 as 4k, so the y-axis labels fit their column at every width. */
function axisLabel(value: number, unit: string): string {
  const n =
    Math.abs(value) >= 1000 ? `${Number((value / 1000).toFixed(1))}k` : String(Number(value.toFixed(1)));
  return unit === '%' ? `${n}%` : n;
}

/**
 * One indicator as a line over its months, drawn by hand in SVG (no chart library to download). Its text
 * alternative: the accessible name says what the chart shows; `describedBy` points at the written summary.
 */
export function LineChart({
  indicator,
  describedBy,
}: {
  indicator: DashboardIndicator;
  describedBy: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box, 600);
  const { points, unit, title } = indicator;
  const values = points.map((p) => p.value);
  const ticks = values.length ? niceTicks(Math.min(...values), Math.max(...values)) : [0, 1];
  const lo = ticks[0] ?? 0;
  const hi = ticks.at(-1) ?? 1;
  const plotW = Math.max(width - PAD.left - PAD.right, 1);
  const plotH = CHART_HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length > 1 ? (i / (points.length - 1)) * plotW : plotW / 2);
  const y = (v: number) => PAD.top + (hi === lo ? plotH / 2 : ((hi - v) / (hi - lo)) * plotH);
  const line = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)} ${y(p.value).toFixed(1)}`)
    .join(' ');
  const baseline = y(lo < 0 && hi > 0 ? 0 : lo);
  const area = points.length > 1 ? `${line} L${x(points.length - 1)} ${baseline} L${x(0)} ${baseline} Z` : '';
  // Month labels at least LABEL_SPACING apart: every 2nd month on a wide chart, every 3rd on a phone.
  const stepPx = points.length > 1 ? plotW / (points.length - 1) : plotW;
  const every = Math.max(1, Math.ceil(LABEL_SPACING / stepPx));
  const first = points[0];
  const last = points.at(-1);
  const name =
    first && last
      ? `${title}, line chart of ${points.length} months from ${formatPeriod(first.period)} to ${formatPeriod(last.period)}`
      : `${title}, chart without data`;

  return (
    <div ref={box} css={css`height: ${CHART_HEIGHT}px;`}>
      {/* role="img": assistive technology reads the name and description, never the lines and labels inside. */}
      <svg
        role="img"
        aria-label={name}
        aria-describedby={describedBy}
        width={width}
        height={CHART_HEIGHT}
        viewBox={`0 0 ${width} ${CHART_HEIGHT}`}
        css={styles}
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              className={tick === 0 ? 'zero' : 'grid'}
              x1={PAD.left}
              x2={width - PAD.right}
              y1={y(tick)}
              y2={y(tick)}
            />
            <text className="label" x={PAD.left - 8} y={y(tick)} dy="0.35em" textAnchor="end">
              {axisLabel(tick, unit)}
            </text>
          </g>
        ))}
        {points.map((p, i) =>
          i % every === 0 ? (
            <text key={p.period} className="label" x={x(i)} y={CHART_HEIGHT - 6} textAnchor="middle">
              {formatPeriod(p.period, 'short')}
            </text>
          ) : null,
        )}
        {area && <path className="area" d={area} />}
        <path className="line" d={line} />
        {last && <circle className="last" cx={x(points.length - 1)} cy={y(last.value)} r="4.5" />}
      </svg>
    </div>
  );
}
