import { API_PATHS, MESSAGES } from '@app/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { TWO_FACTOR_TEXTS as T } from '../texts';
import { TwoFactorSection } from './two-factor-section';

/** Issue 46: the profile's two-factor section against a fake API that keeps the account's state. */
const TF = MESSAGES.twoFactor;
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-dd${String.fromCharCode(97 + i)}${i}`);

function fakeApi({ admin = false, enabled = false } = {}) {
  const state = { enabled, pending: false, bodies: [] as { path: string; body: Record<string, string> }[] };
  const record = async (path: string, request: Request) => {
    const body = (await request.json()) as Record<string, string>;
    state.bodies.push({ path, body });
    return body;
  };
  server.use(
    http.get(`${API}${API_PATHS.twoFactor}`, () =>
      HttpResponse.json({
        enabled: state.enabled,
        required: admin,
        pending: state.pending,
        recoveryCodesLeft: state.enabled ? 10 : 0,
      }),
    ),
    http.post(`${API}${API_PATHS.twoFactorSetup}`, async ({ request }) => {
      const body = await record('setup', request);
      if (body.password !== 'Secret123')
        return HttpResponse.json({ error: 'Current password is incorrect' }, { status: 400 });
      if (state.enabled && body.code !== '111111')
        return HttpResponse.json({ error: TF.codeWrong }, { status: 400 });
      state.pending = true;
      return HttpResponse.json({
        secret: SECRET,
        otpauthUrl: `otpauth://totp/x:y?secret=${SECRET}`,
        qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
      });
    }),
    http.post(`${API}${API_PATHS.twoFactorConfirm}`, async ({ request }) => {
      const body = await record('confirm', request);
      if (body.code !== '123456') return HttpResponse.json({ error: TF.codeWrong }, { status: 400 });
      state.enabled = true;
      state.pending = false;
      return HttpResponse.json({ message: TF.enabled, recoveryCodes: CODES });
    }),
    http.post(`${API}${API_PATHS.twoFactorDisable}`, async ({ request }) => {
      const body = await record('disable', request);
      if (body.code !== '222222') return HttpResponse.json({ error: TF.codeWrong }, { status: 400 });
      state.enabled = false;
      return HttpResponse.json({ message: TF.disabled });
    }),
  );
  return state;
}

const renderSection = () => renderScreen(<TwoFactorSection />, { path: '/profile' });
const section = () => screen.getByRole('region', { name: T.title });

describe('the two-factor section of the profile', () => {
  it('sets up an authenticator: password, QR code and key, a code from the app, then the recovery codes once', async () => {
    const state = fakeApi();
    const { user } = renderSection();
    expect(await screen.findByText(T.off)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: T.setUp }));

    await user.click(screen.getByRole('button', { name: T.continue }));
    expect(screen.getByRole('alert')).toHaveTextContent(TF.passwordRequired);
    expect(screen.getByLabelText(/^Current password/)).toHaveFocus();
    await user.type(screen.getByLabelText(/^Current password/), 'Wrong123x');
    await user.click(screen.getByRole('button', { name: T.continue }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Current password/)).toHaveValue('Wrong123x');
    await user.clear(screen.getByLabelText(/^Current password/));
    await user.type(screen.getByLabelText(/^Current password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: T.continue }));

    const qr = await screen.findByRole('img', { name: T.qrAlt });
    expect(qr).toHaveAttribute('src', 'data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByText(SECRET)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: T.turnOn }));
    expect(screen.getByRole('alert')).toHaveTextContent(TF.codeMissing);
    await user.type(screen.getByLabelText(/^Code from your authenticator app/), '000000');
    await user.click(screen.getByRole('button', { name: T.turnOn }));
    expect(await screen.findByText(TF.codeWrong)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Code from your authenticator app/)).toHaveValue('000000');
    await user.clear(screen.getByLabelText(/^Code from your authenticator app/));
    await user.type(screen.getByLabelText(/^Code from your authenticator app/), '123456');
    await user.click(screen.getByRole('button', { name: T.turnOn }));

    expect(await screen.findByText(TF.enabled)).toBeInTheDocument();
    const list = screen.getByRole('list', { name: T.recoveryTitle });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    await user.click(screen.getByRole('button', { name: T.saved }));
    expect(await screen.findByText(T.on(10))).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: T.recoveryTitle })).toBeNull();
    expect(within(section()).getByRole('button', { name: T.turnOff })).toBeInTheDocument();
    expect(state.bodies).toEqual([
      { path: 'setup', body: { password: 'Wrong123x', code: '' } },
      { path: 'setup', body: { password: 'Secret123', code: '' } },
      { path: 'confirm', body: { code: '000000' } },
      { path: 'confirm', body: { code: '123456' } },
    ]);
  });

  it('lets a member turn it off with the password and a code', async () => {
    fakeApi({ enabled: true });
    const { user } = renderSection();
    await user.click(await screen.findByRole('button', { name: T.turnOff }));
    await user.type(screen.getByLabelText(/^Current password/), 'Secret123');
    await user.click(screen.getByRole('button', { name: T.confirmOff }));
    expect(screen.getByRole('alert')).toHaveTextContent(TF.codeMissing);
    await user.type(screen.getByLabelText(/^Code from your current authenticator/), '222222');
    await user.click(screen.getByRole('button', { name: T.confirmOff }));
    expect(await screen.findByText(TF.disabled)).toBeInTheDocument();
    expect(await screen.findByText(T.off)).toBeInTheDocument();
  });

  it('tells an administrator it is required, and offers an administrator who has it only a replacement', async () => {
    fakeApi({ admin: true });
    const first = renderSection();
    expect(await screen.findByText(TF.setupRequired)).toBeInTheDocument();
    first.unmount();

    fakeApi({ admin: true, enabled: true });
    const { user } = renderSection();
    expect(await screen.findByText(T.requiredNote)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.turnOff })).toBeNull();
    await user.click(screen.getByRole('button', { name: T.replace }));
    await user.type(screen.getByLabelText(/^Current password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Code from your current authenticator/), '111111');
    await user.click(screen.getByRole('button', { name: T.continue }));
    expect(await screen.findByRole('img', { name: T.qrAlt })).toBeInTheDocument();
  });
});
