import { MESSAGES } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { LOGIN_NOTICE_TEXT, loginRedirect, readLoginNotice } from './login-redirect';

describe('the login redirect contract', () => {
  it('carries a notice kind that the Login page reads back', () => {
    expect(readLoginNotice(loginRedirect('session-expired'))).toBe('session-expired');
    expect(readLoginNotice(loginRedirect('login-required'))).toBe('login-required');
  });

  it('reads nothing from a visit without state or with state it does not know', () => {
    for (const state of [null, undefined, {}, 'session-expired', { notice: 'Hello' }, { notice: 42 }])
      expect(readLoginNotice(state)).toBeNull();
  });

  it('shows SPEC §8’s texts for the two reasons', () => {
    expect(LOGIN_NOTICE_TEXT['login-required']).toBe('Please log in to view your profile.');
    expect(LOGIN_NOTICE_TEXT['session-expired']).toBe(MESSAGES.profile.sessionExpired);
    expect(MESSAGES.profile.sessionExpired).toBe('Session expired or unauthorized. Please log in again.');
  });
});
