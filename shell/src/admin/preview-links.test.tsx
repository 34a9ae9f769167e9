import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { DeployPreview } from '@app/contracts/rollouts-admin';
import { settleRequests } from '@app/test-utils';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, server, useAdminApi } from '../test/admin-kit';
import { PreviewLinks, PREVIEW_TEXTS as T } from './preview-links';

useAdminApi();

const at = (hour: number) => new Date(Date.UTC(2026, 5, 1, hour)).toISOString();
const preview = (id: string, over: Partial<DeployPreview> = {}): DeployPreview => ({
  id,
  environment: 'staging',
  remote: 'mf-research',
  version: '1.2.0-abcdef0123',
  createdAt: at(8),
  createdBy: 'research-ci',
  expiresAt: at(12),
  revokedAt: null,
  revokedBy: null,
  status: 'active',
  ...over,
});

const ACTIVE = preview('aaaaaaaaaaaa');
const OTHER = preview('bbbbbbbbbbbb', {
  remote: 'mf-account',
  version: '2.0.0-0123456789',
  createdBy: 'ops',
});
const EXPIRED = preview('cccccccccccc', { status: 'expired', expiresAt: at(2) });
const REVOKED = preview('dddddddddddd', { status: 'revoked', revokedAt: at(9), revokedBy: 'jane_doe' });

function renderLinks(previews: DeployPreview[] = [ACTIVE, OTHER, EXPIRED, REVOKED]) {
  const user = userEvent.setup({ delay: null });
  render(
    <AppThemeProvider>
      <PreviewLinks environment="staging" previews={previews} />
    </AppThemeProvider>,
  );
  return user;
}

const rowOf = (id: string) => {
  const row = screen.getAllByRole('row').find((r) => r.dataset.previewId === id);
  if (!row) throw new Error(`no row for ${id}`);
  return row;
};

/** Answers DELETE with the link revoked by the signed-in administrator; records each request. */
function serveRevoke() {
  const asked: string[] = [];
  server.use(
    http.delete(`${API}${ADMIN_PATHS.rolloutPreview(':id')}`, ({ request, params }) => {
      const url = new URL(request.url);
      asked.push(`${url.pathname}${url.search}`);
      const id = String(params.id);
      const base = [ACTIVE, OTHER].find((p) => p.id === id) ?? ACTIVE;
      return HttpResponse.json({ ...base, status: 'revoked', revokedAt: at(10), revokedBy: 'jane_doe' });
    }),
  );
  return asked;
}

describe('the preview links of the rollouts screen', () => {
  it('lists each link: remote, version, who made it, its expiry and status; Revoke on active ones only', () => {
    renderLinks();
    const table = screen.getByRole('table', { name: 'Preview links in staging' });
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    const active = rowOf(ACTIVE.id);
    expect(within(active).getByRole('rowheader')).toHaveTextContent('mf-research');
    expect(active).toHaveTextContent('1.2.0-abcdef0123');
    expect(active).toHaveTextContent(`research-ci, ${new Date(ACTIVE.createdAt).toLocaleString()}`);
    expect(active).toHaveTextContent(new Date(ACTIVE.expiresAt).toLocaleString());
    expect(active).toHaveTextContent('active');
    expect(within(active).getByRole('button', { name: 'Revoke' })).toBeEnabled();
    expect(within(rowOf(EXPIRED.id)).queryByRole('button')).toBeNull();
    expect(rowOf(EXPIRED.id)).toHaveTextContent('expired');
    const revoked = rowOf(REVOKED.id);
    expect(within(revoked).queryByRole('button')).toBeNull();
    expect(revoked).toHaveTextContent(`revoked${new Date(REVOKED.revokedAt!).toLocaleString()} by jane_doe`);
  });

  it('says when the environment has none', () => {
    renderLinks([]);
    expect(screen.getByText(T.empty)).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('asks before revoking; Cancel sends nothing', async () => {
    const asked = serveRevoke();
    const user = renderLinks();
    await user.click(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Revoke' }));
    const question = within(rowOf(ACTIVE.id)).getByRole('group', {
      name: T.confirm('mf-research', '1.2.0-abcdef0123'),
    });
    expect(question).toHaveTextContent(
      'Revoke the link to mf-research 1.2.0-abcdef0123? Whoever opens it gets the live versions from then on.',
    );
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
    await settleRequests(server, API);
    expect(asked).toEqual([]);
  });

  it('revokes after the confirmation: the row then shows it revoked, the others stay as they were', async () => {
    const asked = serveRevoke();
    const user = renderLinks();
    await user.click(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Revoke' }));
    await user.click(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Yes, revoke' }));
    expect(await within(rowOf(ACTIVE.id)).findByText('revoked')).toBeInTheDocument();
    expect(rowOf(ACTIVE.id)).toHaveTextContent(`${new Date(at(10)).toLocaleString()} by jane_doe`);
    expect(within(rowOf(ACTIVE.id)).queryByRole('button')).toBeNull();
    expect(asked).toEqual([`/api/admin/rollouts/previews/${ACTIVE.id}?environment=staging`]);
    expect(within(rowOf(OTHER.id)).getByRole('button', { name: 'Revoke' })).toBeEnabled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the API's error as the screen shows others, and leaves the link active", async () => {
    server.use(
      http.delete(`${API}${ADMIN_PATHS.rolloutPreview(':id')}`, () =>
        HttpResponse.json(
          { error: 'No preview link "aaaaaaaaaaaa" in the "staging" environment' },
          { status: 404 },
        ),
      ),
    );
    const user = renderLinks();
    await user.click(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Revoke' }));
    await user.click(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Yes, revoke' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No preview link "aaaaaaaaaaaa" in the "staging" environment',
    );
    expect(rowOf(ACTIVE.id)).toHaveTextContent('active');
    expect(within(rowOf(ACTIVE.id)).getByRole('button', { name: 'Revoke' })).toBeEnabled();
  });
});
