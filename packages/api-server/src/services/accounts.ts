import type {
  AdminUser,
  ChangePassword,
  Preferences,
  Profile,
  RegistrationPayload,
  Role,
} from '@app/contracts';
import type { Config } from '../config';
import { type DB, writeTransaction } from '../db/database';
import { HttpError } from '../errors';
import { AccountAdmin } from './account-admin';
import { type Caller, DEFAULT_PREFERENCES, MSG, now, rolesOf } from './account-model';
import { Passwords } from './passwords';
import { SessionService } from './sessions';
import { UserDirectory } from './users';

export { type Caller, DEFAULT_PREFERENCES, MSG, rolesOfCaller, viewerOf } from './account-model';

/**
 * Accounts, sessions, lockout and administration. Used by the HTTP routes and by the admin CLI, so both
 * apply the same rules to the same database. Registration, profile and password live here; lookups, sessions
 * and administration in UserDirectory, SessionService and AccountAdmin.
 */
export class AccountService {
  readonly passwords: Passwords;
  private readonly users: UserDirectory;
  private readonly sessions: SessionService;
  private readonly admin: AccountAdmin;

  constructor(
    private readonly db: DB,
    private readonly config: Config,
  ) {
    this.passwords = new Passwords(config.argon2);
    this.users = new UserDirectory(db);
    this.sessions = new SessionService(db, config, this.passwords, this.users);
    this.admin = new AccountAdmin(db, this.users, this.sessions);
  }

  // --- registration and profile ---

  /** Resolve "42", an email or a username (CLI and admin API). */
  resolveUser(ref: string | number) {
    return this.users.resolveUser(ref);
  }

  async register(
    p: RegistrationPayload,
    opts: { active?: boolean; roles?: Role[]; from?: string } = {},
  ): Promise<{ id: number; requires_activation: boolean }> {
    const email = p.email.trim().toLowerCase();
    this.users.assertUnique(p.username, email);
    const passwordHash = await this.passwords.hash(p.password);
    const active = opts.active ?? !this.config.requiresActivation;
    try {
      const id = writeTransaction(this.db, () => {
        const info = this.db
          .prepare(
            `INSERT INTO users (username, email, password_hash, first_name, last_name, street, city, postal_code,
              country, is_active, created_at, registered_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
            opts.from ?? null,
          );
        const userId = Number(info.lastInsertRowid);
        for (const role of opts.roles ?? []) {
          this.db.prepare('INSERT OR IGNORE INTO user_roles (user_id, role) VALUES (?, ?)').run(userId, role);
        }
        return userId;
      });
      return { id, requires_activation: !active };
    } catch (err) {
      // Two registrations racing past assertUnique: the UNIQUE constraint decides.
      if (err instanceof Error && /UNIQUE/.test(err.message)) {
        this.users.assertUnique(p.username, email);
        throw new HttpError(409, MSG.usernameTaken, { username: MSG.usernameTaken });
      }
      throw err;
    }
  }

  profile(userId: number): Profile {
    const row = this.users.byId(userId);
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
    this.users.assertUnique(null, email, userId);
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

  login(identifier: string, password: string): Promise<{ token: string }> {
    return this.sessions.login(identifier, password);
  }
  issueToken(userId: number): string {
    return this.sessions.issueToken(userId);
  }
  /** The caller behind a bearer token, or null when the token is unknown, expired, revoked or inactive. */
  authenticate(token: string): Caller | null {
    return this.sessions.authenticate(token);
  }
  logout(caller: Caller) {
    this.sessions.logout(caller);
  }

  /** Checks the current password; revokes every other session of the user, the current one continues. */
  async changePassword(caller: Caller, body: ChangePassword) {
    const row = this.users.byId(caller.userId);
    if (!row) throw new HttpError(401, MSG.sessionInvalid);
    if (!(await this.passwords.verify(row.password_hash, body.currentPassword))) {
      throw new HttpError(400, MSG.currentPasswordWrong, { currentPassword: MSG.currentPasswordWrong });
    }
    const newHash = await this.passwords.hash(body.newPassword);
    writeTransaction(this.db, () => {
      this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(newHash, caller.userId);
      this.sessions.revokeOtherSessions(caller.userId, caller.tokenHash);
    });
    this.sessions.forgetUser(caller.userId);
  }

  /** Deletes the account and its sessions; drafts go with it, published posts stay as Anonymous. */
  deleteAccount(userId: number) {
    writeTransaction(this.db, () => {
      this.db.prepare("DELETE FROM posts WHERE author_id = ? AND status = 'draft'").run(userId);
      this.db.prepare('DELETE FROM users WHERE id = ?').run(userId);
    });
    this.sessions.forgetUser(userId);
  }

  // --- administration (CLI and /api/admin) ---

  listUsers(status: 'pending' | 'all' = 'all'): AdminUser[] {
    return this.admin.listUsers(status);
  }
  activate(ref: string | number): AdminUser {
    return this.admin.activate(ref);
  }
  grant(ref: string | number, role: string): AdminUser {
    return this.admin.grant(ref, role);
  }
  revoke(ref: string | number, role: string): AdminUser {
    return this.admin.revoke(ref, role);
  }

  async createAdmin(p: RegistrationPayload): Promise<AdminUser> {
    const { id } = await this.register(p, { active: true, roles: ['admin'] });
    return this.admin.view(id);
  }
}
