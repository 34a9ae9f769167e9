import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { MSG } from './account-model';

/**
 * Failed logins, counted so that a stranger cannot lock the owner out (issue 46).
 *
 * Every failure counts on the account (its id: username and email are one account; an unknown identifier
 * counts under the name typed, so it walks the same 401 -> 423 answers as a real one) and on the client
 * address (one address trying one password on many accounts). The locks hold back only browsers that have
 * never logged in to the account: a browser that has carries a device token (LOGIN_DEVICE_KEY), and only
 * its own counter can lock it.
 *
 * Why known devices rather than growing delays: a delay that grows with the account's failures is paid by
 * the owner as much as by the attacker, so a script failing once a minute would keep the owner waiting
 * forever. A device token is something the attacker does not have (it is never shown, and is random), so
 * the attacker's failures lock the attacker's way in and leave the owner's. Why not addresses: the owner's
 * address changes (mobile, travel) and an attacker may share it (an office, a carrier's NAT).
 */
export interface LoginKeys {
  /** `acct:<user id>`, or `name:<identifier>` when no account has that name. */
  account: string;
  /** `addr:<address group>` (src/rate-limit/client-address.ts). */
  address: string;
  /** `dev:<user id>:<token hash>` when this browser has logged in to the account before, else null. */
  device: string | null;
}

interface Counter {
  failures: number;
  window_start: number;
  locked_until: number;
}

const Q = {
  get: 'SELECT failures, window_start, locked_until FROM login_throttle WHERE key = ?',
  upsert: `INSERT INTO login_throttle (key, failures, window_start, locked_until) VALUES (?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
       locked_until = excluded.locked_until`,
  clear: 'DELETE FROM login_throttle WHERE key = ?',
  clearUnlocked: 'DELETE FROM login_throttle WHERE key = ? AND locked_until <= ?',
};

/** The counter of wrong current passwords typed in a signed-in request, per account (see guess()). */
export const currentPasswordKey = (userId: number) => `pw:${userId}`;

export class LoginThrottle {
  constructor(
    private readonly sql: Sql,
    private readonly lockout: Config['lockout'],
    private readonly now: Clock,
  ) {}

  /** The counters whose lock holds this attempt back: a known browser answers only for itself. */
  private holding(keys: LoginKeys): string[] {
    return keys.device ? [keys.device] : [keys.account, keys.address];
  }

  async locked(keys: LoginKeys): Promise<boolean> {
    for (const key of this.holding(keys)) if (await this.keyLocked(key)) return true;
    return false;
  }

  /** Counts a failure on every counter of the attempt; true when one that holds it back is now locked. */
  async fail(keys: LoginKeys): Promise<boolean> {
    for (const key of [keys.account, keys.address, keys.device]) if (key) await this.count(key);
    return this.locked(keys);
  }

  /**
   * A login that succeeded: the account's and the browser's counts start again (the address's runs out).
   * A lock the account is under stays: the owner getting in from their browser must not open the door
   * for the stranger who caused it.
   */
  async succeeded(keys: LoginKeys): Promise<void> {
    for (const key of [keys.account, keys.device])
      if (key) await this.sql.run(Q.clearUnlocked, [key, this.now()]);
  }

  async keyLocked(key: string): Promise<boolean> {
    const row = await this.sql.get<Counter>(Q.get, [key]);
    return row !== undefined && row.locked_until > this.now();
  }

  /**
   * One failure on `key` within LOCKOUT_WINDOW_MS; the last one allowed locks it for LOCKOUT_DURATION_MS.
   * A locked counter stays as it is until the lock ends; then the next failure starts a new window.
   */
  async count(key: string): Promise<void> {
    const t = this.now();
    const { windowMs, durationMs } = this.lockout;
    // Read and written under the counter's key lock: guesses fired at once through several instances are
    // each counted (a lost update would give an attacker free guesses).
    await this.sql.transaction(async (tx) => {
      await tx.lock('login-throttle', key);
      const row = await tx.get<Counter>(Q.get, [key]);
      if (row && row.locked_until > t) return;
      const fresh = !row || t - row.window_start > windowMs || row.locked_until !== 0;
      const failures = fresh ? 1 : row.failures + 1;
      const lockedUntil = failures >= this.limitOf(key) ? t + durationMs : 0;
      await tx.run(Q.upsert, [key, lockedUntil ? 0 : failures, fresh ? t : row.window_start, lockedUntil]);
    });
  }

  /**
   * One guess at a secret a signed-in caller must know (the current password, the authenticator's code):
   * a stolen session must not be a way to try passwords or codes without end, so wrong guesses count on
   * `key` (the account's own counter for that secret) and lock further guesses (423) as a login's do.
   * A right guess starts the count again.
   */
  async guess(key: string, check: () => Promise<boolean>): Promise<boolean> {
    if (await this.keyLocked(key)) throw new HttpError(423, MSG.locked);
    if (await check()) {
      await this.clear(key);
      return true;
    }
    await this.count(key);
    if (await this.keyLocked(key)) throw new HttpError(423, MSG.locked);
    return false;
  }

  async clear(key: string): Promise<void> {
    await this.sql.run(Q.clear, [key]);
  }

  private limitOf(key: string): number {
    return key.startsWith('addr:') ? this.lockout.addressMaxAttempts : this.lockout.maxAttempts;
  }
}

/** A device token as this API hands them out: 32 random bytes, base64url. */
const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Browsers remembered per account; the least recently used beyond this are forgotten. */
const DEVICES_PER_ACCOUNT = 20;

const hashDevice = (token: string) => createHash('sha256').update(`device:${token}`).digest('hex');

/**
 * Browsers that have logged in to an account. The token is the browser's, not the account's: one browser
 * used for two accounts sends the same token to both, and each account learns it at its own first login.
 */
export class LoginDevices {
  constructor(
    private readonly sql: Sql,
    private readonly now: Clock,
  ) {}

  /** The device counter's key when `token` has logged in to `userId` before, else null. */
  async known(userId: number, token: string | undefined): Promise<string | null> {
    if (!token || !DEVICE_TOKEN.test(token)) return null;
    const hash = hashDevice(token);
    const row = await this.sql.get(
      'SELECT 1 AS known FROM login_devices WHERE user_id = ? AND device_hash = ?',
      [userId, hash],
    );
    return row ? `dev:${userId}:${hash}` : null;
  }

  /** Remembers the browser after a successful login; answers the token it should keep (a new one if it had none). */
  async remember(userId: number, token: string | undefined): Promise<string> {
    const device = token && DEVICE_TOKEN.test(token) ? token : randomBytes(32).toString('base64url');
    await this.sql.run(
      `INSERT INTO login_devices (user_id, device_hash, last_login_at) VALUES (?, ?, ?)
       ON CONFLICT(user_id, device_hash) DO UPDATE SET last_login_at = excluded.last_login_at`,
      [userId, hashDevice(device), this.now()],
    );
    await this.sql.run(
      `DELETE FROM login_devices WHERE user_id = ? AND device_hash NOT IN (SELECT device_hash FROM login_devices
         WHERE user_id = ? ORDER BY last_login_at DESC, device_hash LIMIT ${DEVICES_PER_ACCOUNT})`,
      [userId, userId],
    );
    return device;
  }
}
