import type { AdminUser } from '@app/contracts';
import { ROLES } from '@app/contracts';
import type { DB } from '../db/database';
import { HttpError } from '../errors';
import { rolesOf, USER_SELECT, type UserRow } from './account-model';
import type { SessionService } from './sessions';
import type { UserDirectory } from './users';

/** Administration (CLI and /api/admin): listing users, activating them, granting and revoking roles. */
export class AccountAdmin {
  constructor(
    private readonly db: DB,
    private readonly users: UserDirectory,
    private readonly sessions: SessionService,
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

  listUsers(status: 'pending' | 'all' = 'all'): AdminUser[] {
    const where = status === 'pending' ? ' WHERE u.is_active = 0' : '';
    return (this.db.prepare(`${USER_SELECT}${where} ORDER BY u.id`).all() as UserRow[]).map((r) =>
      this.adminView(r),
    );
  }

  private mustResolve(ref: string | number): UserRow {
    const row = this.users.resolveUser(ref);
    if (!row) throw new HttpError(404, 'User not found');
    return row;
  }

  /** The admin view of a user, or 404. */
  view(ref: string | number): AdminUser {
    return this.adminView(this.mustResolve(ref));
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
    this.sessions.forgetUser(row.id);
    return this.adminView(this.mustResolve(row.id));
  }

  revoke(ref: string | number, role: string): AdminUser {
    this.assertRole(role);
    const row = this.mustResolve(ref);
    this.db.prepare('DELETE FROM user_roles WHERE user_id = ? AND role = ?').run(row.id, role);
    this.sessions.forgetUser(row.id);
    return this.adminView(this.mustResolve(row.id));
  }

  private assertRole(role: string) {
    if (!(ROLES.values as readonly string[]).includes(role)) {
      throw new HttpError(400, `Unknown role "${role}". Use one of: ${ROLES.values.join(', ')}`);
    }
  }
}
