import { API_PATHS, RATE_LIMIT_MESSAGES, rateLimitMessage } from '@app/contracts';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, server } from '../../../test/server';
import {
  captureRegistration,
  donePanel,
  type Field,
  fill,
  input,
  LABELS,
  R,
  renderRegister,
  submit,
  T,
  VALID,
} from './register-test-kit';

describe('RegisterPage layout', () => {
  it('has the three sections, the requirements box, the activation note and a sign-in link', () => {
    renderRegister();
    for (const legend of [T.account, T.personal, T.address]) {
      expect(screen.getByRole('group', { name: legend })).toBeInTheDocument();
    }
    expect(screen.getByText(T.requirementsTitle)).toBeInTheDocument();
    for (const requirement of T.requirements) expect(screen.getByText(requirement)).toBeInTheDocument();
    expect(input('password')).toHaveAccessibleDescription(expect.stringContaining(T.requirements[0]));
    expect(screen.getByText(R.activationNote)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.signIn })).toHaveAttribute('href', '/login');
    expect(submit()).toBeEnabled();
  });

  it('labels every field and marks the required ones', () => {
    renderRegister();
    const required: Field[] = ['username', 'email', 'password', 'confirmPassword', 'firstName', 'street'];
    for (const name of Object.keys(LABELS) as Field[]) {
      if (required.includes(name)) expect(input(name)).toBeRequired();
      else expect(input(name)).not.toBeRequired();
    }
  });

  it('limits the form to 600 px', () => {
    renderRegister();
    const form = screen.getByRole('form', { name: T.title });
    let node: HTMLElement | null = form;
    let found = false;
    while (node && !found) {
      found = getComputedStyle(node).maxWidth === '600px';
      node = node.parentElement;
    }
    expect(found).toBe(true);
  });
});

