import type {
  AdminUser,
  ChangePassword,
  Preferences,
  Profile,
  RegistrationPayload,
  Role,
} from '@app/contracts';
import { MESSAGES } from '@app/contracts';
import { type Clock, isoAt } from '../clock';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { HttpError, isUniqueViolation } from '../errors';
import type { Mailer } from '../mail/mailer';
import type { SecretBox } from '../secret-box';
import { AccountAdmin, type AdminActor } from './account-admin';
import { type Caller, DEFAULT_PREFERENCES, MSG, rolesOf } from './account-model';
import { EmailChanges } from './email-changes';
import { currentPasswordKey, LoginDevices, LoginThrottle } from './login-throttle';
import { Members } from './members';
import { PasswordResets, resetOptions } from './password-resets';
import { Passwords } from './passwords';
import { type LoginAttempt, SessionService } from './sessions';
import { TwoFactor } from './two-factor';
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
  /** Sessions: login, tokens, idle expiry and the member's own list (issue 46). */
  readonly sessions: SessionService;
  private readonly admin: AccountAdmin;
  /** The /admin/members screen's list, bulk actions and audited role changes (issue 34). */
  readonly members: Members;
  /** Forgot and reset password (issue 34). */
  readonly resets: PasswordResets;
  /** Email changes that wait for their confirmation (issue 46). */
  readonly emailChanges: EmailChanges;

  /** Failure counters: the login's, and wrong current passwords in signed-in requests (issue 46). */
  private readonly throttle: LoginThrottle;

  /** The second factor (issue 46): setup, login and step-up checks, the CLI's reset. */
  readonly twoFactor: TwoFactor;

  constructor(
    private readonly sql: Sql,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly now: Clock,
    /** Seals the TOTP secrets (secret-box.ts). */
    secrets: SecretBox,
  ) {
    this.passwords = new Passwords(config.argon2);
    this.users = new UserDirectory(sql);
    const throttle = new LoginThrottle(sql, config.lockout, now);
    this.throttle = throttle;
    const stepUpMs = config.twoFactor.stepUpMs;
    this.twoFactor = new TwoFactor(sql, secrets, this.passwords, this.users, throttle, stepUpMs, now);
    this.sessions = new SessionService(sql, config, this.passwords, this.users, now, {
      throttle,
      devices: new LoginDevices(sql, now),
      twoFactor: this.twoFactor,
    });
    this.admin = new AccountAdmin(sql, this.users, this.sessions, mailer);
    this.members = new Members(sql, this.admin);
    this.resets = new PasswordResets(
      sql,
      this.passwords,
      this.sessions,
      mailer,
      now,
      resetOptions(config, now),
    );
    this.emailChanges = new EmailChanges(sql, this.sessions, mailer, now);
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
    await this.users.assertUnique(p.username, email);
    const passwordHash = await this.passwords.hash(p.password);
    const active = opts.active ?? !this.config.requiresActivation;
    try {
      const id = await this.sql.transaction((tx) =>
        this.insertUser(tx, { ...p, email }, passwordHash, { ...opts, active }),
      );
      return { id, requires_activation: !active };
    } catch (err) {
      // Two registrations racing past assertUnique: the UNIQUE constraint decides.
      if (isUniqueViolation(err)) {
        await this.users.assertUnique(p.username, email);
        throw new HttpError(409, MSG.usernameTaken, { username: MSG.usernameTaken });
      }
      throw err;
    }
  }

  /** A password's hash as register stores it: for an account written inside a transaction (`insertUser`). */
  hashPassword(password: string): Promise<string> {
    return this.passwords.hash(password);
  }

  /**
   * Inside the write transaction `tx`: a new account's row and roles, and the administrators' notice of a
   * waiting account; its id. `register` checks and hashes first; the demo seed (db/seed.ts) writes its
   * author in the seed's one transaction. The email is stored as given (register lower-cases it).
   */
  async insertUser(
    tx: Sql,
    p: Omit<RegistrationPayload, 'password'>,
    passwordHash: string,
    opts: { active: boolean; roles?: Role[]; from?: string },
  ): Promise<number> {
    const userId = (await tx.value<number>(
      `INSERT INTO users (username, email, password_hash, first_name, last_name, street, city, postal_code,
        country, is_active, created_at, registered_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       RETURNING id`,
      [
        p.username,
        p.email,
        passwordHash,
        p.name.first,
        p.name.last,
        p.address.street,
        p.address.city,
        p.address.postal_code,
        p.address.country,
        opts.active ? 1 : 0,
        isoAt(this.now),
        opts.from ?? null,
      ],
    ))!;
    for (const role of opts.roles ?? []) {
      await tx.run('INSERT INTO user_roles (user_id, role) VALUES (?, ?) ON CONFLICT DO NOTHING', [
        userId,
        role,
      ]);
    }
    // Administrators hear of a waiting account with the registration, or not at all.
    if (!opts.active) {
      await this.mailer.registrationWaiting(tx, {
        username: p.username,
        email: p.email,
        from: opts.from ?? null,
      });
    }
    return userId;
  }

  async profile(userId: number): Promise<Profile> {
    const row = await this.users.byId(userId);
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
      pending_email: await this.emailChanges.pending(userId),
    };
  }

  /**
   * Saves the profile. A new email (issue 46) needs the current password and does not take effect here:
   * a confirmation link goes to the new address and a notice with an undo link to the old one. A wrong or
   * missing password refuses the whole request, so nothing is half-saved.
   */
  async updateProfile(
    userId: number,
    u: {
      name: { first: string; last: string };
      email: string;
      address: { street: string; city: string; postal_code: string; country: string };
      current_password?: string;
    },
  ): Promise<Profile> {
    const email = u.email.trim().toLowerCase();
    const row = await this.users.byId(userId);
    if (!row) throw new HttpError(401, MSG.sessionInvalid);
    const changesEmail = email !== row.email.toLowerCase();
    if (changesEmail) {
      const E = MESSAGES.emailChange;
      if (!u.current_password)
        throw new HttpError(400, E.passwordRequired, { current_password: E.passwordRequired });
      const typed = u.current_password;
      const right = () => this.passwords.verify(row.password_hash, typed);
      if (!(await this.throttle.guess(currentPasswordKey(userId), right)))
        throw new HttpError(400, E.passwordWrong, { current_password: E.passwordWrong });
      await this.users.assertUnique(null, email, userId);
    }
    await this.sql.transaction(async (tx) => {
      await tx.run(
        `UPDATE users SET first_name = ?, last_name = ?, street = ?, city = ?, postal_code = ?, country = ?
         WHERE id = ?`,
        [
          u.name.first,
          u.name.last,
          u.address.street,
          u.address.city,
          u.address.postal_code,
          u.address.country,
          userId,
        ],
      );
      if (changesEmail)
        await this.emailChanges.start(tx, { id: userId, email: row.email, first_name: u.name.first }, email);
    });
    return this.profile(userId);
  }

  async preferences(userId: number): Promise<Preferences> {
    const row = await this.sql.get<{ preferences: string | null }>(
      'SELECT preferences FROM users WHERE id = ?',
      [userId],
    );
    if (!row?.preferences) return { ...DEFAULT_PREFERENCES };
    return { ...DEFAULT_PREFERENCES, ...(JSON.parse(row.preferences) as Partial<Preferences>) };
  }

  async savePreferences(userId: number, prefs: Preferences): Promise<Preferences> {
    await this.sql.run('UPDATE users SET preferences = ? WHERE id = ?', [JSON.stringify(prefs), userId]);
    return this.preferences(userId);
  }

  // --- login, sessions, lockout ---

  login(attempt: LoginAttempt): Promise<{ token: string; device: string }> {
    return this.sessions.login(attempt);
  }
  issueToken(userId: number): Promise<string> {
    return this.sessions.issueToken(userId);
  }
  /** The caller behind a bearer token, or null when the token is unknown, expired, revoked or inactive. */
  authenticate(token: string): Promise<Caller | null> {
    return this.sessions.authenticate(token);
  }
  logout(caller: Caller): Promise<void> {
    return this.sessions.logout(caller);
  }

  /** Checks the current password; revokes every other session of the user, the current one continues. */
  async changePassword(caller: Caller, body: ChangePassword) {
    const row = await this.users.byId(caller.userId);
    if (!row) throw new HttpError(401, MSG.sessionInvalid);
    // The same change again (nginx resends a PUT whose instance died with it in flight, issue 32): the
    // password already is the new one, so this answers like the change did, and is not counted as a wrong
    // guess. It tells the caller nothing the current-password check does not: either way one guess of the
    // password is one verification. Wrong guesses count and lock like a login's (a stolen session, issue 46).
    let resent = false;
    const right = async () => {
      if (await this.passwords.verify(row.password_hash, body.currentPassword)) return true;
      resent = await this.passwords.verify(row.password_hash, body.newPassword);
      return resent;
    };
    if (!(await this.throttle.guess(currentPasswordKey(caller.userId), right)))
      throw new HttpError(400, MSG.currentPasswordWrong, { currentPassword: MSG.currentPasswordWrong });
    if (resent) return;
    const newHash = await this.passwords.hash(body.newPassword);
    await this.sql.transaction(async (tx) => {
      await tx.run('UPDATE users SET password_hash = ? WHERE id = ?', [newHash, caller.userId]);
      await this.sessions.revokeOtherSessions(tx, caller.userId, caller.tokenHash);
    });
    this.sessions.forgetUser(caller.userId);
  }

  /** Deletes the account and its sessions; drafts go with it, published posts stay as Anonymous. */
  async deleteAccount(userId: number) {
    await this.sql.transaction(async (tx) => {
      await tx.run("DELETE FROM posts WHERE author_id = ? AND status = 'draft'", [userId]);
      await tx.run('DELETE FROM users WHERE id = ?', [userId]);
    });
    this.sessions.forgetUser(userId);
  }

  // --- administration (CLI and /api/admin) ---

  listUsers(status: 'pending' | 'all' = 'all'): Promise<AdminUser[]> {
    return this.admin.listUsers(status);
  }
  /** `by`: an administrator in the browser, audited in the change's transaction (the CLI passes none). */
  activate(ref: string | number, by?: AdminActor): Promise<AdminUser> {
    return this.admin.activate(ref, by);
  }
  grant(ref: string | number, role: string, by?: AdminActor): Promise<AdminUser> {
    return this.admin.grant(ref, role, by);
  }
  revoke(ref: string | number, role: string, by?: AdminActor): Promise<AdminUser> {
    return this.admin.revoke(ref, role, by);
  }

  /**
   * `pnpm admin reset-2fa`: a lost authenticator. The factor and its recovery codes go, and with them every
   * session of the account (whoever holds one got it with the lost factor). An administrator then logs in
   * with the password and sets a new one up before administration opens again.
   */
  async resetTwoFactor(ref: string | number): Promise<AdminUser> {
    const user = await this.users.resolveUser(ref);
    if (!user) throw new HttpError(404, 'User not found');
    await this.sql.transaction(async (tx) => {
      await this.twoFactor.remove(tx, user.id);
      await this.sessions.revokeAllSessions(tx, user.id);
    });
    this.sessions.forgetUser(user.id);
    return this.admin.view(user.id);
  }

  async createAdmin(p: RegistrationPayload): Promise<AdminUser> {
    const { id } = await this.register(p, { active: true, roles: ['admin'] });
    return this.admin.view(id);
  }
}
