import { RoleChangeSchema } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { OutboxQuerySchema } from '@app/contracts/outbox';
import type { Hono } from 'hono';
import * as v from 'valibot';
import { HttpError, parseWith } from '../errors';
import { type C, type Env, type RouteDeps, requireAdmin, requireAdminActor } from './http-helpers';

const userRef = (c: C) => {
  const id = c.req.param('id') ?? '';
  if (!/^\d{1,12}$/.test(id)) throw new HttpError(404, 'User not found');
  return Number(id);
};

export function registerAdminRoutes(app: Hono<Env>, { accounts, audit, json, outbox }: RouteDeps) {
  // Every mail sent or waiting, newest first, with its attempts (issue 34); a mail's one-time secret shown
  // as hidden. Mail is other people's: every read is in the admin audit, with what it showed (issue 46).
  app.get(ADMIN_PATHS.outbox, async (c) => {
    const { actor } = requireAdminActor(c, audit);
    const query = parseWith(OutboxQuerySchema, c.req.query());
    const page = await outbox.page(query);
    await audit.recordRead(actor, 'outbox.read', 'outbox', {
      status: query.status ?? 'all',
      page: query.page,
      mails: page.items.map((m) => m.id),
    });
    return c.json(page);
  });
  // Counts per status and the last delivery error: the outbox screen's banner and the Admin menu's badge.
  app.get(ADMIN_PATHS.outboxSummary, async (c) => {
    requireAdmin(c);
    return c.json(await outbox.summary());
  });
  app.get(ADMIN_PATHS.users, async (c) => {
    requireAdmin(c);
    const status = c.req.query('status') ?? 'all';
    if (status !== 'pending' && status !== 'all') throw new HttpError(400, 'status must be pending or all');
    return c.json(await accounts.listUsers(status));
  });
  app.post('/api/admin/users/:id/activate', async (c) => {
    const by = requireAdminActor(c, audit);
    return c.json(await accounts.activate(userRef(c), by));
  });
  app.post('/api/admin/users/:id/roles', async (c) => {
    const by = requireAdminActor(c, audit);
    const { role } = parseWith(RoleChangeSchema, await json(c));
    return c.json(await accounts.grant(userRef(c), role, by));
  });
  app.delete('/api/admin/users/:id/roles/:role', async (c) => {
    const by = requireAdminActor(c, audit);
    const role = c.req.param('role');
    if (!v.is(RoleChangeSchema.entries.role, role)) throw new HttpError(400, 'Unknown role');
    return c.json(await accounts.revoke(userRef(c), role, by));
  });
}
