import { readToken, writeToken } from '@app/api-client';
import { API_PATHS, MESSAGES } from '@app/contracts';
import { loginRedirect } from '@app/session';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  details,
  failWith,
  input,
  loaded,
  location,
  locationState,
  mockApi,
  overview,
  P,
  PROFILE,
  renderProfile,
  T,
} from './profile-test-kit';

beforeEach(() => writeToken('valid-token'));

describe('ProfilePage loading', () => {
  it('with no token says the user must log in and goes to /login with that notice', async () => {
    writeToken(null);
    renderProfile();
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual(loginRedirect('login-required'));
  });

  it('shows Loading... and then the profile in view mode', async () => {
    mockApi();
    renderProfile();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.app.loading);
    await loaded();
    const card = within(details());
    for (const text of ['jane_doe', 'Jane', 'Doe', 'jane@example.com', 'Main Street 1', 'Berlin', '10115']) {
      expect(card.getByText(text)).toBeInTheDocument();
    }
    // An empty value (country) shows a dash.
    expect(card.getByText(T.empty)).toBeInTheDocument();
    expect(card.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('names the browser tab My Profile', async () => {
    mockApi();
    renderProfile();
    await loaded();
    expect(document.title).toBe(`${T.title} | ${MESSAGES.app.companyName}`);
  });

  it('shows the Account Overview: status, member since and roles', async () => {
    mockApi();
    renderProfile();
    await loaded();
    const box = within(overview());
    expect(box.getByText(T.active)).toBeInTheDocument();
    expect(box.getByText('Mar 15, 2026')).toBeInTheDocument();
    expect(box.getByText('paid-tier-1')).toBeInTheDocument();
  });

  it('shows an inactive status and Basic Member with no roles', async () => {
    mockApi({ profile: { ...PROFILE, roles: [], is_active: false } });
    renderProfile();
    await loaded();
    expect(within(overview()).getByText(T.inactive)).toBeInTheDocument();
    expect(within(overview()).getByText(T.noRoles)).toBeInTheDocument();
  });

  it('tolerates a plain-string name and address', async () => {
    mockApi({ profile: { ...PROFILE, name: 'Plain Name', address: 'Old Street 9' } });
    renderProfile();
    await loaded();
    expect(within(details()).getByText('Plain Name')).toBeInTheDocument();
    expect(within(details()).getByText('Old Street 9')).toBeInTheDocument();
  });

  it('a 401 says the session expired, clears the token and goes to /login', async () => {
    mockApi();
    failWith('get', API_PATHS.profile, 401, { error: 'Session expired or invalid' });
    renderProfile();
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual(loginRedirect('session-expired'));
    expect(readToken()).toBeNull();
  });

  it.each([
    [500, { error: 'Database is down' }, 'Database is down'],
    [500, undefined, P.loadFailed],
  ])('a %i load failure shows %j, and Retry loads again', async (status, body, expected) => {
    mockApi();
    failWith('get', API_PATHS.profile, status, body);
    const { user } = renderProfile();
    expect(await screen.findByRole('alert')).toHaveTextContent(expected);
    mockApi();
    await user.click(screen.getByRole('button', { name: MESSAGES.app.retry }));
    await loaded();
  });
});

describe('ProfilePage edit mode', () => {
  it('switches to a form with read-only username, required marks and the current values', async () => {
    mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    expect(input(T.username)).toHaveAttribute('readonly');
    expect(input(T.username)).toHaveValue('jane_doe');
    expect(input(T.firstName)).toBeRequired();
    expect(input(T.email)).toBeRequired();
    expect(input(T.street)).toBeRequired();
    for (const optional of [T.lastName, T.city, T.postalCode, T.country])
      expect(input(optional)).not.toBeRequired();
    expect(input(T.firstName)).toHaveValue('Jane');
    expect(input(T.postalCode)).toHaveValue('10115');
    await waitFor(() => expect(input(T.firstName)).toHaveFocus());
  });

  it('saves, shows the success message, returns to view mode and hides the message after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.clear(input(T.firstName));
    await user.type(input(T.firstName), 'Janet');
    await user.clear(input(T.email));
    await user.type(input(T.email), ' Janet@Example.com ');
    // A new email asks for the current password (issue 46).
    await user.type(input(T.currentPassword), 'My-passw0rd');
    await user.type(input(T.country), 'Germany');
    await user.click(screen.getByRole('button', { name: T.save }));
    expect(await screen.findByText(P.updated)).toHaveRole('status');
    expect(calls.profileUpdates).toEqual([
      {
        current_password: 'My-passw0rd',
        name: { first: 'Janet', last: 'Doe' },
        email: 'janet@example.com',
        address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
      },
    ]);
    // The email changes only when the link mailed to the new address is followed.
    expect(screen.getByText(MESSAGES.emailChange.pending('janet@example.com'))).toBeInTheDocument();
    expect(within(details()).getByText(PROFILE.email)).toBeInTheDocument();
    expect(within(details()).getByText('Janet')).toBeInTheDocument();
    expect(within(details()).getByText('Germany')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: T.save })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: T.edit })).toHaveFocus();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByText(P.updated)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1100));
    expect(screen.queryByText(P.updated)).not.toBeInTheDocument();
  });

  it('asks for the current password only when the email changes, and keeps what was typed when it is wrong', async () => {
    const calls = mockApi();
    failWith('put', API_PATHS.profile, 400, {
      error: MESSAGES.emailChange.passwordWrong,
      current_password: MESSAGES.emailChange.passwordWrong,
    });
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    expect(screen.queryByLabelText(new RegExp(`^${T.currentPassword}`))).toBeNull();
    await user.clear(input(T.email));
    await user.type(input(T.email), 'other@example.com');
    await user.click(screen.getByRole('button', { name: T.save }));
    expect(input(T.currentPassword)).toHaveAccessibleDescription(MESSAGES.emailChange.passwordRequired);
    expect(input(T.currentPassword)).toHaveFocus();
    expect(calls.profileUpdates).toEqual([]);
    await user.type(input(T.currentPassword), 'Not-mine-1');
    await user.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() =>
      expect(input(T.currentPassword)).toHaveAccessibleDescription(MESSAGES.emailChange.passwordWrong),
    );
    expect(input(T.email)).toHaveValue('other@example.com');
    expect(input(T.currentPassword)).toHaveValue('Not-mine-1');
  });

  it('Cancel returns to view mode without saving', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.clear(input(T.firstName));
    await user.type(input(T.firstName), 'Changed');
    await user.click(screen.getByRole('button', { name: T.cancel }));
    expect(within(details()).getByText('Jane')).toBeInTheDocument();
    expect(calls.profileUpdates).toHaveLength(0);
    await waitFor(() => expect(screen.getByRole('button', { name: T.edit })).toHaveFocus());
  });

  it.each([
    [T.firstName, '', MESSAGES.register.firstNameRequired],
    [T.firstName, 'J', MESSAGES.register.firstNameMin],
    [T.email, 'not-an-email', MESSAGES.register.emailInvalid],
    [T.email, '', MESSAGES.register.emailRequired],
    [T.street, 'Main', MESSAGES.register.streetMin],
    [T.street, '', MESSAGES.register.streetRequired],
  ])('%s = %j is refused before any call with %j, tied to the field', async (label, value, message) => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.clear(input(label));
    if (value) await user.type(input(label), value);
    await user.click(screen.getByRole('button', { name: T.save }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(input(label)).toHaveAccessibleDescription(message);
    await waitFor(() => expect(input(label)).toHaveFocus());
    expect(calls.profileUpdates).toHaveLength(0);
    await user.type(input(label), 'x');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
  });

  it.each([
    [400, { error: 'Street address is required' }, 'Street address is required'],
    [500, undefined, P.updateFailed],
  ])('a %i update failure shows %j and stays in edit mode', async (status, body, expected) => {
    mockApi();
    failWith('put', API_PATHS.profile, status, body);
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.click(screen.getByRole('button', { name: T.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(screen.getByRole('button', { name: T.save })).toBeEnabled();
  });

  it('a taken email shows the server error and marks the email field', async () => {
    mockApi();
    failWith('put', API_PATHS.profile, 409, {
      error: 'Email is already registered',
      email: 'Email is already registered',
    });
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(input(T.email)).toHaveFocus());
    expect(input(T.email)).toHaveAccessibleDescription('Email is already registered');
  });

  it('a 401 on save goes to /login with the session-expired notice', async () => {
    mockApi();
    failWith('put', API_PATHS.profile, 401, { error: 'Session expired or invalid' });
    const { user } = renderProfile();
    await loaded();
    await user.click(screen.getByRole('button', { name: T.edit }));
    await user.click(screen.getByRole('button', { name: T.save }));
    await waitFor(() => expect(location()).toHaveTextContent('/login'));
    expect(locationState()).toEqual(loginRedirect('session-expired'));
  });
});

describe('ProfilePage keyboard', () => {
  it('edits and saves with the keyboard alone', async () => {
    const calls = mockApi();
    const { user } = renderProfile();
    await loaded();
    screen.getByRole('button', { name: T.edit }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(input(T.firstName)).toHaveFocus());
    await user.keyboard('{Control>}a{/Control}Joan{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(P.updated);
    expect(calls.profileUpdates).toHaveLength(1);
  });
});
