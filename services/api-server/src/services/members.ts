import type { AdminMember, MemberBulkResult, MembersPage, MembersQuery } from '@app/contracts/admin-members';
import { MEMBER_SEARCH_TEXT } from '../db/member-search';
import type { Dialect, Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { AccountAdmin, AdminActor } from './account-admin';
import { rolesOf } from './account-model';

/** One member as the admin list reads it: the columns the screen shows and the roles as one text. */
interface MemberRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: number;
  created_at: string;
  registered_from: string | null;
  roles: string | null;
}

const COLUMNS = `u.id, u.username, u.email, u.first_name, u.last_name, u.is_active, u.created_at, u.registered_from,
  (SELECT string_agg(role, ',') FROM user_roles r WHERE r.user_id = u.id) AS roles`;

/** `%` and `_` typed into the search box are characters, not wildcards. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** A phrase of FTS5's query language: the text as typed, quotes doubled; no operator has a meaning in it. */
const ftsPhrase = (q: string) => `"${q.replace(/"/g, '""')}"`;

/**
 * The WHERE of the members list. The search is a substring of username, email, first or last name, any
 * case (MEMBER_SEARCH_TEXT). A LIKE '%q%' over every row costs ~7 ms at 10,000 members, so it reads a
 * trigram index (migration 15): on SQLite the users_search FTS5 table, for 3 or more characters (a
 * trigram index has nothing to offer for fewer; those few scan); on PostgreSQL ILIKE over the indexed
 * expression. The order still comes from idx_users_admin_order (is_active, created_at DESC, id DESC).
 */
