import type { AuditEntry } from '@app/contracts';
import type { RolloutChart, RolloutHealthRow } from '@app/contracts/rollouts-admin';
import { Badge, type BadgeTone, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { CHART_SIGNALS, visitorsText } from './chart-geometry';
import { MetricChart, trackStyles } from './rollout-chart';

/** Actions that decide a canary's fate: what `rollout watch` did, or what an administrator did by hand. */
const HAND_DECISIONS: readonly string[] = ['promote', 'rollback', 'abort'];

/** The newest decision on a remote's rollout (the audit log is newest first). */
export function lastDecision(audit: readonly AuditEntry[], remote: string): AuditEntry | undefined {
  return audit.find(
    (e) => e.remote === remote && (e.action.startsWith('watch-') || HAND_DECISIONS.includes(e.action)),
  );
}

const DECISION_TONE: Partial<Record<AuditEntry['action'], BadgeTone>> = {
  'watch-rollback': 'danger',
  rollback: 'danger',
  abort: 'danger',
  'watch-advance': 'success',
  'watch-promote': 'success',
  promote: 'success',
};

const grid = (t: Theme) => css`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: ${t.space(5)};
  @media (min-width: 720px) {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
`;

const legend = (t: Theme) => css`
  display: flex;
  flex-wrap: wrap;
  gap: ${t.space(2)} ${t.space(5)};
  margin: 0;
  padding: 0;
  list-style: none;
  font-size: ${t.font.small};
  li svg { vertical-align: middle; margin-right: ${t.space(1)}; }
  code { font-size: 0.9em; }
  span { color: ${t.color.textMuted}; }
`;

const decision = (t: Theme) => css`
  margin: 0;
  padding-top: ${t.space(3)};
  border-top: 1px solid ${t.color.border};
  font-size: ${t.font.small};
`;

/**
 * The sample behind a track: its distinct visitors from the health row, or else at most the sum of its
 * buckets' visitors (a visitor active in two buckets counts in both).
 */
function sampleText(
  series: RolloutChart['series'][number],
  health: readonly RolloutHealthRow[],
  remote: string,
) {
  const row = health.find((h) => h.remote === remote && h.version === series.version);
  if (row) return visitorsText(row.visitors);
  return `up to ${visitorsText(series.points.reduce((sum, p) => sum + p.visitors, 0))}`;
}

function Legend({ chart, health }: { chart: RolloutChart; health: readonly RolloutHealthRow[] }) {
  return (
    <ul css={legend} aria-label="Tracks and their samples">
      {chart.series.map((s) => (
        <li key={`${s.track}-${s.version}`}>
          <svg width="28" height="10" viewBox="0 0 28 10" aria-hidden="true" data-swatch={s.track}>
            <line x1="1" y1="5" x2="27" y2="5" />
            <circle cx="14" cy="5" r="3" />
          </svg>
          <strong>{s.track}</strong> <code>{s.version}</code>{' '}
          <span>· {sampleText(s, health, chart.remote)}</span>
        </li>
      ))}
    </ul>
  );
}

function LastDecision({ entry }: { entry: AuditEntry | undefined }) {
  if (!entry) return <p css={decision}>No rollout decision recorded yet.</p>;
  return (
    <p css={decision}>
      <strong>Last decision:</strong>{' '}
      <Badge tone={DECISION_TONE[entry.action] ?? 'neutral'}>{entry.action}</Badge>{' '}
      <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time> by {entry.actor}
      {entry.forced ? ' (forced)' : ''} — {entry.reason ?? 'no reason recorded'}
    </p>
  );
}

/** One remote's canary against stable: legend with samples, four small charts, the last decision. */
export function RolloutChartCard({
  chart,
  health,
  audit,
}: {
  chart: RolloutChart;
  health: readonly RolloutHealthRow[];
  audit: readonly AuditEntry[];
}) {
  const headingId = `rollout-chart-${chart.remote}-heading`;
  return (
    <Card data-testid={`rollout-chart-${chart.remote}`} aria-labelledby={headingId}>
      <div
        css={(t: Theme) => [
          trackStyles(t),
          css`display: grid; grid-template-columns: minmax(0, 1fr); gap: ${t.space(4)};`,
        ]}
      >
        <h3 id={headingId} css={css`margin: 0;`}>
          {chart.remote}
        </h3>
        <Legend chart={chart} health={health} />
        <div css={grid}>
          {CHART_SIGNALS.map((signal) => (
            <MetricChart key={signal} chart={chart} signal={signal} />
          ))}
        </div>
        <LastDecision entry={lastDecision(audit, chart.remote)} />
      </div>
    </Card>
  );
}
