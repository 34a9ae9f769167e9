import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { RegistrationFormSchema, RegistrationPayloadSchema, toRegistrationPayload } from './accounts';
import { MESSAGES } from './messages';
import { fieldErrors } from './rules';

const R = MESSAGES.register;
const valid = {
  username: 'jane_doe-1',
  password: 'Secret123',
  confirmPassword: 'Secret123',
  firstName: 'Jane',
  lastName: '',
  email: '  Jane@Example.COM ',
  street: 'Main Street 1',
  city: '',
  postalCode: '',
  country: '',
};

function errorsFor(input: object) {
  const result = v.safeParse(RegistrationFormSchema, { ...valid, ...input });
  return result.success ? {} : fieldErrors(result.issues);
}

describe('registration rules (SPEC §5)', () => {
  it('accepts a valid form and builds the §3 payload with a trimmed, lower-cased email', () => {
    const result = v.safeParse(RegistrationFormSchema, valid);
    expect(result.success).toBe(true);
    if (!result.success) return;
    const payload = toRegistrationPayload(result.output);
    expect(payload.email).toBe('jane@example.com');
    expect(payload.name).toEqual({ first: 'Jane', last: '' });
    expect(payload.address.street).toBe('Main Street 1');
    expect(v.safeParse(RegistrationPayloadSchema, payload).success).toBe(true);
  });

  it.each([
    [{ username: '' }, 'username', R.usernameRequired],
    [{ username: 'ab' }, 'username', R.usernameMin],
    [{ username: 'bad name!' }, 'username', R.usernameChars],
    [{ password: '', confirmPassword: '' }, 'password', R.passwordRequired],
    [{ password: 'Ab1', confirmPassword: 'Ab1' }, 'password', R.passwordMin],
    [{ password: 'ABCDEFG1', confirmPassword: 'ABCDEFG1' }, 'password', R.passwordLower],
    [{ password: 'abcdefg1', confirmPassword: 'abcdefg1' }, 'password', R.passwordUpper],
    [{ password: 'Abcdefgh', confirmPassword: 'Abcdefgh' }, 'password', R.passwordDigit],
    [{ confirmPassword: '' }, 'confirmPassword', R.confirmRequired],
    [{ confirmPassword: 'Secret124' }, 'confirmPassword', R.confirmMismatch],
    [{ firstName: '' }, 'firstName', R.firstNameRequired],
    [{ firstName: 'J' }, 'firstName', R.firstNameMin],
    [{ email: '' }, 'email', R.emailRequired],
    [{ email: 'jane example.com' }, 'email', R.emailInvalid],
    [{ email: 'jane@example' }, 'email', R.emailInvalid],
    [{ street: '' }, 'street', R.streetRequired],
    [{ street: 'Main' }, 'street', R.streetMin],
  ])('%j → %s: %s', (input, field, message) => {
    expect(errorsFor(input)[field]).toBe(message);
  });
});
