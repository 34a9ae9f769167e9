import {
  API_PATHS,
  MESSAGES,
  RecoveryCodesSchema,
  TwoFactorSetupSchema,
  TwoFactorStatusSchema,
} from '@app/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser, totpCode } from './helpers';

/**
 * Issue 46: a member's second factor (TOTP) from setup to login: codes computed with otplib from the secret
 * the setup shows, as an authenticator app would; the server's clock is stepped, never waited for.
 */
const T = MESSAGES.twoFactor;
const STEP = 30_000;
const clock = { now: Date.parse('2026-05-01T09:00:00.000Z') };
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    { lockout: { maxAttempts: 3, windowMs: 15 * 60_000, durationMs: 15 * 60_000, addressMaxAttempts: 1000 } },
    () => clock.now,
  );
});
afterAll(() => s.close());

/** A new time step: the next code of every authenticator. */
const nextStep = () => {
  clock.now += STEP;
};
const login = (u: TestUser, code?: string) =>
  s.post(API_PATHS.login, {
    username: u.email,
    password: u.password,
    ...(code === undefined ? {} : { code }),
  });

/** A member with TOTP on, set up through the API; the clock left on a step no code was used in. */
async function memberWithTotp(): Promise<TestUser> {
  const u = await s.user([], 'totp', { twoFactor: true });
  nextStep();
  nextStep();
  return u;
}

describe('setting up', () => {
  it('needs the password, shows the secret as text and QR code, and stays pending until a code confirms it', async () => {
    const u = await s.user();
    const wrong = await s.post(API_PATHS.twoFactorSetup, { password: 'Wrong123x' }, u.token);
    expect([wrong.status, wrong.body]).toEqual([
      400,
      { error: 'Current password is incorrect', password: 'Current password is incorrect' },
    ]);
    const missing = await s.post(API_PATHS.twoFactorSetup, {}, u.token);
    expect(missing.status).toBe(400);

    const r = await s.post(API_PATHS.twoFactorSetup, { password: u.password }, u.token);
    expect(r.status).toBe(200);
    const setup = v.parse(TwoFactorSetupSchema, r.body);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toBe(
      `otpauth://totp/${encodeURIComponent(MESSAGES.app.companyName)}:${encodeURIComponent(u.email)}?secret=${setup.secret}&issuer=${encodeURIComponent(MESSAGES.app.companyName)}`,
    );
    expect(Buffer.from(setup.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toMatch(
      /^<svg /,
    );
    const pending = v.parse(TwoFactorStatusSchema, (await s.get(API_PATHS.twoFactor, u.token)).body);
    expect(pending).toEqual({ enabled: false, required: false, pending: true, recoveryCodesLeft: 0 });
    // Not on until confirmed: the login still needs no code.
    expect((await login(u)).status).toBe(200);

    const bad = await s.post(API_PATHS.twoFactorConfirm, { code: '000000' }, u.token);
    expect([bad.status, bad.body]).toEqual([400, { error: T.codeWrong, code: T.codeWrong }]);
    const ok = await s.post(API_PATHS.twoFactorConfirm, { code: totpCode(setup.secret, clock.now) }, u.token);
    expect(ok.status).toBe(200);
    const { recoveryCodes, message } = v.parse(RecoveryCodesSchema, ok.body);
    expect(message).toBe(T.enabled);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){5}$/);
    expect((await s.get(API_PATHS.twoFactor, u.token)).body).toEqual({
      enabled: true,
      required: false,
      pending: false,
      recoveryCodesLeft: 10,
    });

    // At rest: the secret sealed, the recovery codes as hashes.
    const row = await s.sql.get<{ secret_sealed: string }>(
      'SELECT secret_sealed FROM user_totp WHERE user_id = ?',
      [u.id],
    );
    expect(row!.secret_sealed.startsWith('v1.')).toBe(true);
    expect(row!.secret_sealed).not.toContain(setup.secret);
    const hashes = await s.sql.column<string>('SELECT code_hash FROM user_recovery_codes WHERE user_id = ?', [
      u.id,
    ]);
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes) expect(hashes.join()).not.toContain(code.replace(/-/g, ''));
  });

  it('answers bad input with 400 and a message, and a confirm without a setup plainly', async () => {
    const u = await s.user();
    const none = await s.post(API_PATHS.twoFactorConfirm, { code: '123456' }, u.token);
    expect([none.status, none.body.error]).toEqual([400, T.noPending]);
    const empty = await s.post(API_PATHS.twoFactorConfirm, { code: '  ' }, u.token);
    expect([empty.status, empty.body.error]).toEqual([400, T.codeMissing]);
    const long = await s.post(API_PATHS.twoFactorVerify, { code: 'x'.repeat(41) }, u.token);
    expect([long.status, long.body.error]).toEqual([400, T.codeWrong]);
    expect((await s.post(API_PATHS.twoFactorSetup, undefined, u.token)).status).toBe(400);
    expect((await s.get(API_PATHS.twoFactor)).status).toBe(401);
  });
});