export function membersWhere(dialect: Dialect, q: Pick<MembersQuery, 'q' | 'status'>) {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (q.status === 'pending') parts.push('u.is_active = FALSE');
  if (q.status === 'active') parts.push('u.is_active = TRUE');
  if (q.q && dialect === 'postgres') {
    parts.push(`(${MEMBER_SEARCH_TEXT('u.', 'postgres')}) ILIKE ? ESCAPE '\\'`);
    params.push(likePattern(q.q));
  } else if (q.q && [...q.q].length >= 3) {
    parts.push('u.id IN (SELECT rowid FROM users_search WHERE users_search MATCH ?)');
    params.push(ftsPhrase(q.q));
  } else if (q.q) {
    parts.push(`(${MEMBER_SEARCH_TEXT('u.')}) LIKE ? ESCAPE '\\'`);
    params.push(likePattern(q.q));
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/**
 * Pending first, then newest: exactly the order of idx_users_admin_order, so the first pages need no sort.
 * The page's ids are chosen first and only those 25 rows are read in full with their roles: a search that
 * matches a thousand members sorts a thousand (id, is_active, created_at), not a thousand full rows.
 * CROSS JOIN: SQLite keeps page as the outer loop (25 lookups by id) instead of scanning users.
 */
export const membersPageSql = (where: string) =>
  `WITH page AS (SELECT u.id FROM users u ${where} ${ORDER} LIMIT ? OFFSET ?)
   SELECT ${COLUMNS} FROM page CROSS JOIN users u WHERE u.id = page.id ${ORDER}`;
const ORDER = 'ORDER BY u.is_active, u.created_at DESC, u.id DESC';

export function memberView(row: MemberRow): AdminMember {
  return {
    id: Number(row.id),
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    is_active: Number(row.is_active) === 1,
    roles: rolesOf(row),
    created_at: row.created_at,
    registered_from: row.registered_from ?? null,
  };
}

/**
 * /admin/members (issue 34): the paged list, bulk activate and reject, and role changes, each change with
 * its audit row in one transaction. Activation and roles go through AccountAdmin, so the activation mail
 * and the session cache behave exactly as for the CLI.
 */
export class Members {
  constructor(
    private readonly sql: Sql,
    private readonly admin: AccountAdmin,
  ) {}

  async page(q: MembersQuery): Promise<MembersPage> {
    const { where, params } = membersWhere(this.sql.dialect, q);
    const [rows, total, pending] = await Promise.all([
      this.sql.all<MemberRow>(membersPageSql(where), [...params, q.limit, (q.page - 1) * q.limit]),
      this.sql.value<number>(`SELECT COUNT(*) FROM users u ${where}`, params),
      this.sql.value<number>('SELECT COUNT(*) FROM users WHERE is_active = FALSE'),
    ]);
    return {
      items: rows.map(memberView),
      total: Number(total ?? 0),
      page: q.page,
      limit: q.limit,
      pending: Number(pending ?? 0),
    };
  }

  async view(id: number): Promise<AdminMember> {
    const row = await this.sql.get<MemberRow>(`SELECT ${COLUMNS} FROM users u WHERE u.id = ?`, [id]);
    if (!row) throw new HttpError(404, 'Member not found');
    return memberView(row);
  }

  /**
   * Activates the pending ones among `ids`: each gets its activation mail once (the conditional UPDATE in
   * AccountAdmin decides), with its audit row, all in one transaction. Active or unknown ones are skipped.
   */
  activate(ids: number[], by: AdminActor): Promise<MemberBulkResult> {
    return this.bulk(ids, async (tx, row, result) => {
      if (row.is_active) return result.skipped.push({ id: row.id, reason: 'already active' });
      if (!(await this.admin.activateIn(tx, row))) {
        return result.skipped.push({ id: row.id, reason: 'already active' });
      }
      await by.audit.record(tx, by.actor, 'member.activate', `user:${row.id}`, {
        email: row.email,
        username: row.username,
      });
      result.done.push(row.id);
    });
  }

  /**
   * Deletes the pending registrations among `ids`. The DELETE itself says `is_active = FALSE` (as
   * PendingRegistrations does), so an active account is never deleted, even one activated meanwhile.
   */
  reject(ids: number[], by: AdminActor): Promise<MemberBulkResult> {
    return this.bulk(ids, async (tx, row, result) => {
      const reason = 'active accounts are never rejected';
      if (row.is_active) return result.skipped.push({ id: row.id, reason });
      const deleted = await tx.run('DELETE FROM users WHERE id = ? AND is_active = FALSE', [row.id]);
      if (deleted === 0) return result.skipped.push({ id: row.id, reason });
      await by.audit.record(tx, by.actor, 'member.reject', `user:${row.id}`, {
        email: row.email,
        username: row.username,
        registered_from: row.registered_from,
      });
      result.done.push(row.id);
    });
  }

  private async bulk(
    ids: number[],
    each: (tx: Sql, row: BulkRow, result: MemberBulkResult) => Promise<unknown>,
  ): Promise<MemberBulkResult> {
    const unique = [...new Set(ids)];
    return this.sql.transaction(async (tx) => {
      const rows = await tx.all<BulkRow>(
        `SELECT id, username, email, first_name, is_active, registered_from FROM users
         WHERE id IN (${unique.map(() => '?').join(', ')})`,
        unique,
      );
      const byId = new Map(
        rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), is_active: Number(r.is_active) }]),
      );
      const result: MemberBulkResult = { done: [], skipped: [] };
      for (const id of unique) {
        const row = byId.get(id);
        if (!row) result.skipped.push({ id, reason: 'not found' });
        else await each(tx, row, result);
      }
      return result;
    });
  }

  async grant(id: number, role: string, by: AdminActor): Promise<AdminMember> {
    await this.admin.grant(id, role, by);
    return this.view(id);
  }

  async revoke(id: number, role: string, by: AdminActor): Promise<AdminMember> {
    await this.admin.revoke(id, role, by);
    return this.view(id);
  }
}

interface BulkRow {
  id: number;
  username: string;
  email: string;
  first_name: string;
  is_active: number;
  registered_from: string | null;
}
