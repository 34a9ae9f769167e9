import { api } from '@app/api-client';
import {
  AdminAuditPageSchema,
  AdminMemberSchema,
  type MemberBulkResult,
  MemberBulkResultSchema,
  MembersPageSchema,
} from '@app/contracts/admin-members';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { MemberFilter } from '../hooks/use-members-query';

/** How many members a page shows: the API's default; 10,000 members are 400 pages, all paged server-side. */
export const PAGE_SIZE = 25;
/** The member's latest audit entries in the details panel; the whole log is /api/admin/audit. */
export const AUDIT_LIMIT = 10;

export interface MembersRequest {
  q: string;
  status: MemberFilter;
  page: number;
}

/** GET /api/admin/members: one page, pending registrations first, then newest. */
export function fetchMembers({ q, status, page }: MembersRequest, signal: AbortSignal) {
  return api.get(ADMIN_PATHS.members, MembersPageSchema, {
    searchParams: { q: q || undefined, status, page, limit: PAGE_SIZE },
    signal,
  });
}

/** POST activate/reject { ids }: what changed and what was left alone, with the reason. */
export function changeMembers(action: 'activate' | 'reject', ids: number[]): Promise<MemberBulkResult> {
  const path = action === 'activate' ? ADMIN_PATHS.membersActivate : ADMIN_PATHS.membersReject;
  return api.post(path, { ids }, MemberBulkResultSchema);
}

/** POST /api/admin/members/:id/roles grants, DELETE …/roles/:role revokes; both answer the member. */
export function changeRole(id: number, role: string, grant: boolean) {
  return grant
    ? api.post(ADMIN_PATHS.memberRoles(id), { role }, AdminMemberSchema)
    : api.delete(ADMIN_PATHS.memberRole(id, role), AdminMemberSchema);
}

/** GET /api/admin/audit?target=user:<id>: who did what to this member, newest first. */
export function fetchMemberAudit(id: number, signal: AbortSignal) {
  return api.get(ADMIN_PATHS.audit, AdminAuditPageSchema, {
    searchParams: { target: `user:${id}`, limit: AUDIT_LIMIT },
    signal,
  });
}
