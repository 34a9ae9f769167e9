import {
  AdminAuditQuerySchema,
  MemberIdsSchema,
  MemberRoleChangeSchema,
  MembersQuerySchema,
} from '@app/contracts/admin-members';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { Hono } from 'hono';
import * as v from 'valibot';
import { HttpError, parseWith } from '../errors';
import type { AdminActor } from '../services/account-admin';
import { type C, type Env, type RouteDeps, requireAdminActor } from './http-helpers';

const memberId = (c: C) => {
  const id = c.req.param('id') ?? '';
  if (!/^\d{1,12}$/.test(id)) throw new HttpError(404, 'Member not found');
  return Number(id);
};

/**
 * /admin/members and the admin audit (issue 34). Every route checks the role first, before reading the
 * body or the query, so a guest gets 401 and a member 403 whatever they send (test/admin-access.test.ts).
 */
export function registerAdminMemberRoutes(app: Hono<Env>, { accounts, audit, json }: RouteDeps) {
  const admin = (c: C): AdminActor => requireAdminActor(c, audit);

  app.get(ADMIN_PATHS.members, async (c) => {
    admin(c);
    return c.json(await accounts.members.page(parseWith(MembersQuerySchema, c.req.query())));
  });
  app.post(ADMIN_PATHS.membersActivate, async (c) => {
    const by = admin(c);
    const { ids } = parseWith(MemberIdsSchema, await json(c));
    return c.json(await accounts.members.activate(ids, by));
  });
  app.post(ADMIN_PATHS.membersReject, async (c) => {
    const by = admin(c);
    const { ids } = parseWith(MemberIdsSchema, await json(c));
    return c.json(await accounts.members.reject(ids, by));
  });
  app.post(ADMIN_PATHS.memberRoles(':id'), async (c) => {
    const by = admin(c);
    const id = memberId(c);
    const { role } = parseWith(MemberRoleChangeSchema, await json(c));
    return c.json(await accounts.members.grant(id, role, by));
  });
  app.delete('/api/admin/members/:id/roles/:role', async (c) => {
    const by = admin(c);
    const id = memberId(c);
    const role = c.req.param('role');
    if (!v.is(MemberRoleChangeSchema.entries.role, role)) throw new HttpError(400, 'Unknown role');
    return c.json(await accounts.members.revoke(id, role, by));
  });
  app.get(ADMIN_PATHS.audit, async (c) => {
    admin(c);
    return c.json(await audit.page(parseWith(AdminAuditQuerySchema, c.req.query())));
  });
}
