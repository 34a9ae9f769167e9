import type { RolloutChart } from '@app/contracts/rollouts-admin';
import { formatSignalValue, type SignalName } from '@app/rollout';
import { css, type Theme } from '@emotion/react';
import { useId } from 'react';
import {
  CHART_BOX,
  type ChartGeometry,
  chartGeometry,
  clock,
  latestValue,
  SIGNAL_TITLE,
  visitorsText,
} from './chart-geometry';

/**
 * One small line chart of one signal of one remote: every track over [from, to], y from 0 to a round top.
 * Tracks differ in colour and in dash pattern (stable solid, canary dashed with hollow points, preview
 * dotted), so the chart does not rely on colour alone; each point's <title> is its tooltip.
 */

/** The colours and dashes of the tracks, for the charts (`data-track`) and the legend (`data-swatch`). */
export const trackStyles = (t: Theme) => css`
  [data-track='stable'], [data-swatch='stable'] { --track: ${t.color.primary}; }
  [data-track='canary'], [data-swatch='canary'] { --track: ${t.color.warning}; }
  [data-track='preview'], [data-swatch='preview'] { --track: ${t.color.accent}; }
  [data-track] path, [data-swatch] line {
    fill: none;
    stroke: var(--track);
    stroke-width: 2;
    stroke-linejoin: round;
    vector-effect: non-scaling-stroke;
  }
  [data-track='canary'] path, [data-swatch='canary'] line { stroke-dasharray: 6 4; }
  [data-track='preview'] path, [data-swatch='preview'] line { stroke-dasharray: 2 3; }
  [data-track] circle, [data-swatch] circle { fill: var(--track); stroke: var(--track); stroke-width: 1.5; }
  [data-track='canary'] circle, [data-swatch='canary'] circle { fill: ${t.color.surface}; }
`;

const figure = (t: Theme) => css`
  margin: 0;
  min-width: 0;
  figcaption { font-size: ${t.font.small}; font-weight: 600; margin-bottom: ${t.space(1)}; }
  svg { display: block; width: 100%; height: auto; overflow: visible; }
  .grid line { stroke: ${t.color.border}; stroke-width: 1; vector-effect: non-scaling-stroke; }
  .grid text, .axis text { fill: ${t.color.textMuted}; font-size: 11px; }
  /* One chart a row on a phone: the viewBox shrinks, so its labels are drawn larger to stay legible. */
  @media (max-width: 719px) {
    .grid text, .axis text { font-size: 13px; }
  }
`;

const noData = (t: Theme) => css`
  margin: 0;
  aspect-ratio: ${CHART_BOX.width} / ${CHART_BOX.height};
  display: grid;
  place-items: center;
  color: ${t.color.textMuted};
  font-size: ${t.font.small};
  border: 1px dashed ${t.color.border};
  border-radius: ${t.radius.sm};
`;

function bucketText(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)}-second`;
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes}-minute`;
  const hours = Math.round(minutes / 6) / 10;
  return `${hours}-hour`;
}

/** What a screen reader hears for the chart: each track's latest value and its sample. */
export function chartSummary(signal: SignalName, geometry: ChartGeometry): string {
  const parts = geometry.series.map((s) => {
    const last = latestValue(s.points);
    return last
      ? `${s.track} ${formatSignalValue(signal, last.value)} (${visitorsText(last.visitors)})`
      : `${s.track} no data`;
  });
  return `${SIGNAL_TITLE[signal]}, latest: ${parts.join(', ')}`;
}

export function MetricChart({ chart, signal }: { chart: RolloutChart; signal: SignalName }) {
  const id = useId();
  const geometry = chartGeometry(chart, signal);
  const title = SIGNAL_TITLE[signal];
  if (!geometry) {
    return (
      <figure css={figure}>
        <figcaption>{title}</figcaption>
        <p css={noData}>no data</p>
      </figure>
    );
  }
  const box = CHART_BOX;
  const withDay = Date.parse(chart.to) - Date.parse(chart.from) > 24 * 3_600_000;
  const seconds = chart.bucketMs < 60_000;
  const bottom = box.height - box.bottom;
  return (
    <figure css={figure}>
      <figcaption aria-hidden="true">{title}</figcaption>
      <svg
        role="img"
        viewBox={`0 0 ${box.width} ${box.height}`}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
      >
        <title id={`${id}-title`}>{chartSummary(signal, geometry)}</title>
        <desc id={`${id}-desc`}>
          {`From ${clock(chart.from, withDay, seconds)} to ${clock(chart.to, withDay, seconds)} in ${bucketText(chart.bucketMs)} buckets; scale 0 to ${formatSignalValue(signal, geometry.yMax)}.`}
        </desc>
        <g className="grid">
          {geometry.yTicks.map((tick) => (
            <g key={tick.value}>
              <line x1={box.left} x2={box.width - box.right} y1={tick.y} y2={tick.y} />
              <text x={box.left - 6} y={tick.y} textAnchor="end" dominantBaseline="middle">
                {tick.label}
              </text>
            </g>
          ))}
        </g>
        <g className="axis">
          <text x={box.left} y={bottom + 16} textAnchor="start">
            {clock(chart.from, withDay, seconds)}
          </text>
          <text x={box.width - box.right} y={bottom + 16} textAnchor="end">
            {clock(chart.to, withDay, seconds)}
          </text>
        </g>
        {geometry.series.map((s) => (
          <g key={`${s.track}-${s.version}`} data-track={s.track} data-version={s.version}>
            {s.path && <path d={s.path} />}
            {s.points.map((p) => (
              <circle key={p.at} cx={p.x} cy={p.y} r={3}>
                <title>
                  {`${clock(p.at, withDay, seconds)} · ${s.track} ${s.version} · ${formatSignalValue(signal, p.value)} of ${visitorsText(p.visitors)}`}
                </title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
    </figure>
  );
}
