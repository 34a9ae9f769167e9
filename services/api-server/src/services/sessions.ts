import { randomBytes } from 'node:crypto';
import { MESSAGES, type SessionInfo } from '@app/contracts';
import { type Clock, isoAt } from '../clock';
import type { Config } from '../config';
import { createChangeWatch } from '../db/change-watch';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { type Caller, MSG, rolesOf } from './account-model';
import type { LoginDevices, LoginKeys, LoginThrottle } from './login-throttle';
import type { Passwords } from './passwords';
import { hashToken, newToken } from './tokens';
import type { TwoFactor } from './two-factor';
import type { UserDirectory } from './users';

/** One login as the route hands it over: what was typed, the browser's device token and the client address. */
export interface LoginAttempt {
  identifier: string;
  password: string;
  code?: string;
  device?: string;
  address: string;
  /** What the sessions list shows for this login ("Firefox on Linux"), from the User-Agent. */
  deviceLabel?: string;
}

/** How often a session's last_seen_at is written while it is in use: the idle clock's resolution. */
const TOUCH_EVERY_MS = 60_000;

/** Login with lockout and a second factor, bearer tokens and the short-lived session cache. */
export class SessionService {
  /**
   * token -> caller, for a few seconds: the hot path of every authenticated request. Keyed by the token as
   * sent, so a token seen a moment ago costs a map lookup, not a SHA-256 (issue 36); the database keeps only
   * the hash, as before.
   */
  private sessionCache = new Map<string, { caller: Caller; until: number }>();

  /** True once another connection (another API instance, the CLI) has written: a revocation there counts here at once. */
  private othersWrote: () => Promise<boolean>;
  /**
   * On SQLite the watch is a pragma of a few microseconds and the cache saves a join per request. On
   * PostgreSQL asking whether anyone wrote is a round trip of its own, as dear as the session lookup it
   * would save, so every request looks the session up.
   */
  private readonly cacheMs: number;

  constructor(
    private readonly sql: Sql,
    private readonly config: Config,
    private readonly passwords: Passwords,
    private readonly users: UserDirectory,
    private readonly now: Clock,
    /** Issue 46: the login's counters, known browsers and second factor. */
    private readonly guard: { throttle: LoginThrottle; devices: LoginDevices; twoFactor: TwoFactor },
  ) {
    this.othersWrote = createChangeWatch(sql);
    this.cacheMs = sql.dialect === 'sqlite' ? config.sessionCacheMs : 0;
    this.idleMs = config.sessionIdleMs;
  }

  private readonly idleMs: number;

