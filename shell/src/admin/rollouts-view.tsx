import type { AdminRollouts, RolloutHealthRow } from '@app/contracts/rollouts-admin';
import { formatSignalValue, REMOTE_PACKAGES, type RemotePackage, type SignalName } from '@app/rollout';
import { Badge, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { adminTable } from './admin-table';
import { visitorsText } from './chart-geometry';
import { CompatibilityTable } from './compatibility-table';
import { GateAnswer } from './gate-answer';
import { PreviewLinks } from './preview-links';
import { RolloutChartCard } from './rollout-chart-card';

const scroll = css`overflow-x: auto;`;

const figure = (signal: SignalName, label: string, value: number | null) =>
  `${label} ${value === null ? '—' : formatSignalValue(signal, value)}`;

/** A version's figures in one line: its visitors, their error rate and p75 Web Vitals. */
export function healthText(row: RolloutHealthRow): string {
  return [
    visitorsText(row.visitors),
    figure('errors', 'errors', row.errorRate),
    figure('lcp', 'LCP', row.lcp),
    figure('inp', 'INP', row.inp),
    figure('cls', 'CLS', row.cls),
  ].join(' · ');
}

function Health({ row }: { row: RolloutHealthRow | undefined }) {
  return <span>{row ? healthText(row) : 'no reports'}</span>;
}

/** Health reports the API refused (forged, replayed…): so an administrator sees that someone tried. */
function Refusals({ refusals }: { refusals: AdminRollouts['refusals'] }) {
  const tried = refusals.filter((r) => r.count > 0);
  return (
    <p css={(t: Theme) => css`margin: 0; font-size: ${t.font.small};`}>
      <strong>Refused reports (24 h):</strong>{' '}
      {tried.length === 0
        ? 'nobody tried'
        : tried.map((r, i) => (
            <span key={r.reason}>
              {i > 0 ? ' · ' : ''}
              <Badge tone="warning">{r.reason}</Badge> {r.count.toLocaleString('en-US')}
            </span>
          ))}
    </p>
  );
}

/** Per remote, the canary against stable over time, and why the last decision was taken. */
function Charts({ data }: { data: AdminRollouts }) {
  const charts = data.charts.filter((c) => c.series.length > 0);
  return (
    <section
      aria-labelledby="rollout-charts-heading"
      css={(t: Theme) => css`display: grid; grid-template-columns: minmax(0, 1fr); gap: ${t.space(4)};`}
    >
      <h2 id="rollout-charts-heading" css={css`margin: 0;`}>
        Canary against stable
      </h2>
      <Refusals refusals={data.refusals} />
      {charts.length === 0 ? (
        <p css={css`margin: 0;`}>No health reports in the window yet.</p>
      ) : (
        charts.map((chart) => (
          <RolloutChartCard key={chart.remote} chart={chart} health={data.health} audit={data.audit} />
        ))
      )}
    </section>
  );
}

function VersionRows({ remote, data }: { remote: RemotePackage; data: AdminRollouts }) {
  const deployment = data.manifest?.remotes[remote];
  const health = (version: string) => data.health.find((h) => h.remote === remote && h.version === version);
  if (!deployment) {
    return (
      <tr>
        <th scope="row">{remote}</th>
        <td colSpan={3}>not in the deployment manifest (served from config.json)</td>
      </tr>
    );
  }
  const { canary } = deployment;
  const gate = data.gates?.find((g) => g.remote === remote);
  return (
    <>
      <tr>
        <th scope="row" rowSpan={canary ? 3 : 1}>
          {remote}
        </th>
        <td>
          <Badge tone="success">stable</Badge>
        </td>
        <td>
          <code>{deployment.stable}</code>
          {canary ? ` · ${100 - canary.percent} %` : ' · 100 %'}
        </td>
        <td>
          <Health row={health(deployment.stable)} />
        </td>
      </tr>
      {canary && (
        <tr>
          <td>
            <Badge tone="warning">canary</Badge>
          </td>
          <td>
            <code>{canary.version}</code> · {canary.percent} % since{' '}
            {new Date(canary.stepStartedAt).toLocaleString()}
          </td>
          <td>
            <Health row={health(canary.version)} />
          </td>
        </tr>
      )}
      {canary && (
        <tr>
          <td>
            <Badge tone="info">gate</Badge>
          </td>
          <td colSpan={2}>
            <GateAnswer gate={gate} />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * The rollout overview: what each remote serves, whether each live version fits the live shell (the
 * compatibility table), its preview links (the one thing changed here: revoking one), how each version fares
 * (over time, the canary against stable), refused health reports, and who changed what.
 */
export function RolloutsView({ data }: { data: AdminRollouts }) {
  return (
    <div css={(t: Theme) => css`display: grid; grid-template-columns: minmax(0, 1fr); gap: ${t.space(6)};`}>
      <Card>
        <h2 css={css`margin-top: 0;`}>Remotes</h2>
        <div css={scroll}>
          <table css={adminTable}>
            <caption css={css`text-align: left; margin-bottom: 8px;`}>
              Environment <strong>{data.environment}</strong>
              {data.manifest
                ? `, manifest revision ${data.manifest.revision}`
                : ', no deployment manifest yet'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Remote</th>
                <th scope="col">Track</th>
                <th scope="col">Version · share</th>
                <th scope="col">Health</th>
              </tr>
            </thead>
            <tbody>
              {REMOTE_PACKAGES.map((remote) => (
                <VersionRows key={remote} remote={remote} data={data} />
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <CompatibilityTable compatibility={data.compatibility} />
      <PreviewLinks environment={data.environment} previews={data.previews} />
      <Charts data={data} />
      <Card>
        <h2 css={css`margin-top: 0;`}>Audit log</h2>
        {data.audit.length === 0 ? (
          <p>No changes recorded yet.</p>
        ) : (
          <div css={scroll}>
            <table css={adminTable}>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                </tr>
              </thead>
              <tbody>
                {data.audit.map((entry) => (
                  <tr key={`${entry.at}-${entry.action}-${entry.remote}-${entry.to}`}>
                    <td>{new Date(entry.at).toLocaleString()}</td>
                    <td>{entry.actor}</td>
                    <td>
                      {entry.action} {entry.remote}
                      {entry.forced ? ' (forced)' : ''}
                      {entry.reason ? <div>{entry.reason}</div> : null}
                    </td>
                    <td>{entry.from ?? '—'}</td>
                    <td>{entry.to ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