describe('RegisterPage validation (SPEC §5)', () => {
  it.each<[string, Partial<Record<Field, string>>, Field, string]>([
    ['username empty', { username: '' }, 'username', R.usernameRequired],
    ['username too short', { username: 'ab' }, 'username', R.usernameMin],
    ['username with a space', { username: 'jane doe' }, 'username', R.usernameChars],
    ['username with a symbol', { username: 'jane!' }, 'username', R.usernameChars],
    ['password empty', { password: '', confirmPassword: '' }, 'password', R.passwordRequired],
    ['password too short', { password: 'Ab1', confirmPassword: 'Ab1' }, 'password', R.passwordMin],
    [
      'password without lowercase',
      { password: 'ABCDEFG1', confirmPassword: 'ABCDEFG1' },
      'password',
      R.passwordLower,
    ],
    [
      'password without uppercase',
      { password: 'abcdefg1', confirmPassword: 'abcdefg1' },
      'password',
      R.passwordUpper,
    ],
    [
      'password without digit',
      { password: 'Abcdefgh', confirmPassword: 'Abcdefgh' },
      'password',
      R.passwordDigit,
    ],
    ['confirmation empty', { confirmPassword: '' }, 'confirmPassword', R.confirmRequired],
    ['confirmation different', { confirmPassword: 'Str0ngPasX' }, 'confirmPassword', R.confirmMismatch],
    ['first name empty', { firstName: '' }, 'firstName', R.firstNameRequired],
    ['first name only spaces', { firstName: '   ' }, 'firstName', R.firstNameRequired],
    ['first name too short', { firstName: 'J' }, 'firstName', R.firstNameMin],
    ['email empty', { email: '' }, 'email', R.emailRequired],
    ['email without @', { email: 'jane.example.com' }, 'email', R.emailInvalid],
    ['email without a dot after @', { email: 'jane@example' }, 'email', R.emailInvalid],
    ['email with a space', { email: 'ja ne@example.com' }, 'email', R.emailInvalid],
    ['street empty', { street: '' }, 'street', R.streetRequired],
    ['street too short', { street: 'Main' }, 'street', R.streetMin],
  ])(
    '%s: shows the message under the field, focuses it and sends nothing',
    async (_name, change, field, message) => {
      const calls = captureRegistration();
      const { user } = renderRegister();
      await fill(user, { ...VALID, ...change });
      await user.click(submit());
      const error = await screen.findByText(message);
      expect(input(field)).toHaveAttribute('aria-invalid', 'true');
      expect(input(field)).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(error).toHaveAttribute('role', 'alert');
      await waitFor(() => expect(input(field)).toHaveFocus());
      expect(calls).toHaveLength(0);
    },
  );

  it('shows one message per field on an empty submit and focuses the first field', async () => {
    const calls = captureRegistration();
    const { user } = renderRegister();
    await user.click(submit());
    for (const message of [
      R.usernameRequired,
      R.emailRequired,
      R.passwordRequired,
      R.confirmRequired,
      R.firstNameRequired,
      R.streetRequired,
    ]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    await waitFor(() => expect(input('username')).toHaveFocus());
    for (const optional of ['lastName', 'city', 'postalCode', 'country'] as const) {
      expect(input(optional)).not.toHaveAttribute('aria-invalid');
    }
    expect(calls).toHaveLength(0);
  });

  it('clears each error as its own field is edited, and only that one', async () => {
    const { user } = renderRegister();
    await user.click(submit());
    expect(screen.getByText(R.usernameRequired)).toBeInTheDocument();
    await user.type(input('username'), 'x');
    expect(screen.queryByText(R.usernameRequired)).not.toBeInTheDocument();
    expect(input('username')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText(R.emailRequired)).toBeInTheDocument();
    await user.type(input('street'), 'M');
    expect(screen.queryByText(R.streetRequired)).not.toBeInTheDocument();
    expect(screen.getByText(R.firstNameRequired)).toBeInTheDocument();
  });

  it('accepts the optional fields left empty', async () => {
    const calls = captureRegistration();
    const { user } = renderRegister();
    await fill(user, { ...VALID, lastName: '', city: '', postalCode: '', country: '' });
    await user.click(submit());
    await donePanel();
    expect(calls).toEqual([
      {
        username: 'jane_doe-1',
        password: 'Str0ngPass',
        name: { first: 'Jane', last: '' },
        email: 'jane.doe@example.com',
        address: { street: 'Main Street 1', city: '', postal_code: '', country: '' },
      },
    ]);
  });
});

describe('RegisterPage server failures (SPEC §8)', () => {
  it.each<[string, Record<string, string>, Partial<Record<Field, string>>, Field]>([
    [
      'a taken username',
      { error: 'Username is already taken', username: 'Username is already taken' },
      { username: 'Username is already taken' },
      'username',
    ],
    [
      'a taken email',
      { error: 'Email is already registered', email: 'Email is already registered' },
      { email: 'Email is already registered' },
      'email',
    ],
    [
      'several fields',
      { error: 'Invalid', password: 'Password too weak', username: 'Bad username' },
      { password: 'Password too weak', username: 'Bad username' },
      'username',
    ],
  ])(
    '%s: shows the server errors under their fields and focuses the first',
    async (_n, body, expected, first) => {
      captureRegistration({ status: 409, body });
      const { user } = renderRegister();
      await fill(user, VALID);
      await user.click(submit());
      for (const [name, message] of Object.entries(expected) as [Field, string][]) {
        expect(await screen.findByText(message)).toBeInTheDocument();
        expect(input(name)).toHaveAccessibleDescription(expect.stringContaining(message));
      }
      await waitFor(() => expect(input(first)).toHaveFocus());
      expect(screen.queryByRole('region', { name: T.doneTitle })).not.toBeInTheDocument();
      // The form keeps what the user typed, so only the wrong field needs changing.
      expect(input('street')).toHaveValue(VALID.street);
      await user.type(input(first), 'x');
      expect(screen.queryByText(expected[first] as string)).not.toBeInTheDocument();
    },
  );

  it.each<[string, number, unknown, string]>([
    ['a body with an error', 400, { error: 'Registration is closed' }, 'Registration is closed'],
    ['a body without error', 400, { detail: 'x' }, R.failed],
    ['a body with only a message', 500, { message: 'Oops' }, R.failed],
    ['no usable body', 500, 'Internal Server Error', R.failedRetry],
  ])('%s: shows the general message', async (_n, status, body, expected) => {
    captureRegistration({ status, body });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(expected);
    expect(input('username')).toHaveValue(VALID.username);
  });

  it('over the rate limit (429): shows the server message and keeps everything typed', async () => {
    const error = rateLimitMessage(RATE_LIMIT_MESSAGES.register, 3540);
    captureRegistration({ status: 429, body: { error } });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(error);
    expect(error).toBe('Too many registrations from your network. Please try again in 59 minutes.');
    // (An email input's value never has surrounding spaces: the browser strips them as it is typed.)
    for (const name of Object.keys(LABELS) as Field[]) expect(input(name)).toHaveValue(VALID[name].trim());
    expect(submit()).toBeEnabled();
  });

  it('a network failure shows the retry message', async () => {
    server.use(http.post(`${API}${API_PATHS.register}`, () => HttpResponse.error()));
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(R.failedRetry);
  });
});
