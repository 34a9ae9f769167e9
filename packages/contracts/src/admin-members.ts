import * as v from 'valibot';
import { RoleSchema } from './enums';
import { limitParam, pageOf, pageParam } from './paging';

/**
 * /admin/members (mf-account, issue 34): who waits, letting them in or turning them away, tiers, search, and
 * the audit of every such action. Its own entry (`@app/contracts/admin-members`) so only the admin chunk
 * carries it.
 */
export const MEMBER_FILTERS = ['all', 'pending', 'active'] as const;

/** GET /api/admin/members: pending first, then newest; `q` matches username, email, first or last name. */
export const MembersQuerySchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'q must be at most 100 characters')), ''),
  status: v.optional(v.picklist(MEMBER_FILTERS, 'status must be all, pending or active'), 'all'),
  page: pageParam(),
  limit: limitParam(25),
});
export type MembersQuery = v.InferOutput<typeof MembersQuerySchema>;

export const AdminMemberSchema = v.object({
  id: v.number(),
  username: v.string(),
  email: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  is_active: v.boolean(),
  roles: v.array(v.string()),
  created_at: v.string(),
  /** The client address the registration came from (as `pnpm admin pending-by-address` shows), if known. */
  registered_from: v.nullable(v.string()),
});
export type AdminMember = v.InferOutput<typeof AdminMemberSchema>;

export const MembersPageSchema = v.object({
  ...pageOf(AdminMemberSchema).entries,
  /** Pending registrations in the whole table, whatever the filter: the badge on the page. */
  pending: v.number(),
});
export type MembersPage = v.InferOutput<typeof MembersPageSchema>;

/** POST /api/admin/members/activate and /reject: one or many at once (up to a page of 100). */
export const MemberIdsSchema = v.object({
  ids: v.pipe(
    v.array(v.pipe(v.number(), v.integer(), v.minValue(1))),
    v.minLength(1, 'Choose at least one member'),
    v.maxLength(100, 'At most 100 members at once'),
  ),
});
/**
 * What a bulk action did: `done` the ids changed, `skipped` those left alone with the reason (already
 * active, not pending, unknown). Reject deletes pending registrations only; an active account is never
 * touched by it.
 */
export const MemberBulkResultSchema = v.object({
  done: v.array(v.number()),
  skipped: v.array(v.object({ id: v.number(), reason: v.string() })),
});
export type MemberBulkResult = v.InferOutput<typeof MemberBulkResultSchema>;

/** POST /api/admin/members/:id/roles { role } grants; DELETE /api/admin/members/:id/roles/:role revokes. */
export const MemberRoleChangeSchema = v.object({ role: RoleSchema });

/** GET /api/admin/audit?page&limit&target: every admin action, newest first. */
export const AdminAuditQuerySchema = v.object({
  /** e.g. `user:42`, `lead:7`, `site:impressum`; empty for all. */
  target: v.optional(v.pipe(v.string(), v.maxLength(100)), ''),
  page: pageParam(),
  limit: limitParam(25),
});
export const AdminAuditEntrySchema = v.object({
  id: v.number(),
  /** Epoch milliseconds. */
  at: v.number(),
  actor: v.string(),
  /** e.g. `member.activate`, `member.reject`, `member.grant`, `member.revoke`, `lead.contacted`, `site.impressum`. */
  action: v.string(),
  target: v.string(),
  detail: v.record(v.string(), v.unknown()),
});
export type AdminAuditEntry = v.InferOutput<typeof AdminAuditEntrySchema>;
export const AdminAuditPageSchema = pageOf(AdminAuditEntrySchema);
export type AdminAuditPage = v.InferOutput<typeof AdminAuditPageSchema>;
