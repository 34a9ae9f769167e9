import type { AdminUser } from '@app/contracts';
import { ROLES } from '@app/contracts';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { rolesOf, USER_SELECT, type UserRow } from './account-model';
import type { AdminAudit, AuditActor } from './admin-audit';
import type { SessionService } from './sessions';
import type { UserDirectory } from './users';

/** An administrator acting in the browser: the change is audited in its own transaction (issue 34). */
export interface AdminActor {
  actor: AuditActor;
  audit: AdminAudit;
}

export const SELF_REVOKE_ADMIN =
  'You cannot remove your own administrator role: another administrator has to do it';

/**
 * Administration (CLI and /api/admin): listing users, activating them, granting and revoking roles. The CLI
 * passes no actor (its audit is the shell's history); the admin API passes one, and the change and its
 * admin_audit row commit together.
 */
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
    const where = status === 'pending' ? ' WHERE u.is_active = FALSE' : '';
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

  /**
   * Inside the caller's transaction: activates a waiting account and queues its activation mail; false when
   * it was already active. The conditional UPDATE decides, so two activations racing send one mail.
   */
  async activateIn(tx: Sql, row: { id: number; email: string; first_name: string; username: string }) {
    const changed = await tx.value<number>(
      'UPDATE users SET is_active = TRUE WHERE id = ? AND is_active = FALSE RETURNING id',
      [row.id],
    );
    if (changed === undefined) return false;
    await this.mailer.accountActivated(tx, row);
    return true;
  }

  async activate(ref: string | number, by?: AdminActor): Promise<AdminUser> {
    const row = await this.mustResolve(ref);
    // The member is told once, when the account goes from waiting to active (CLI and admin API alike).
    await this.sql.transaction(async (tx) => {
      if ((await this.activateIn(tx, row)) && by) {
        await by.audit.record(tx, by.actor, 'member.activate', `user:${row.id}`, this.who(row));
      }
    });
    return this.adminView(await this.mustResolve(row.id));
  }

  async grant(ref: string | number, role: string, by?: AdminActor): Promise<AdminUser> {
    this.assertRole(role);
    const row = await this.mustResolve(ref);
    await this.sql.transaction(async (tx) => {
      const added = await tx.run(
        'INSERT INTO user_roles (user_id, role) VALUES (?, ?) ON CONFLICT DO NOTHING',
        [row.id, role],
      );
      if (added > 0 && by) {
        await by.audit.record(tx, by.actor, 'member.grant', `user:${row.id}`, { ...this.who(row), role });
      }
    });
    // Cached sessions of this user carry the old roles: their next request reads the new ones.
    this.sessions.forgetUser(row.id);
    return this.adminView(await this.mustResolve(row.id));
  }

  async revoke(ref: string | number, role: string, by?: AdminActor): Promise<AdminUser> {
    this.assertRole(role);
    const row = await this.mustResolve(ref);
    // The last administrator must not lock everyone out; the CLI on the server stays the way back.
    if (by && role === 'admin' && by.actor.id === row.id) throw new HttpError(400, SELF_REVOKE_ADMIN);
    await this.sql.transaction(async (tx) => {
      const removed = await tx.run('DELETE FROM user_roles WHERE user_id = ? AND role = ?', [row.id, role]);
      if (removed > 0 && by) {
        await by.audit.record(tx, by.actor, 'member.revoke', `user:${row.id}`, { ...this.who(row), role });
      }
    });
    this.sessions.forgetUser(row.id);
    return this.adminView(await this.mustResolve(row.id));
  }

  private who(row: UserRow) {
    return { email: row.email, username: row.username };
  }

  private assertRole(role: string) {
    if (!(ROLES.values as readonly string[]).includes(role)) {
      throw new HttpError(400, `Unknown role "${role}". Use one of: ${ROLES.values.join(', ')}`);
    }
  }
}
