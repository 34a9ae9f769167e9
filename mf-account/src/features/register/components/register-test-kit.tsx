import { API_PATHS, MESSAGES } from '@app/contracts';
import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { TEXTS } from '../../../lib/texts';
import { renderScreen } from '../../../test/render';
import { API, server } from '../../../test/server';
import { RegisterPage } from './register-page';

/** What the Register screen's component tests share: field lookup, valid input, a fake API. */
export const R = MESSAGES.register;
export const T = TEXTS.register;

export const LABELS = {
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
export type Field = keyof typeof LABELS;

// Labels carry a required mark ('*'), so match the label text at the start.
export const input = (name: Field) =>
  screen.getByLabelText(new RegExp(`^${LABELS[name]}(\\s*\\*)?$`)) as HTMLInputElement;

export const VALID: Record<Field, string> = {
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

export async function fill(user: UserEvent, values: Partial<Record<Field, string>>) {
  for (const [name, value] of Object.entries(values) as [Field, string][]) {
    await user.clear(input(name));
    // Pasting is one input event per field: the same React onChange path as typing, much faster.
    if (value !== '') {
      await user.click(input(name));
      await user.paste(value);
    }
  }
}

export const submit = () => screen.getByRole('button', { name: R.create });
/** The confirmation panel that replaces the form after a successful registration. */
export const donePanel = () => screen.findByRole('region', { name: T.doneTitle });

export function renderRegister() {
  return renderScreen(<RegisterPage />, { path: '/register', others: ['/login'] });
}

export function captureRegistration(response: { status?: number; body: unknown } = { body: okBody(true) }) {
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

export function okBody(requiresActivation: boolean) {
  return {
    message: requiresActivation
      ? 'Registration successful. An administrator must activate your account before you can log in.'
      : 'Registration successful. You can now log in.',
    requires_activation: requiresActivation,
  };
}
