import type { AdminRollouts, RolloutHealthRow } from '@app/contracts';
import { failureRate, REMOTE_PACKAGES, type RemotePackage } from '@app/rollout';
import { Badge, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';

const table = (t: Theme) => css`
  width: 100%;
  border-collapse: collapse;
  font-size: ${t.font.small};
  th, td { text-align: left; padding: ${t.space(2)}; border-bottom: 1px solid ${t.color.border}; vertical-align: top; }
  th { color: ${t.color.textMuted}; font-weight: 600; }
  code { font-size: 0.85em; }
`;

const scroll = css`overflow-x: auto;`;

function Health({ row }: { row: RolloutHealthRow | undefined }) {
  if (!row) return <span>no reports</span>;
  const rate = failureRate(row);
  const failures = row.loadFailures + row.renderErrors;
  return (
    <span>
      {row.loads} loads · {failures} failures ({(rate * 100).toFixed(1)} %)
    </span>
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
  return (
    <>
      <tr>
        <th scope="row" rowSpan={canary ? 2 : 1}>
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
    </>
  );
}

/** The read-only rollout overview: what each remote serves, how each version fares, and who changed what. */
export function RolloutsView({ data }: { data: AdminRollouts }) {
  return (
    <div css={(t: Theme) => css`display: grid; gap: ${t.space(6)};`}>
      <Card>
        <h2 css={css`margin-top: 0;`}>Remotes</h2>
        <div css={scroll}>
          <table css={table}>
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
      <Card>
        <h2 css={css`margin-top: 0;`}>Audit log</h2>
        {data.audit.length === 0 ? (
          <p>No changes recorded yet.</p>
        ) : (
          <div css={scroll}>
            <table css={table}>
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
