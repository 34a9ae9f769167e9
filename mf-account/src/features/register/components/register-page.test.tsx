import { API_PATHS, MESSAGES } from '@app/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { TEXTS } from '../../../lib/texts';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { RegisterPage } from './register-page';

const R = MESSAGES.register;
const T = TEXTS.register;

const LABELS = {
  username: T.username,
  email: T.email,
  password: T.password,
  confirmPassword: T.confirmPassword,
  firstName: T.firstName,
  lastName: T.lastName,
  street: T.street,
  city: T.city,
  postalCode: T.postalCode,
  country: T.country,
} as const;
type Field = keyof typeof LABELS;

// Labels carry a required mark ('*'), so match the label text at the start.
const input = (name: Field) =>
  screen.getByLabelText(new RegExp(`^${LABELS[name]}(\\s*\\*)?$`)) as HTMLInputElement;

const VALID: Record<Field, string> = {
  username: 'jane_doe-1',
  email: '  Jane.Doe@Example.COM ',
  password: 'Str0ngPass',
  confirmPassword: 'Str0ngPass',
  firstName: 'Jane',
  lastName: 'Doe',
  street: 'Main Street 1',
  city: 'Berlin',
  postalCode: '10115',
  country: 'Germany',
};

async function fill(user: UserEvent, values: Partial<Record<Field, string>>) {
  for (const [name, value] of Object.entries(values) as [Field, string][]) {
    await user.clear(input(name));
    // Pasting is one input event per field: the same React onChange path as typing, much faster.
    if (value !== '') {
      await user.click(input(name));
      await user.paste(value);
    }
  }
}

const submit = () => screen.getByRole('button', { name: R.create });

function renderRegister() {
  return renderScreen(<RegisterPage />, { path: '/register', others: ['/login'] });
}

function captureRegistration(response: { status?: number; body: unknown } = { body: okBody(true) }) {
  const calls: unknown[] = [];
  server.use(
    http.post(`${API}${API_PATHS.register}`, async ({ request }) => {
      calls.push(await request.json());
      return typeof response.body === 'string'
        ? new HttpResponse(response.body, { status: response.status ?? 201 })
        : HttpResponse.json(response.body as Record<string, unknown>, { status: response.status ?? 201 });
    }),
  );
  return calls;
}

function okBody(requiresActivation: boolean) {
  return {
    message: requiresActivation
      ? 'Registration successful. An administrator must activate your account before you can log in.'
      : 'Registration successful. You can now log in.',
    requires_activation: requiresActivation,
  };
}

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
      expect(input(field)).toHaveFocus();
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
    expect(input('username')).toHaveFocus();
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
    await screen.findByRole('status');
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

describe('RegisterPage submit', () => {
  it('sends the payload of SPEC §3 with the email trimmed and lower-cased', async () => {
    const calls = captureRegistration();
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    await screen.findByRole('status');
    expect(calls).toEqual([
      {
        username: 'jane_doe-1',
        password: 'Str0ngPass',
        name: { first: 'Jane', last: 'Doe' },
        email: 'jane.doe@example.com',
        address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: 'Germany' },
      },
    ]);
  });

  it("reads 'Creating Account...' with the fields disabled while busy", async () => {
    server.use(
      http.post(`${API}${API_PATHS.register}`, async () => {
        await delay(150);
        return HttpResponse.json(okBody(true), { status: 201 });
      }),
    );
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    expect(screen.getByRole('button', { name: R.creating })).toBeDisabled();
    for (const name of Object.keys(LABELS) as Field[]) expect(input(name)).toBeDisabled();
    await screen.findByRole('status');
    expect(screen.getByRole('button', { name: R.create })).toBeEnabled();
  });

  it('with requires_activation: shows the message and the contact-an-administrator notice, clears the form, stays', async () => {
    const setTimeoutSpy = vi.spyOn(window, 'setTimeout');
    captureRegistration({ body: okBody(true) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent(okBody(true).message);
    expect(status).toHaveTextContent(T.activationRequired);
    expect(screen.queryByText(R.activationNote)).not.toBeInTheDocument();
    for (const name of Object.keys(LABELS) as Field[]) expect(input(name)).toHaveValue('');
    expect(setTimeoutSpy.mock.calls.some(([, ms]) => ms === 3000)).toBe(false);
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
  });

  it('without activation: shows the message, clears the form and goes to /login after 3 s', async () => {
    const setTimeoutSpy = vi.spyOn(window, 'setTimeout');
    captureRegistration({ body: okBody(false) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    expect(await screen.findByRole('status')).toHaveTextContent(okBody(false).message);
    expect(screen.getByText(R.activationNote)).toBeInTheDocument();
    expect(input('username')).toHaveValue('');
    expect(screen.getByTestId('location')).toHaveTextContent('/register');
    const redirect = setTimeoutSpy.mock.calls.find(([, ms]) => ms === 3000);
    if (!redirect) throw new Error('no 3 s redirect was scheduled');
    act(() => (redirect[0] as () => void)());
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('really waits 3 s before redirecting', async () => {
    captureRegistration({ body: okBody(false) });
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    await screen.findByRole('status');
    const shownAt = Date.now();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'), {
      timeout: 4000,
    });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(2900);
  }, 10_000);
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
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
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

  it('a network failure shows the retry message', async () => {
    server.use(http.post(`${API}${API_PATHS.register}`, () => HttpResponse.error()));
    const { user } = renderRegister();
    await fill(user, VALID);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(R.failedRetry);
  });
});
