import type { CompatConflict, Compatibility, CompatRow, CompatStatus } from '@app/contracts/compatibility';
import { Badge, Card } from '@app/ui';
import { css, type Theme } from '@emotion/react';
import { adminTable } from './admin-table';

/** The section's words, in one place for the screen and its test. */
export const COMPAT_TEXTS = {
  heading: 'Compatibility',
  intro:
    'Every remote version live in this environment (stable, canary, preview links) against the shared packages, exposed module and federation runtime the live shell provides. A release, a rollout step or a new shell that would break one of them is refused; pnpm rollout status prints the same table.',
  empty: 'No remote version is live in this environment.',
  allOk: (checks: number) => `All ${checks} checks are ok.`,
  summary: (conflicts: number, unknown: number) =>
    `${conflicts} conflict${conflicts === 1 ? '' : 's'}, ${unknown} unknown.`,
  status: { ok: 'ok', conflict: 'Conflict', unknown: 'Unknown' } satisfies Record<CompatStatus, string>,
} as const;

const STATUS_TONES = { ok: 'success', conflict: 'danger', unknown: 'warning' } as const satisfies Record<
  CompatStatus,
  string
>;
const COLUMNS = 7;

const small = (t: Theme) => css`margin: 0; padding-left: ${t.space(4)}; color: ${t.color.text};`;

function ConflictItem({ conflict }: { conflict: CompatConflict }) {
  return (
    <li>
      <strong>
        {conflict.kind} · {conflict.package}
        {conflict.export ? ` · ${conflict.export}` : ''}
      </strong>
      : {conflict.detail}
      <div>
        Needed by {conflict.needs}; provided by {conflict.provider}.
      </div>
    </li>
  );
}

function Row({ row }: { row: CompatRow }) {
  return (
    <>
      <tr data-compat-status={row.status}>
        <th scope="row">{row.remote}</th>
        {/* A version id is read whole: it never breaks at its hyphen. */}
        <td css={css`white-space: nowrap;`}>
          <code>{row.version}</code>
        </td>
        <td>{row.track}</td>
        <td>
          <code>{row.package}</code>
        </td>
        <td>{row.required}</td>
        <td>{row.provided}</td>
        <td>
          <Badge tone={STATUS_TONES[row.status]}>{COMPAT_TEXTS.status[row.status]}</Badge>
        </td>
      </tr>
      {row.conflicts.length > 0 && (
        <tr data-compat-conflicts="">
          <td colSpan={COLUMNS}>
            <ul css={small} aria-label={`Conflicts of ${row.remote} ${row.version} with ${row.package}`}>
              {row.conflicts.map((conflict) => (
                <ConflictItem
                  key={`${conflict.kind}-${conflict.package}-${conflict.export ?? ''}-${conflict.needs}`}
                  conflict={conflict}
                />
              ))}
            </ul>
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * The environment's compatibility table (issue 45): one row per live remote version and package, with what
 * the remote requires, what the live shell provides and the status; each conflict's who-needs-what-from-whom
 * under its row.
 */
export function CompatibilityTable({ compatibility }: { compatibility: Compatibility }) {
  const { rows } = compatibility;
  const conflicts = rows.filter((r) => r.status === 'conflict').length;
  const unknown = rows.filter((r) => r.status === 'unknown').length;
  return (
    <Card>
      <section aria-labelledby="compatibility-heading">
        <h2 id="compatibility-heading" css={css`margin-top: 0;`}>
          {COMPAT_TEXTS.heading}
        </h2>
        <p>{COMPAT_TEXTS.intro}</p>
        {rows.length === 0 ? (
          <p>{COMPAT_TEXTS.empty}</p>
        ) : (
          <>
            <p>
              {conflicts + unknown === 0
                ? COMPAT_TEXTS.allOk(rows.length)
                : COMPAT_TEXTS.summary(conflicts, unknown)}
            </p>
            <div css={css`overflow-x: auto;`}>
              <table css={adminTable}>
                <caption css={css`text-align: left; margin-bottom: 8px;`}>
                  Compatibility in <strong>{compatibility.environment}</strong> with the live shell{' '}
                  <code>{compatibility.shell.manifest}</code> (federation runtime{' '}
                  {compatibility.shell.federationRuntime ?? 'unreadable'})
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Remote</th>
                    <th scope="col">Version</th>
                    <th scope="col">Track</th>
                    <th scope="col">Package</th>
                    <th scope="col">Requires</th>
                    <th scope="col">Shell provides</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <Row key={`${row.remote}-${row.version}-${row.track}-${row.package}`} row={row} />
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </Card>
  );
}
