import { createHash, randomBytes } from 'node:crypto';
import type {
  AdminUser,
  ChangePassword,
  Preferences,
  Profile,
  RegistrationPayload,
  Role,
  Roles,
} from '@app/contracts';
import { ROLES } from '@app/contracts';
import type { Config } from '../config';
import type { DB } from '../db/database';
import { HttpError } from '../errors';
import { Passwords } from './passwords';

interface UserRow {
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
  locked: 'Account temporarily locked due to too many failed login attempts. Please try again later.',
  disabled: 'Account disabled: awaiting administrator activation',
  currentPasswordWrong: 'Current password is incorrect',
  sessionInvalid: 'Session expired or invalid',
} as const;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const now = () => new Date().toISOString();

const USER_SELECT = `SELECT u.*, (SELECT group_concat(role) FROM user_roles r WHERE r.user_id = u.id) AS roles FROM users u`;

function rolesOf(row: { roles: string | null }): string[] {
  return row.roles ? row.roles.split(',').sort() : [];
}

/**
 * Accounts, sessions, lockout and administration. Used by the HTTP routes and by the admin CLI, so both
 * apply the same rules to the same database.
 */
export class AccountService {
  readonly passwords: Passwords;
  /** token hash -> caller, for a few seconds: the hot path of every authenticated request. */
  private sessionCache = new Map<string, { caller: Caller; until: number }>();

  private stmts;

