import { api, errorMessage } from '@app/api-client';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { type DeployPreview, DeployPreviewSchema, type PreviewStatus } from '@app/contracts/rollouts-admin';
import { Alert, Badge, Button, Card, visuallyHiddenStyles } from '@app/ui';
import { css } from '@emotion/react';
import { useEffect, useState } from 'react';
import { adminTable } from './admin-table';

/** The section's words, in one place for the screen and its test. */
export const PREVIEW_TEXTS = {
  heading: 'Preview links',
  intro:
    'Links that show one remote’s released version in the browser that opens them, in this environment only. Make them with pnpm rollout preview; revoking one ends it at once.',
  empty: 'No preview links in this environment in the last week.',
  revoke: 'Revoke',
  confirm: (remote: string, version: string) =>
    `Revoke the link to ${remote} ${version}? Whoever opens it gets the live versions from then on.`,
  confirmYes: 'Yes, revoke',
  cancel: 'Cancel',
  revoking: 'Revoking…',
  revokeError: 'The preview link could not be revoked',
} as const;

const STATUS_TONES = { active: 'success', expired: 'neutral', revoked: 'warning' } as const satisfies Record<
  PreviewStatus,
  string
>;

const when = (iso: string) => new Date(iso).toLocaleString();

function Status({ preview }: { preview: DeployPreview }) {
  return (
    <>
      <Badge tone={STATUS_TONES[preview.status]}>{preview.status}</Badge>
      {preview.revokedAt && (
        <div>
          {when(preview.revokedAt)}
          {preview.revokedBy ? ` by ${preview.revokedBy}` : ''}
        </div>
      )}
    </>
  );
}

/**
 * The environment's preview links (issue 44), active ones first, each active one with Revoke: asked once
 * more in its row, then revoked through the API; the row shows what the API answered. A failure is an alert
 * above the table, as the screen shows its other errors; the list stays as it was.
 */
export function PreviewLinks({ environment, previews }: { environment: string; previews: DeployPreview[] }) {
  const [rows, setRows] = useState(previews);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A reload of the screen brings a new list.
  useEffect(() => setRows(previews), [previews]);

  const revoke = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      const revoked = await api.delete(ADMIN_PATHS.rolloutPreview(id), DeployPreviewSchema, {
        searchParams: { environment },
      });
      setRows((all) => all.map((row) => (row.id === id ? revoked : row)));
    } catch (e) {
      setError(errorMessage(e, PREVIEW_TEXTS.revokeError));
    } finally {
      setConfirming(null);
      setBusy(null);
    }
  };

  return (
    <Card>
      <section aria-labelledby="preview-links-heading">
        <h2 id="preview-links-heading" css={css`margin-top: 0;`}>
          {PREVIEW_TEXTS.heading}
        </h2>
        <p>{PREVIEW_TEXTS.intro}</p>
        {error && <Alert tone="error">{error}</Alert>}
        {rows.length === 0 ? (
          <p>{PREVIEW_TEXTS.empty}</p>
        ) : (
          <div css={css`overflow-x: auto;`}>
            <table css={adminTable}>
              <caption css={css`text-align: left; margin-bottom: 8px;`}>
                Preview links in <strong>{environment}</strong>
              </caption>
              <thead>
                <tr>
                  <th scope="col">Remote</th>
                  <th scope="col">Version</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span css={visuallyHiddenStyles}>Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((preview) => (
                  <tr key={preview.id} data-preview-id={preview.id}>
                    <th scope="row">{preview.remote}</th>
                    <td>
                      <code>{preview.version}</code>
                    </td>
                    <td>
                      {preview.createdBy}, {when(preview.createdAt)}
                    </td>
                    <td>{when(preview.expiresAt)}</td>
                    <td>
                      <Status preview={preview} />
                    </td>
                    <td>
                      {preview.status !== 'active' ? null : confirming === preview.id ? (
                        <fieldset css={css`border: 0; margin: 0; padding: 0;`}>
                          <legend css={css`padding: 0; margin-bottom: 8px;`}>
                            {PREVIEW_TEXTS.confirm(preview.remote, preview.version)}
                          </legend>
                          <div css={css`display: flex; gap: 8px;`}>
                            <Button
                              size="sm"
                              variant="danger"
                              disabled={busy !== null}
                              onClick={() => void revoke(preview.id)}
                            >
                              {busy === preview.id ? PREVIEW_TEXTS.revoking : PREVIEW_TEXTS.confirmYes}
                            </Button>
                            <Button
                              size="sm"
                              variant="secondary"
                              disabled={busy !== null}
                              onClick={() => setConfirming(null)}
                            >
                              {PREVIEW_TEXTS.cancel}
                            </Button>
                          </div>
                        </fieldset>
                      ) : (
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={busy !== null}
                          onClick={() => {
                            setError(null);
                            setConfirming(preview.id);
                          }}
                        >
                          {PREVIEW_TEXTS.revoke}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Card>
  );
}
