import { API_PATHS, MESSAGES } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { DeployPreview } from '@app/contracts/rollouts-admin';
import { MemoryRouter } from '@app/router';
import { SessionProvider } from '@app/session';
import { AppThemeProvider } from '@app/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, server, signIn, useAdminApi } from '../test/admin-kit';
import { AdminFactorGate, forgetAdminFactor } from './admin-factor-gate';
import { PreviewLinks } from './preview-links';
import { StepUpHost } from './step-up-host';
import { TWO_FACTOR_TEXTS as T } from './two-factor-texts';

useAdminApi();

const LINK: DeployPreview = {
  id: 'aaaaaaaaaaaa',
  environment: 'staging',
  remote: 'mf-research',
  version: '1.2.0-abcdef0123',
  createdAt: '2026-06-01T08:00:00.000Z',
  createdBy: 'research-ci',
  expiresAt: '2026-06-01T12:00:00.000Z',
  revokedAt: null,
  revokedBy: null,
  status: 'active',
};

/** The API: the revoke needs a step-up until a code is verified; `123456` is the right code. */
function serveStepUp() {
  const seen = { deletes: 0, codes: [] as string[], verified: false };
  server.use(
    http.delete(`${API}${ADMIN_PATHS.rolloutPreview(':id')}`, () => {
      seen.deletes += 1;
      if (!seen.verified)
        return HttpResponse.json(
          { error: MESSAGES.twoFactor.stepUpRequired, stepUpRequired: true },
          { status: 403 },
        );
      return HttpResponse.json({
        ...LINK,
        status: 'revoked',
        revokedAt: LINK.expiresAt,
        revokedBy: 'jane_doe',
      });
    }),
    http.post(`${API}${API_PATHS.twoFactorVerify}`, async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      seen.codes.push(code);
      if (code !== '123456')
        return HttpResponse.json(
          { error: MESSAGES.twoFactor.codeWrong, code: MESSAGES.twoFactor.codeWrong },
          { status: 400 },
        );
      seen.verified = true;
      return HttpResponse.json({
        message: MESSAGES.twoFactor.stepUpDone,
        verifiedUntil: Date.now() + 900_000,
      });
    }),
  );
  return seen;
}

async function revokeLink() {
  const user = userEvent.setup({ delay: null });
  render(
    <AppThemeProvider>
      <PreviewLinks environment="staging" previews={[LINK]} />
      <StepUpHost />
    </AppThemeProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Revoke' }));
  await user.click(screen.getByRole('button', { name: 'Yes, revoke' }));
  return user;
}

describe('the step-up dialog (issue 46)', () => {
  it('asks for a code when a sensitive action needs one, keeps a wrong code, and retries the action after the right one', async () => {
    const seen = serveStepUp();
    const user = await revokeLink();
    const dialog = await screen.findByRole('dialog', { name: T.stepUpTitle });
    expect(dialog).toHaveTextContent(MESSAGES.twoFactor.stepUpRequired);
    const field = within(dialog).getByLabelText(T.codeLabel);
    await user.click(within(dialog).getByRole('button', { name: T.confirm }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MESSAGES.twoFactor.codeMissing);
    await user.type(field, '000000');
    await user.click(within(dialog).getByRole('button', { name: T.confirm }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.twoFactor.codeWrong);
    expect(field).toHaveValue('000000');
    await user.clear(field);
    await user.type(field, '123456');
    await user.click(within(dialog).getByRole('button', { name: T.confirm }));
    expect(await screen.findByText('revoked')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(seen).toMatchObject({ deletes: 2, codes: ['000000', '123456'] });
  });

  it('shows the refusal where the action was taken when the dialog is cancelled', async () => {
    const seen = serveStepUp();
    const user = await revokeLink();
    const dialog = await screen.findByRole('dialog', { name: T.stepUpTitle });
    await user.click(within(dialog).getByRole('button', { name: T.cancel }));
    expect(await screen.findByText(MESSAGES.twoFactor.stepUpRequired)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(seen.deletes).toBe(1);
  });
});

describe('the admin screens without a second factor (issue 46)', () => {
  const renderGate = () =>
    render(
      <AppThemeProvider>
        <MemoryRouter initialEntries={['/admin/outbox']}>
          <SessionProvider>
            <AdminFactorGate>
              <p>the admin screen</p>
            </AdminFactorGate>
          </SessionProvider>
        </MemoryRouter>
      </AppThemeProvider>,
    );
  const status = (over: object) =>
    server.use(
      http.get(`${API}${API_PATHS.twoFactor}`, () =>
        HttpResponse.json({ enabled: false, required: true, pending: false, recoveryCodesLeft: 0, ...over }),
      ),
    );

  it('tells an administrator without one to set it up, with a link to the profile', async () => {
    forgetAdminFactor();
    signIn(['admin']);
    status({});
    renderGate();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.twoFactor.setupRequired);
    expect(screen.getByRole('link', { name: T.setUpLink })).toHaveAttribute('href', '/profile');
    expect(screen.queryByText('the admin screen')).toBeNull();
  });

  it('shows the screen to an administrator with one, and to a member (whose screen answers for itself)', async () => {
    forgetAdminFactor();
    signIn(['admin']);
    status({ enabled: true, recoveryCodesLeft: 10 });
    const { unmount } = renderGate();
    expect(await screen.findByText('the admin screen')).toBeInTheDocument();
    unmount();
    forgetAdminFactor();
    signIn([]);
    status({ required: false });
    renderGate();
    expect(await screen.findByText('the admin screen')).toBeInTheDocument();
  });
});
