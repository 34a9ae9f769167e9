import type { Table } from './types';
import { bigint, bool, id, int, nocase, nullable, ref, text, time } from './types';

/**
 * Members and what keeps their accounts: sessions, second factors, throttles, email changes, resets, rate limits.
 * The schema as migrations 1 to 28 left it, on both engines (docs/decisions/0047-one-schema.md): never edited;
 * a later migration's changes (changes.ts) are applied on top of it.
 */
export const TABLES_ACCOUNTS: Record<string, Table> = {
  users: {
    watched: true,
    columns: {
      id: id(),
      username: nocase({ unique: true }),
      email: text({ unique: true }),
      password_hash: text(),
      first_name: text(),
      last_name: text({ default: '' }),
      street: text({ default: '' }),
      city: text({ default: '' }),
      postal_code: text({ default: '' }),
      country: text({ default: '' }),
      is_active: bool({ default: false }),
      preferences: nullable(text()),
      created_at: time(),
      last_login: nullable(time()),
      registered_from: nullable(text()),
    },
  },
  user_roles: {
    watched: true,
    primaryKey: ['user_id', 'role'],
    columns: {
      user_id: bigint(ref('users')),
      role: text(),
    },
  },
  sessions: {
    watched: true,
    primaryKey: ['token_hash'],
    columns: {
      token_hash: text(),
      user_id: bigint(ref('users')),
      created_at: bigint(),
      expires_at: bigint(),
      last_seen_at: bigint({ default: 0 }),
      device: text({ default: '' }),
      public_id: nullable(text()),
      second_factor_at: bigint({ default: 0 }),
    },
  },
  login_throttle: {
    primaryKey: ['key'],
    columns: {
      key: text(),
      failures: int(),
      window_start: bigint(),
      locked_until: bigint({ default: 0 }),
    },
  },
  login_devices: {
    primaryKey: ['user_id', 'device_hash'],
    columns: {
      user_id: bigint(ref('users')),
      device_hash: text(),
      last_login_at: bigint(),
    },
  },
  user_totp: {
    primaryKey: ['user_id'],
    columns: {
      user_id: bigint(ref('users')),
      secret_sealed: nullable(text()),
      enabled_at: nullable(bigint()),
      last_step: bigint({ default: 0 }),
      pending_sealed: nullable(text()),
      pending_at: nullable(bigint()),
    },
  },
  user_recovery_codes: {
    primaryKey: ['user_id', 'code_hash'],
    columns: {
      user_id: bigint(ref('users')),
      code_hash: text(),
      used_at: nullable(bigint()),
    },
  },
  email_changes: {
    columns: {
      id: id(),
      user_id: bigint(ref('users')),
      old_email: text(),
      new_email: text(),
      confirm_hash: text({ unique: true }),
      undo_hash: text({ unique: true }),
      created_at: bigint(),
      expires_at: bigint(),
      undo_expires_at: bigint(),
      confirmed_at: nullable(bigint()),
      ended_at: nullable(bigint()),
    },
  },
  password_resets: {
    columns: {
      id: id(),
      user_id: bigint(ref('users')),
      token_hash: text({ unique: true }),
      created_at: bigint(),
      expires_at: bigint(),
      used_at: nullable(bigint()),
    },
  },
  rate_limit_counters: {
    primaryKey: ['key'],
    columns: {
      key: text(),
      hits: int(),
      reset_at: bigint(),
    },
  },
  rate_limit_refusals: {
    primaryKey: ['limit_name', 'subject'],
    columns: {
      limit_name: text(),
      subject: text(),
      route: text(),
      count: int(),
      first_at: bigint(),
      last_at: bigint(),
    },
  },
};
