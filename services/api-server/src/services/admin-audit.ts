import type { AdminAuditEntry, AdminAuditPage } from '@app/contracts/admin-members';
import type { Sql } from '../db/sql';

/** Who did it: the administrator's id and username, as the session names them. */
export interface AuditActor {
  id: number;
  username: string;
}

interface AuditRow {
  id: number;
  at: number;
  actor: string;
  action: string;
  target: string;
  detail: string;
}

/**
 * The audit of what administrators do in the browser (issue 34): activate, reject, grant, revoke, leads
 * contacted, company details. `record` takes the transaction's `Sql`, so the change and its audit row are
 * written together or not at all.
 */
export class AdminAudit {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
  ) {}

  async record(
    tx: Sql,
    actor: AuditActor,
    action: string,
    target: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await tx.run(
      'INSERT INTO admin_audit (at, actor_id, actor, action, target, detail) VALUES (?, ?, ?, ?, ?, ?)',
      [this.now(), actor.id, actor.username, action, target, JSON.stringify(detail)],
    );
  }

  /** A record written on its own: an administrator read something that is other people's (the outbox). */
  recordRead(actor: AuditActor, action: string, target: string, detail: Record<string, unknown> = {}) {
    return this.record(this.sql, actor, action, target, detail);
  }

  /** Newest first; `target` narrows to one member, lead or record (`user:42`). */
  async page(q: { target: string; page: number; limit: number }): Promise<AdminAuditPage> {
    const where = q.target ? 'WHERE target = ?' : '';
    const filter = q.target ? [q.target] : [];
    const total = Number(
      (await this.sql.value<number>(`SELECT COUNT(*) FROM admin_audit ${where}`, filter)) ?? 0,
    );
    const rows = await this.sql.all<AuditRow>(
      `SELECT id, at, actor, action, target, detail FROM admin_audit ${where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
      [...filter, q.limit, (q.page - 1) * q.limit],
    );
    const items: AdminAuditEntry[] = rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      actor: r.actor,
      action: r.action,
      target: r.target,
      detail: JSON.parse(r.detail) as Record<string, unknown>,
    }));
    return { items, total, page: q.page, limit: q.limit };
  }
}