describe('logging in with a second factor', () => {
  it('asks for the code (not counted), refuses a wrong one (counted), accepts the right one once', async () => {
    const u = await memberWithTotp();
    // Without a code: 401 with the flag, as often as the form is sent (maxAttempts is 3 here).
    for (let i = 0; i < 4; i++) {
      const r = await login(u);
      expect([r.status, r.body]).toEqual([401, { error: T.codeRequired, twoFactorRequired: true }]);
    }
    // The wrong password is still just a wrong password: nothing says the account has a second factor.
    const pw = await s.post(API_PATHS.login, { username: u.email, password: 'Wrong123x', code: '123456' });
    expect([pw.status, pw.body]).toEqual([401, { error: 'Invalid email or password' }]);
    const wrong = await login(u, '000000');
    expect([wrong.status, wrong.body]).toEqual([401, { error: T.codeWrong, twoFactorRequired: true }]);
    const code = s.code(u);
    const ok = await login(u, code);
    expect(ok.status).toBe(200);
    expect((await s.get(API_PATHS.profile, ok.body.token)).status).toBe(200);
    // The same code again, within its window: refused as a replay. Wrong codes count like wrong
    // passwords: the third failure in the window locks (maxAttempts is 3 here).
    const replay = await login(u, code);
    expect([replay.status, replay.body]).toEqual([401, { error: T.codeWrong, twoFactorRequired: true }]);
    expect((await login(u, '999999')).status).toBe(401);
    const locked = await login(u, '999998');
    expect([locked.status, locked.body]).toEqual([423, { error: MESSAGES.login.locked }]);
    clock.now += 15 * 60_000;
    expect((await login(u, s.code(u))).status).toBe(200);
  });

  it('accepts a code typed with a space, and one step early or late, but not two', async () => {
    const u = await memberWithTotp();
    const early = totpCode(u.totpSecret!, clock.now + STEP);
    expect((await login(u, `${early.slice(0, 3)} ${early.slice(3)}`)).status).toBe(200);
    nextStep();
    nextStep();
    nextStep();
    const late = totpCode(u.totpSecret!, clock.now - STEP);
    expect((await login(u, late)).status).toBe(200);
    nextStep();
    expect((await login(u, totpCode(u.totpSecret!, clock.now - 2 * STEP))).status).toBe(401);
    expect((await login(u, totpCode(u.totpSecret!, clock.now + 2 * STEP))).status).toBe(401);
  });

  it('takes a recovery code once in place of a code, whatever its case and dashes', async () => {
    const u = await memberWithTotp();
    const [first, second] = u.recoveryCodes!;
    expect((await login(u, first!.toUpperCase().replace(/-/g, ' '))).status).toBe(200);
    expect((await login(u, first!)).status).toBe(401);
    expect((await login(u, second!)).status).toBe(200);
    const ok = await login(u, s.code(u));
    expect((await s.get(API_PATHS.twoFactor, ok.body.token)).body.recoveryCodesLeft).toBe(8);
  });
});

describe('turning it off and replacing it', () => {
  it('lets a member turn it off with the password and a code', async () => {
    const u = await memberWithTotp();
    const noCode = await s.post(
      API_PATHS.twoFactorDisable,
      { password: u.password, code: '000000' },
      u.token,
    );
    expect([noCode.status, noCode.body.error]).toEqual([400, T.codeWrong]);
    const noPw = await s.post(
      API_PATHS.twoFactorDisable,
      { password: 'Wrong123x', code: s.code(u) },
      u.token,
    );
    expect(noPw.status).toBe(400);
    nextStep();
    const off = await s.post(API_PATHS.twoFactorDisable, { password: u.password, code: s.code(u) }, u.token);
    expect([off.status, off.body]).toEqual([200, { message: T.disabled }]);
    expect((await login(u)).status).toBe(200);
    expect(
      Number(await s.sql.value('SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = ?', [u.id])),
    ).toBe(0);
    const again = await s.post(API_PATHS.twoFactorDisable, { password: u.password, code: '123456' }, u.token);
    expect([again.status, again.body.error]).toEqual([400, T.notEnabled]);
  });

  it('replaces an authenticator only with the current code; the old one works until the new one is confirmed', async () => {
    const u = await memberWithTotp();
    const oldSecret = u.totpSecret!;
    const refused = await s.post(API_PATHS.twoFactorSetup, { password: u.password }, u.token);
    expect([refused.status, refused.body.error]).toEqual([400, T.codeMissing]);
    const r = await s.post(API_PATHS.twoFactorSetup, { password: u.password, code: s.code(u) }, u.token);
    expect(r.status).toBe(200);
    nextStep();
    expect((await login(u, totpCode(oldSecret, clock.now))).status).toBe(200);
    const confirmed = await s.post(
      API_PATHS.twoFactorConfirm,
      { code: totpCode(r.body.secret, clock.now) },
      u.token,
    );
    expect(confirmed.status).toBe(200);
    nextStep();
    expect((await login(u, totpCode(oldSecret, clock.now))).status).toBe(401);
    expect((await login(u, totpCode(r.body.secret, clock.now))).status).toBe(200);
    // The old recovery codes went with the old authenticator.
    expect((await login(u, u.recoveryCodes![0]!)).status).toBe(401);
    clock.now += 15 * 60_000;
  });

  it('locks code guessing in a signed-in session after a few wrong codes', async () => {
    const u = await memberWithTotp();
    for (let i = 0; i < 2; i++)
      expect((await s.post(API_PATHS.twoFactorVerify, { code: '000000' }, u.token)).status).toBe(400);
    const locked = await s.post(API_PATHS.twoFactorVerify, { code: '000000' }, u.token);
    expect([locked.status, locked.body.error]).toEqual([423, MESSAGES.login.locked]);
    // Even the right code waits for the lock to end.
    expect((await s.post(API_PATHS.twoFactorVerify, { code: s.code(u) }, u.token)).status).toBe(423);
    clock.now += 15 * 60_000;
    expect((await s.post(API_PATHS.twoFactorVerify, { code: s.code(u) }, u.token)).status).toBe(200);
  });
});