  constructor(
    private readonly db: DB,
    private readonly config: Config,
  ) {
    this.passwords = new Passwords(config.argon2);
    this.stmts = {
      userById: db.prepare(`${USER_SELECT} WHERE u.id = ?`),
      userByEmail: db.prepare(`${USER_SELECT} WHERE u.email = ?`),
      userByUsername: db.prepare(`${USER_SELECT} WHERE u.username = ?`),
      session: db.prepare(
        `SELECT s.user_id, s.expires_at, u.username, u.is_active,
          (SELECT group_concat(role) FROM user_roles r WHERE r.user_id = u.id) AS roles
         FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`,
      ),
      insertSession: db.prepare(
        'INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      ),
      deleteSession: db.prepare('DELETE FROM sessions WHERE token_hash = ?'),
      deleteOtherSessions: db.prepare('DELETE FROM sessions WHERE user_id = ? AND token_hash != ?'),
      deleteUserSessions: db.prepare('DELETE FROM sessions WHERE user_id = ?'),
      throttle: db.prepare('SELECT failures, window_start, locked_until FROM login_throttle WHERE key = ?'),
      upsertThrottle: db.prepare(
        `INSERT INTO login_throttle (key, failures, window_start, locked_until) VALUES (?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
         locked_until = excluded.locked_until`,
      ),
      clearThrottle: db.prepare('DELETE FROM login_throttle WHERE key = ?'),
    };
  }

  // --- registration and profile ---

  private findUser(identifier: string): UserRow | undefined {
    const id = identifier.trim();
    if (id.includes('@')) return this.stmts.userByEmail.get(id.toLowerCase()) as UserRow | undefined;
    return this.stmts.userByUsername.get(id) as UserRow | undefined;
  }

  /** Resolve "42", an email or a username (CLI and admin API). */
  resolveUser(ref: string | number): UserRow | undefined {
    const s = String(ref).trim();
    if (/^\d+$/.test(s)) return this.stmts.userById.get(Number(s)) as UserRow | undefined;
    return this.findUser(s);
  }

  private assertUnique(username: string | null, email: string | null, exceptId = 0) {
    if (username !== null) {
      const row = this.stmts.userByUsername.get(username) as UserRow | undefined;
      if (row && row.id !== exceptId)
        throw new HttpError(409, MSG.usernameTaken, { username: MSG.usernameTaken });
    }
    if (email !== null) {
      const row = this.stmts.userByEmail.get(email) as UserRow | undefined;
      if (row && row.id !== exceptId) throw new HttpError(409, MSG.emailTaken, { email: MSG.emailTaken });
    }
  }

  async register(
    p: RegistrationPayload,
    opts: { active?: boolean; roles?: Role[] } = {},
  ): Promise<{ id: number; requires_activation: boolean }> {
    const email = p.email.trim().toLowerCase();
    this.assertUnique(p.username, email);
    const passwordHash = await this.passwords.hash(p.password);
    const active = opts.active ?? !this.config.requiresActivation;
    try {
      const id = this.db.transaction(() => {
        const info = this.db
          .prepare(
            `INSERT INTO users (username, email, password_hash, first_name, last_name, street, city, postal_code,
              country, is_active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            p.username,
            email,
            passwordHash,
            p.name.first,
            p.name.last,
            p.address.street,
            p.address.city,
            p.address.postal_code,
            p.address.country,
            active ? 1 : 0,
            now(),
          );
        const userId = Number(info.lastInsertRowid);
        for (const role of opts.roles ?? []) {
          this.db.prepare('INSERT OR IGNORE INTO user_roles (user_id, role) VALUES (?, ?)').run(userId, role);
        }
        return userId;
      })();
      return { id, requires_activation: !active };
    } catch (err) {
      // Two registrations racing past assertUnique: the UNIQUE constraint decides.
      if (err instanceof Error && /UNIQUE/.test(err.message)) {
        this.assertUnique(p.username, email);
        throw new HttpError(409, MSG.usernameTaken, { username: MSG.usernameTaken });
      }
      throw err;
    }
  }

  profile(userId: number): Profile {
    const row = this.stmts.userById.get(userId) as UserRow | undefined;
    if (!row) throw new HttpError(401, MSG.sessionInvalid);
    return {
      id: row.id,
      username: row.username,
      name: { first: row.first_name, last: row.last_name },
      email: row.email,
      address: { street: row.street, city: row.city, postal_code: row.postal_code, country: row.country },
      roles: rolesOf(row),
      is_active: row.is_active === 1,
      created_at: row.created_at,
      last_login: row.last_login,
    };
  }

  updateProfile(
    userId: number,
    u: {
      name: { first: string; last: string };
      email: string;
      address: { street: string; city: string; postal_code: string; country: string };
    },
  ): Profile {
    const email = u.email.trim().toLowerCase();
    this.assertUnique(null, email, userId);
    this.db
      .prepare(
        `UPDATE users SET first_name = ?, last_name = ?, email = ?, street = ?, city = ?, postal_code = ?,
          country = ? WHERE id = ?`,
      )
      .run(
        u.name.first,
        u.name.last,
        email,
        u.address.street,
        u.address.city,
        u.address.postal_code,
        u.address.country,
        userId,
      );
    return this.profile(userId);
  }

  preferences(userId: number): Preferences {
    const row = this.db.prepare('SELECT preferences FROM users WHERE id = ?').get(userId) as
      | { preferences: string | null }
      | undefined;
    if (!row?.preferences) return { ...DEFAULT_PREFERENCES };
    return { ...DEFAULT_PREFERENCES, ...(JSON.parse(row.preferences) as Partial<Preferences>) };
  }

  savePreferences(userId: number, prefs: Preferences): Preferences {
    this.db.prepare('UPDATE users SET preferences = ? WHERE id = ?').run(JSON.stringify(prefs), userId);
    return this.preferences(userId);
  }

  // --- login, sessions, lockout ---

  /**
   * Lockout is keyed by the identifier typed (lower-cased), whether or not an account exists, so an unknown
   * email walks through exactly the same 401 -> 423 sequence as a known one.
   */
  async login(identifier: string, password: string): Promise<{ token: string }> {
    const key = identifier.trim().toLowerCase();
    const t = Date.now();
    const { maxAttempts, windowMs, durationMs } = this.config.lockout;
    const th0 = this.stmts.throttle.get(key) as
      | { failures: number; window_start: number; locked_until: number }
      | undefined;
    if (th0 && th0.locked_until > t) throw new HttpError(423, MSG.locked);

    const user = this.findUser(identifier);
    const ok = await this.passwords.verify(user?.password_hash ?? null, password);
    if (!ok || !user) {
      // Re-read: other attempts may have been counted while argon2 ran.
      const th = this.stmts.throttle.get(key) as typeof th0;
      if (th && th.locked_until > Date.now()) throw new HttpError(423, MSG.locked);
      const fresh = !th || t - th.window_start > windowMs || th.locked_until !== 0;
      const failures = fresh ? 1 : th.failures + 1;
      const windowStart = fresh ? t : th.window_start;
      const lockedUntil = failures >= maxAttempts ? Date.now() + durationMs : 0;
      this.stmts.upsertThrottle.run(key, lockedUntil ? 0 : failures, windowStart, lockedUntil);
      if (lockedUntil) throw new HttpError(423, MSG.locked);
      throw new HttpError(401, MSG.invalidLogin);
    }
    this.stmts.clearThrottle.run(key);
    if (user.is_active !== 1) throw new HttpError(403, MSG.disabled);
    this.db.prepare('UPDATE users SET last_login = ? WHERE id = ?').run(now(), user.id);
    return { token: this.issueToken(user.id) };
  }

  issueToken(userId: number): string {
    const token = randomBytes(32).toString('base64url');
    const t = Date.now();
    this.stmts.insertSession.run(hashToken(token), userId, t, t + this.config.sessionTtlMs);
    return token;
  }

  /** The caller behind a bearer token, or null when the token is unknown, expired, revoked or inactive. */
  authenticate(token: string): Caller | null {
    const tokenHash = hashToken(token);
    const t = Date.now();
    const cached = this.sessionCache.get(tokenHash);
    if (cached && cached.until > t) return cached.caller;
    const row = this.stmts.session.get(tokenHash) as
      | { user_id: number; expires_at: number; username: string; is_active: number; roles: string | null }
      | undefined;
    if (!row || row.expires_at <= t || row.is_active !== 1) {
      this.sessionCache.delete(tokenHash);
      if (row && row.expires_at <= t) this.stmts.deleteSession.run(tokenHash);
      return null;
    }
    const caller: Caller = { userId: row.user_id, username: row.username, roles: rolesOf(row), tokenHash };
    if (this.config.sessionCacheMs > 0) {
      if (this.sessionCache.size > 10_000) this.sessionCache.clear();
      this.sessionCache.set(tokenHash, {
        caller,
        until: Math.min(t + this.config.sessionCacheMs, row.expires_at),
      });
    }
    return caller;
  }

  private forgetUser(userId: number) {
    for (const [k, entry] of this.sessionCache)
      if (entry.caller.userId === userId) this.sessionCache.delete(k);
  }

  logout(caller: Caller) {
    this.stmts.deleteSession.run(caller.tokenHash);
    this.sessionCache.delete(caller.tokenHash);
  }

  /** Checks the current password; revokes every other session of the user, the current one continues. */
  async changePassword(caller: Caller, body: ChangePassword) {
    const row = this.stmts.userById.get(caller.userId) as UserRow | undefined;
    if (!row) throw new HttpError(401, MSG.sessionInvalid);
    if (!(await this.passwords.verify(row.password_hash, body.currentPassword))) {
      throw new HttpError(400, MSG.currentPasswordWrong, { currentPassword: MSG.currentPasswordWrong });
    }
    const newHash = await this.passwords.hash(body.newPassword);
    this.db.transaction(() => {
      this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(newHash, caller.userId);
      this.stmts.deleteOtherSessions.run(caller.userId, caller.tokenHash);
    })();
    this.forgetUser(caller.userId);
  }

  /** Deletes the account and its sessions; drafts go with it, published posts stay as Anonymous. */
  deleteAccount(userId: number) {
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM posts WHERE author_id = ? AND status = 'draft'").run(userId);
      this.db.prepare('DELETE FROM users WHERE id = ?').run(userId);
    })();
    this.forgetUser(userId);
  }

  // --- administration (CLI and /api/admin) ---

  private adminView(row: UserRow): AdminUser {
    return {
      id: row.id,
      username: row.username,
      email: row.email,
      is_active: row.is_active === 1,
      roles: rolesOf(row),
      created_at: row.created_at,
    };
  }

  listUsers(status: 'pending' | 'all' = 'all'): AdminUser[] {
    const where = status === 'pending' ? ' WHERE u.is_active = 0' : '';
    return (this.db.prepare(`${USER_SELECT}${where} ORDER BY u.id`).all() as UserRow[]).map((r) =>
      this.adminView(r),
    );
  }

  private mustResolve(ref: string | number): UserRow {
    const row = this.resolveUser(ref);
    if (!row) throw new HttpError(404, 'User not found');
    return row;
  }

  activate(ref: string | number): AdminUser {
    const row = this.mustResolve(ref);
    this.db.prepare('UPDATE users SET is_active = 1 WHERE id = ?').run(row.id);
    return this.adminView(this.mustResolve(row.id));
  }

  grant(ref: string | number, role: string): AdminUser {
    this.assertRole(role);
    const row = this.mustResolve(ref);
    this.db.prepare('INSERT OR IGNORE INTO user_roles (user_id, role) VALUES (?, ?)').run(row.id, role);
    this.forgetUser(row.id);
    return this.adminView(this.mustResolve(row.id));
  }

  revoke(ref: string | number, role: string): AdminUser {
    this.assertRole(role);
    const row = this.mustResolve(ref);
    this.db.prepare('DELETE FROM user_roles WHERE user_id = ? AND role = ?').run(row.id, role);
    this.forgetUser(row.id);
    return this.adminView(this.mustResolve(row.id));
  }

  private assertRole(role: string) {
    if (!(ROLES.values as readonly string[]).includes(role)) {
      throw new HttpError(400, `Unknown role "${role}". Use one of: ${ROLES.values.join(', ')}`);
    }
  }

  async createAdmin(p: RegistrationPayload): Promise<AdminUser> {
    const { id } = await this.register(p, { active: true, roles: ['admin'] });
    return this.adminView(this.mustResolve(id));
  }
}

export const rolesOfCaller = (caller: Caller | null): Roles => (caller ? caller.roles : null);
