import { MESSAGES, type Preferences, type Roles, type Viewer } from '@app/contracts';

/** User rows, the caller shape and the messages shared by registration, sessions and administration. */

export interface UserRow {
  id: number;
  username: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  street: string;
  city: string;
  postal_code: string;
  country: string;
  is_active: number;
  preferences: string | null;
  created_at: string;
  last_login: string | null;
  roles: string | null;
}

/** Who is calling: resolved from the bearer token once per request. */
export interface Caller {
  userId: number;
  username: string;
  roles: string[];
  tokenHash: string;
}

export const DEFAULT_PREFERENCES: Preferences = { emailOptIn: false, notifications: [], theme: 'system' };

export const MSG = {
  usernameTaken: 'Username is already taken',
  emailTaken: 'Email is already registered',
  invalidLogin: 'Invalid email or password',
  // The text SPEC §8 has the Login screen show for a 423, so both say the same.
  locked: MESSAGES.login.locked,
  disabled: 'Account disabled: awaiting administrator activation',
  currentPasswordWrong: 'Current password is incorrect',
  sessionInvalid: 'Session expired or invalid',
} as const;

export const USER_SELECT = `SELECT u.*, (SELECT string_agg(role, ',') FROM user_roles r WHERE r.user_id = u.id) AS roles FROM users u`;

export function rolesOf(row: { roles: string | null }): string[] {
  return row.roles ? row.roles.split(',').sort() : [];
}

export const rolesOfCaller = (caller: Caller | null): Roles => (caller ? caller.roles : null);

/** The caller as the contracts' policy (`can`, `canComment`) sees them. */
export const viewerOf = (caller: Caller): Viewer => ({ id: caller.userId, roles: caller.roles });
