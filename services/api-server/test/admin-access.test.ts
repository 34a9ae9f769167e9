import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { startTestServer, type TestServer, type TestUser } from './helpers';

/**
 * Issue 34: the API enforces the admin role whatever the shell's menu shows. Every /api/admin/* route the
 * app registers is read from the hono app itself, so a route added later (leads, company details, the
 * outbox summary, ...) is covered without touching this file: 401 for a guest, 403 for a signed-in member,
 * and for an administrator an answer that is neither (2xx, or a 4xx about the request, never a 5xx).
 */
let s: TestServer;
let admin: TestUser;
let member: TestUser;
let routes: { method: string; path: string }[];

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.user(['admin'], 'admin');
  member = await s.user([], 'member');
  // A second app over the same context, only to read its route table (middleware is method ALL).
  const seen = new Set<string>();
  routes = createApp(s.ctx)
    .routes.filter((r) => r.path.startsWith('/api/admin') && r.method !== 'ALL')
    .map((r) => ({ method: r.method, path: r.path }))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
});
afterAll(() => s.close());

/** A concrete URL for a route: ids name the member (never the admin, whose own roles are protected). */
function urlOf(path: string): string {
  return path
    .replace(/:id(\{[^}]*\})?/g, String(member.id))
    .replace(/:role(\{[^}]*\})?/g, 'paid-tier-1')
    .replace(/:[A-Za-z_]+(\{[^}]*\})?/g, 'x')
    .replace(/\*/g, 'x');
}

async function call(method: string, path: string, token: string | null) {
  const withBody = method !== 'GET' && method !== 'HEAD';
  return s.req(method, urlOf(path), { token, ...(withBody ? { body: {} } : {}) });
}

describe('every /api/admin route', () => {
  it('is found in the app, the members and audit routes among them', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'GET /api/admin/users',
      'GET /api/admin/members',
      'POST /api/admin/members/activate',
      'POST /api/admin/members/reject',
      'POST /api/admin/members/:id/roles',
      'DELETE /api/admin/members/:id/roles/:role',
      'GET /api/admin/audit',
    ]) {
      expect(listed).toContain(expected);
    }
  });

  it('answers a guest 401 with an error', async () => {
    for (const r of routes) {
      const res = await call(r.method, r.path, null);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      expect(typeof res.body?.error, `${r.method} ${r.path}`).toBe('string');
    }
  });

  it('answers a signed-in member 403 with an error', async () => {
    for (const r of routes) {
      const res = await call(r.method, r.path, member.token);
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      expect(typeof res.body?.error, `${r.method} ${r.path}`).toBe('string');
    }
  });

  it('lets an administrator through: no 401, no 403, no 5xx', async () => {
    for (const r of routes) {
      const res = await call(r.method, r.path, admin.token);
      const what = `${r.method} ${r.path}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`;
      expect(res.status, what).toBeGreaterThanOrEqual(200);
      expect(res.status, what).toBeLessThan(500);
      expect([401, 403], what).not.toContain(res.status);
    }
  });
});