  private readonly q = {
    session: `SELECT s.user_id, s.expires_at, s.last_seen_at, u.username, u.is_active,
          (SELECT string_agg(role, ',') FROM user_roles r WHERE r.user_id = u.id) AS roles
         FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`,
    insertSession: `INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, device, public_id)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    touchSession: 'UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?',
    deleteSession: 'DELETE FROM sessions WHERE token_hash = ?',
    deleteOtherSessions: 'DELETE FROM sessions WHERE user_id = ? AND token_hash != ?',
    deleteUserSessions: 'DELETE FROM sessions WHERE user_id = ?',
  };

  /**
   * Issue 46: failures count per account and per client address, and lock only browsers that never logged
   * in to the account (login-throttle.ts says why); an unknown identifier walks the same 401 -> 423 answers.
   * An account with a second factor needs its code too (two-factor.ts); a wrong code is a failed login.
   */
  async login(attempt: LoginAttempt): Promise<{ token: string; device: string }> {
    const { throttle, devices, twoFactor } = this.guard;
    const user = await this.users.findUser(attempt.identifier);
    const keys: LoginKeys = {
      account: user ? `acct:${user.id}` : `name:${attempt.identifier.trim().toLowerCase()}`,
      address: `addr:${attempt.address}`,
      device: user ? await devices.known(user.id, attempt.device) : null,
    };
    // Before argon2: a locked attempt costs no verification.
    if (await throttle.locked(keys)) throw new HttpError(423, MSG.locked);
    const refused = async (message: string, extra: Record<string, boolean> = {}) =>
      (await throttle.fail(keys)) ? new HttpError(423, MSG.locked) : new HttpError(401, message, extra);

    const ok = await this.passwords.verify(user?.password_hash ?? null, attempt.password);
    if (!ok || !user) throw await refused(MSG.invalidLogin);
    if (user.is_active !== 1) {
      await throttle.succeeded(keys);
      throw new HttpError(403, MSG.disabled);
    }
    if (await twoFactor.enabled(user.id)) {
      const T = MESSAGES.twoFactor;
      // No code yet is the login form's first step, not a failure; a wrong one is.
      if (!attempt.code) throw new HttpError(401, T.codeRequired, { twoFactorRequired: true });
      if (!(await twoFactor.check(user.id, attempt.code)))
        throw await refused(T.codeWrong, { twoFactorRequired: true });
    }
    await throttle.succeeded(keys);
    const device = await devices.remember(user.id, attempt.device);
    await this.sql.run('UPDATE users SET last_login = ? WHERE id = ?', [isoAt(this.now), user.id]);
    return { token: await this.issueToken(user.id, attempt.deviceLabel), device };
  }

  async issueToken(userId: number, device = ''): Promise<string> {
    const token = newToken();
    const t = this.now();
    await this.sql.run(this.q.insertSession, [
      hashToken(token),
      userId,
      t,
      t + this.config.sessionTtlMs,
      t,
      device,
      randomBytes(12).toString('hex'),
    ]);
    return token;
  }

  /** The caller behind a bearer token, or null when the token is unknown, expired, revoked or inactive. */
  async authenticate(token: string): Promise<Caller | null> {
    const t = this.now();
    if (this.cacheMs > 0 && (await this.othersWrote())) this.sessionCache.clear();
    const cached = this.sessionCache.get(token);
    if (cached && cached.until > t) return cached.caller;
    const tokenHash = hashToken(token);
    const row = (await this.sql.get(this.q.session, [tokenHash])) as
      | {
          user_id: number;
          expires_at: number;
          last_seen_at: number;
          username: string;
          is_active: number;
          roles: string | null;
        }
      | undefined;
    // A session ends at its absolute expiry, or once unused for SESSION_IDLE_MS (issue 46).
    const idleUntil = row ? Number(row.last_seen_at) + this.idleMs : 0;
    const over = row !== undefined && (row.expires_at <= t || idleUntil <= t);
    if (!row || over || row.is_active !== 1) {
      this.sessionCache.delete(token);
      if (over) await this.sql.run(this.q.deleteSession, [tokenHash]);
      return null;
    }
    // Seen now: written at most once a minute, so reading pages costs no write per request.
    if (t - Number(row.last_seen_at) >= TOUCH_EVERY_MS)
      await this.sql.run(this.q.touchSession, [t, tokenHash]);
    const caller: Caller = { userId: row.user_id, username: row.username, roles: rolesOf(row), tokenHash };
    if (this.cacheMs > 0) {
      if (this.sessionCache.size > 10_000) this.sessionCache.clear();
      this.sessionCache.set(token, {
        caller,
        until: Math.min(t + this.cacheMs, row.expires_at, t + this.idleMs),
      });
    }
    return caller;
  }

  forgetUser(userId: number) {
    for (const [k, entry] of this.sessionCache)
      if (entry.caller.userId === userId) this.sessionCache.delete(k);
  }

  async logout(caller: Caller) {
    await this.sql.run(this.q.deleteSession, [caller.tokenHash]);
    for (const [k, entry] of this.sessionCache)
      if (entry.caller.tokenHash === caller.tokenHash) this.sessionCache.delete(k);
  }

  /** Ends every session of the user (a password reset, in its transaction `tx`). */
  async revokeAllSessions(tx: Sql, userId: number) {
    await tx.run(this.q.deleteUserSessions, [userId]);
  }

  /** Ends every other session of the user (a password change, in its transaction `tx`); the current one continues. */
  async revokeOtherSessions(tx: Sql, userId: number, tokenHash: string) {
    await tx.run(this.q.deleteOtherSessions, [userId, tokenHash]);
  }

  /** The caller's live sessions, the one in use first, then by last use (issue 46: the profile's list). */
  async list(caller: Caller): Promise<SessionInfo[]> {
    const t = this.now();
    const rows = await this.sql.all<{
      public_id: string;
      device: string;
      created_at: number;
      last_seen_at: number;
      token_hash: string;
    }>(
      `SELECT public_id, device, created_at, last_seen_at, token_hash FROM sessions
       WHERE user_id = ? AND expires_at > ? AND last_seen_at > ? ORDER BY last_seen_at DESC, created_at DESC`,
      [caller.userId, t, t - this.idleMs],
    );
    return rows
      .map((r) => ({
        id: r.public_id,
        device: r.device,
        created_at: new Date(Number(r.created_at)).toISOString(),
        last_seen_at: new Date(Number(r.last_seen_at)).toISOString(),
        current: r.token_hash === caller.tokenHash,
      }))
      .sort((a, b) => Number(b.current) - Number(a.current));
  }

  /** Ends one of the caller's sessions by its public id; false when the caller has no such session. */
  async end(caller: Caller, publicId: string): Promise<boolean> {
    const gone = await this.sql.value<string>(
      'DELETE FROM sessions WHERE user_id = ? AND public_id = ? RETURNING token_hash',
      [caller.userId, publicId],
    );
    this.forgetUser(caller.userId);
    return gone !== undefined;
  }

  /** Ends every session of the caller but the one in use. */
  async endOthers(caller: Caller): Promise<void> {
    await this.revokeOtherSessions(this.sql, caller.userId, caller.tokenHash);
    this.forgetUser(caller.userId);
  }
}
