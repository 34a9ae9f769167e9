import { API_PATHS, MESSAGES } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/services/account-model';
import { startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Issue 46, tried as an attacker holding a stolen session token: the forms that ask for the current password
 * (email change, password change, two-factor setup) must not be a way to guess it. Wrong guesses count on the
 * account, across those forms, and lock further guesses as a login's failures do; the right password is
 * then refused too until the lock ends, and nothing changes meanwhile.
 */
const LOCK_MS = 15 * 60_000;
let s: TestServer;
let clock = Date.now();

beforeAll(async () => {
  s = await startTestServer(
    { lockout: { maxAttempts: 5, windowMs: 60_000, durationMs: LOCK_MS, addressMaxAttempts: 100 } },
    () => clock,
  );
});
afterAll(() => s.close());

const emailChange = (u: TestUser, current_password: string) =>
  s.put(
    API_PATHS.profile,
    {
      name: { first: 'Jane', last: 'Doe' },
      email: `taken.${u.username}@example.com`,
      address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
      current_password,
    },
    u.token,
  );
const passwordChange = (u: TestUser, currentPassword: string) =>
  s.put(API_PATHS.changePassword, { currentPassword, newPassword: 'Thief-pass-99' }, u.token);
const twoFactorSetup = (u: TestUser, password: string) =>
  s.post(API_PATHS.twoFactorSetup, { password }, u.token);

describe('a stolen session guessing the password', () => {
  it('is locked out after five wrong guesses across the forms, and the right password is refused too', async () => {
    const u = await s.user();
    const guesses = [
      () => emailChange(u, 'Guess-one-1'),
      () => passwordChange(u, 'Guess-two-2'),
      () => twoFactorSetup(u, 'Guess-three-3'),
      () => emailChange(u, 'Guess-four-4'),
    ];
    for (const guess of guesses) {
      const res = await guess();
      expect(res.status).toBe(400);
      expect([MESSAGES.emailChange.passwordWrong, MSG.currentPasswordWrong]).toContain(res.body.error);
    }
    const fifth = await passwordChange(u, 'Guess-five-5');
    expect(fifth.status).toBe(423);
    expect(fifth.body.error).toBe(MSG.locked);

    // The right password now changes nothing, by any form.
    for (const res of [
      await emailChange(u, u.password),
      await passwordChange(u, u.password),
      await twoFactorSetup(u, u.password),
    ]) {
      expect(res.status).toBe(423);
      expect(res.body.error).toBe(MSG.locked);
    }
    const profile = (await s.get(API_PATHS.profile, u.token)).body;
    expect(profile).toMatchObject({ email: u.email, pending_email: null });
    expect((await s.post('/api/login', { username: u.email, password: u.password })).status).toBe(200);
  });

  it('may try again once the lock ends; a right guess starts the count again', async () => {
    const u = await s.user();
    for (let i = 0; i < 5; i++) await passwordChange(u, `Wrong-pass-${i}`);
    expect((await passwordChange(u, u.password)).status).toBe(423);
    clock += LOCK_MS + 1;
    const change = await emailChange(u, u.password);
    expect(change.status).toBe(200);
    expect(change.body.pending_email).toBe(`taken.${u.username}@example.com`);
    // Four wrong, one right, four wrong again: never five in a row, never locked.
    for (let i = 0; i < 4; i++) expect((await twoFactorSetup(u, `Wrong-${i}`)).status).toBe(400);
    expect((await twoFactorSetup(u, u.password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await passwordChange(u, `Wrong-${i}`)).status).toBe(400);
    expect(
      (
        await s.put(
          API_PATHS.changePassword,
          { currentPassword: u.password, newPassword: 'Owner-pass-77' },
          u.token,
        )
      ).status,
    ).toBe(200);
  });

  it("counts per account: one account's lock leaves another's forms alone", async () => {
    const a = await s.user();
    const b = await s.user();
    for (let i = 0; i < 5; i++) await emailChange(a, `Wrong-pass-${i}`);
    expect((await emailChange(a, a.password)).status).toBe(423);
    const other = await emailChange(b, b.password);
    expect(other.status).toBe(200);
    expect(other.body.pending_email).toBe(`taken.${b.username}@example.com`);
  });
});
