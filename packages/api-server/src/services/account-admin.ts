import type { AdminUser } from '@app/contracts';
import { ROLES } from '@app/contracts';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { rolesOf, USER_SELECT, type UserRow } from './account-model';
import type { SessionService } from './sessions';
import type { UserDirectory } from './users';

/** Administration (CLI and /api/admin): listing users, activating them, granting and revoking roles. */
export class AccountAdmin {
  constructor(
    private readonly sql: Sql,
    private readonly users: UserDirectory,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
  ) {}

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

  async listUsers(status: 'pending' | 'all' = 'all'): Promise<AdminUser[]> {
    const where = status === 'pending' ? ' WHERE u.is_active = 0' : '';
    const rows = await this.sql.all<UserRow>(`${USER_SELECT}${where} ORDER BY u.id`);
    return rows.map((r) => this.adminView(r));
  }

  private async mustResolve(ref: string | number): Promise<UserRow> {
    const row = await this.users.resolveUser(ref);
    if (!row) throw new HttpError(404, 'User not found');
    return row;
  }

  /** The admin view of a user, or 404. */
  async view(ref: string | number): Promise<AdminUser> {
    return this.adminView(await this.mustResolve(ref));
  }

  async activate(ref: string | number): Promise<AdminUser> {
    const row = await this.mustResolve(ref);
    // The member is told once, when the account goes from waiting to active (CLI and admin API alike).
    await this.sql.transaction(async (tx) => {
      const changed = await tx.value<number>(
        'UPDATE users SET is_active = 1 WHERE id = ? AND is_active = 0 RETURNING id',
        [row.id],
      );
      if (changed !== undefined) await this.mailer.accountActivated(tx, row);
    });
    return this.adminView(await this.mustResolve(row.id));
  }

  async grant(ref: string | number, role: string): Promise<AdminUser> {
    this.assertRole(role);
    const row = await this.mustResolve(ref);
    await this.sql.run('INSERT INTO user_roles (user_id, role) VALUES (?, ?) ON CONFLICT DO NOTHING', [
      row.id,
      role,
    ]);
    this.sessions.forgetUser(row.id);
    return this.adminView(await this.mustResolve(row.id));
  }

  async revoke(ref: string | number, role: string): Promise<AdminUser> {
    this.assertRole(role);
    const row = await this.mustResolve(ref);
    await this.sql.run('DELETE FROM user_roles WHERE user_id = ? AND role = ?', [row.id, role]);
    this.sessions.forgetUser(row.id);
    return this.adminView(await this.mustResolve(row.id));
  }

  private assertRole(role: string) {
    if (!(ROLES.values as readonly string[]).includes(role)) {
      throw new HttpError(400, `Unknown role "${role}". Use one of: ${ROLES.values.join(', ')}`);
    }
  }
}
