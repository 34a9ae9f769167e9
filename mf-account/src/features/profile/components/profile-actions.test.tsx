import { readToken, writeToken } from '@app/api-client';
import { API_PATHS } from '@app/contracts';
import { loginRedirect } from '@app/session';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { declaredStyle } from '../../../test/css-rules';
import {
  failWith,
  loaded,
  location,
  locationState,
  mockApi,
  P,
  PREFS,
  renderProfile,
  T,
} from './profile-test-kit';

beforeEach(() => writeToken('valid-token'));

describe('ProfilePage Change Password', () => {
  const changeButton = () => screen.getByRole('button', { name: T.changePassword });

  it('asks for the new password, then the current one, and sends both', async () => {
    const calls = mockApi();
    const prompt = vi
      .spyOn(window, 'prompt')
      .mockReturnValueOnce('N3wPassword')
      .mockReturnValueOnce('0ldPassword');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(await screen.findByRole('status')).toHaveTextContent(P.passwordUpdated);
    expect(prompt.mock.calls).toEqual([[P.passwordPrompt], [T.currentPasswordPrompt]]);
    expect(calls.passwords).toEqual([{ currentPassword: '0ldPassword', newPassword: 'N3wPassword' }]);
  });

  it('does nothing when the first prompt is cancelled', async () => {
    const calls = mockApi();
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue(null);
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(prompt).toHaveBeenCalledOnce();
    expect(calls.passwords).toHaveLength(0);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('does nothing when the current-password prompt is cancelled', async () => {
    const calls = mockApi();
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce(null);
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(calls.passwords).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each(['', 'short', '1234567'])(
    'refuses a new password of fewer than 8 characters (%j) without a call',
    async (value) => {
      const calls = mockApi();
      const prompt = vi.spyOn(window, 'prompt').mockReturnValueOnce(value);
      const { user } = renderProfile();
      await loaded();
      await user.click(changeButton());
      expect(await screen.findByRole('alert')).toHaveTextContent(T.newPasswordTooShort);
      expect(prompt).toHaveBeenCalledOnce();
      expect(calls.passwords).toHaveLength(0);
    },
  );

  it('refuses an empty current password without a call', async () => {
    const calls = mockApi();
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(T.currentPasswordRequired);
    expect(calls.passwords).toHaveLength(0);
  });

  it.each([
    [400, { error: 'Current password is incorrect' }, 'Current password is incorrect'],
    [500, undefined, P.passwordFailed],
  ])('a %i failure shows %j', async (status, body, expected) => {
    mockApi();
    failWith('put', API_PATHS.changePassword, status, body);
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('wrong');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
  });

  it('a 401 goes to /login with the session-expired notice', async () => {
    mockApi();
    failWith('put', API_PATHS.changePassword, 401, { error: 'Session expired or invalid' });
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('0ldPassword');
    const { user } = renderProfile();
    await loaded();
    await user.click(changeButton());
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual(loginRedirect('session-expired'));
  });
});

describe('ProfilePage Email Opt-In', () => {
  const toggle = () => screen.getByRole('switch', { name: T.emailOptIn });

  it('sends the whole preferences object with emailOptIn flipped, then shows Preferences saved', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle());
    expect(await screen.findByRole('status')).toHaveTextContent(P.preferencesSaved);
    expect(calls.preferences).toEqual([{ ...PREFS, emailOptIn: true }]);
    expect(toggle()).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle());
    await waitFor(() => expect(toggle()).toHaveAttribute('aria-checked', 'false'));
    expect(calls.preferences[1]).toEqual({ ...PREFS, emailOptIn: false });
  });

  it.each([
    [500, { error: 'Could not store preferences' }, 'Could not store preferences'],
    [500, undefined, P.preferencesFailed],
  ])('a %i failure shows %j and keeps the old value', async (status, body, expected) => {
    mockApi();
    failWith('put', API_PATHS.preferences, status, body);
    const { user } = renderProfile();
    await loaded();
    await user.click(toggle());
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(toggle()).toHaveAttribute('aria-checked', 'false');
  });

  it('without preferences the switch is disabled and the rest of the page works', async () => {
    mockApi();
    failWith('get', API_PATHS.preferences, 500, { error: 'nope' });
    renderProfile();
    await loaded();
    expect(toggle()).toBeDisabled();
    expect(screen.getByText(T.preferencesUnavailable)).toBeInTheDocument();
  });
});

describe('ProfilePage Delete Account', () => {
  const deleteButton = () => screen.getByRole('button', { name: T.deleteAccount });

  it('asks for confirmation with the exact text and does nothing when cancelled', async () => {
    const calls = mockApi();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = renderProfile();
    await loaded();
    await user.click(deleteButton());
    expect(confirm).toHaveBeenCalledWith(P.deleteConfirm);
    expect(calls.deletes).toBe(0);
    expect(readToken()).toBe('valid-token');
  });

  it('on success removes the token without a logout call and goes to /register', async () => {
    const calls = mockApi();
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderProfile();
    await loaded();
    await user.click(deleteButton());
    await waitFor(() => expect(location()).toHaveTextContent('/register'));
    expect(calls.deletes).toBe(1);
    expect(readToken()).toBeNull();
    expect(calls.logouts).toBe(0);
  });

  it.each([
    [500, { error: 'Cannot delete right now' }, 'Cannot delete right now'],
    [500, undefined, P.deleteFailed],
  ])('a %i failure shows %j and keeps the session', async (status, body, expected) => {
    mockApi();
    failWith('delete', API_PATHS.deleteAccount, status, body);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderProfile();
    await loaded();
    await user.click(deleteButton());
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(readToken()).toBe('valid-token');
    expect(location()).toHaveTextContent('/profile');
  });
});

describe('ProfilePage feedback sits with its control', () => {
  const quickActions = () => screen.getByRole('article', { name: T.quickActions });
  const dangerZone = () => screen.getByRole('region', { name: T.dangerZone });
  const follows = (first: Element, second: Element) =>
    Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);

  it('Preferences saved shows right under the opt-in switch, not under Delete Account', async () => {
    mockApi();
    const { user } = renderProfile();
    await loaded();
    const toggle = screen.getByRole('switch', { name: T.emailOptIn });
    await user.click(toggle);
    const saved = await within(quickActions()).findByRole('status');
    expect(saved).toHaveTextContent(P.preferencesSaved);
    expect(follows(toggle, saved)).toBe(true);
    expect(toggle).toHaveAccessibleDescription(expect.stringContaining(P.preferencesSaved));
    expect(within(dangerZone()).queryByText(P.preferencesSaved)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.changePassword })).not.toHaveAccessibleDescription(
      expect.stringContaining(P.preferencesSaved),
    );
  });

  it('the Change Password result shows under its button, above the opt-in switch', async () => {
    mockApi();
    vi.spyOn(window, 'prompt').mockReturnValueOnce('N3wPassword').mockReturnValueOnce('0ldPassword');
    const { user } = renderProfile();
    await loaded();
    const button = screen.getByRole('button', { name: T.changePassword });
    await user.click(button);
    const updated = await within(quickActions()).findByRole('status');
    expect(updated).toHaveTextContent(P.passwordUpdated);
    expect(follows(button, updated)).toBe(true);
    expect(follows(updated, screen.getByRole('switch', { name: T.emailOptIn }))).toBe(true);
    expect(button).toHaveAccessibleDescription(P.passwordUpdated);
  });

  it('a new result replaces the last one, at its own control', async () => {
    mockApi();
    vi.spyOn(window, 'prompt').mockReturnValueOnce('short');
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.changePassword }));
    expect(await screen.findByRole('alert')).toHaveTextContent(T.newPasswordTooShort);
    await user.click(screen.getByRole('switch', { name: T.emailOptIn }));
    expect(await screen.findByRole('status')).toHaveTextContent(P.preferencesSaved);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a Delete Account failure shows inside the danger zone, under its button', async () => {
    mockApi();
    failWith('delete', API_PATHS.deleteAccount, 500, { error: 'Cannot delete right now' });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderProfile();
    await loaded();
    const button = within(dangerZone()).getByRole('button', { name: T.deleteAccount });
    await user.click(button);
    const alert = await within(dangerZone()).findByRole('alert');
    expect(alert).toHaveTextContent('Cannot delete right now');
    expect(follows(button, alert)).toBe(true);
    expect(within(quickActions()).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('ProfilePage danger zone', () => {
  it('is a separate, headed section that explains what deleting removes, with an outlined button', async () => {
    mockApi();
    renderProfile();
    await loaded();
    const zone = screen.getByRole('region', { name: T.dangerZone });
    expect(within(zone).getByRole('heading', { level: 2, name: T.dangerZone })).toBeInTheDocument();
    expect(within(zone).getByText(T.dangerZoneText)).toBeInTheDocument();
    const button = within(zone).getByRole('button', { name: T.deleteAccount });
    expect(button).toHaveAccessibleDescription(T.dangerZoneText);
    // Apart from the everyday actions.
    const quick = screen.getByRole('article', { name: T.quickActions });
    expect(within(quick).queryByRole('button', { name: T.deleteAccount })).not.toBeInTheDocument();
    expect(quick.contains(zone)).toBe(false);
    // Bordered in the danger colour; the button outlined, not filled.
    expect(declaredStyle(zone, 'border-color')).toBe('var(--c-danger)');
    expect(declaredStyle(button, 'background')).toBe('transparent');
    expect(declaredStyle(button, 'border-color')).toBe('var(--c-danger)');
    expect(declaredStyle(button, 'color')).toBe('var(--c-danger)');
  });
});
