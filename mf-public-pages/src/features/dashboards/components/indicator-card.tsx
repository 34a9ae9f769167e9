import type { DashboardIndicator } from '@app/contracts';
import { Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { muted } from '../../../lib/styles';
import { formatPeriod, formatValue, summarize } from '../lib/format';
import { LineChart } from './line-chart';

/** Every value, for readers who want the numbers rather than the line (and for screen reader users). */
function DataTable({ indicator }: { indicator: DashboardIndicator }) {
  return (
    <details
      css={(t: Theme) => css`
        font-size: ${t.font.small};
        summary {
          cursor: pointer;
          color: ${t.color.primary};
          font-weight: 600;
          width: fit-content;
          min-height: 24px;
        }
      `}
    >
      <summary>Show the data</summary>
      <table
        css={(t: Theme) => css`
          width: 100%;
          margin-top: ${t.space(2)};
          border-collapse: collapse;
          th, td { padding: ${t.space(1)} ${t.space(2)}; border-bottom: 1px solid ${t.color.border}; }
          th { text-align: left; ${muted(t)}; font-weight: 600; }
          td:last-child, th:last-child { text-align: right; font-variant-numeric: tabular-nums; }
        `}
      >
        <caption css={(t: Theme) => css`text-align: left; ${muted(t)}; padding-bottom: ${t.space(1)};`}>
          {indicator.title}, monthly values
        </caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {indicator.points.map((p) => (
            <tr key={p.period}>
              <th scope="row" css={css`font-weight: 400;`}>
                {formatPeriod(p.period)}
              </th>
              <td>{formatValue(p.value, indicator.unit)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** One indicator: its latest value, the chart, the chart's summary in words, and the data on request. */
export function IndicatorCard({ indicator }: { indicator: DashboardIndicator }) {
  const titleId = `indicator-${indicator.id}`;
  const summaryId = `${titleId}-summary`;
  const last = indicator.points.at(-1);
  return (
    <Card aria-labelledby={titleId}>
      <h2 id={titleId} css={css`margin: 0; font-size: 1.15rem;`}>
        {indicator.title}
      </h2>
      <p css={(t: Theme) => css`${muted(t)}; margin: 0; font-size: ${t.font.small};`}>
        {indicator.description}
      </p>
      {last ? (
        <>
          <p css={(t: Theme) => css`margin: ${t.space(2)} 0 0;`}>
            <span css={css`font-size: 1.75rem; font-weight: 700; font-variant-numeric: tabular-nums;`}>
              {formatValue(last.value, indicator.unit)}
            </span>{' '}
            <span css={(t: Theme) => css`${muted(t)}; font-size: ${t.font.small};`}>
              in {formatPeriod(last.period)}
            </span>
          </p>
          <LineChart indicator={indicator} describedBy={summaryId} />
          <p id={summaryId} css={(t: Theme) => css`margin: 0; font-size: ${t.font.small};`}>
            {summarize(indicator)}
          </p>
          <DataTable indicator={indicator} />
        </>
      ) : (
        <p id={summaryId} css={(t: Theme) => css`${muted(t)}; margin: ${t.space(2)} 0 0;`}>
          No data for this indicator yet.
        </p>
      )}
    </Card>
  );
}
