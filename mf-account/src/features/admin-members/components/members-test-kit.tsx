import { API_PATHS } from '@app/contracts';
import type { AdminAuditEntry, AdminMember } from '@app/contracts/admin-members';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import { Route, Routes, useLocation } from '@app/router';
import { Providers } from '@app/test-utils';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { API, server } from '../../../test/server';
import { MembersPage } from './members-page';

/** What the /admin/members tests share: members, a fake members API that records what it was asked. */
export const ADMIN_PROFILE = {
  id: 1,
  username: 'boss',
  name: { first: 'Ada', last: 'Admin' },
  email: 'boss@example.com',
  address: { street: 'Main Street 1', city: 'Berlin', postal_code: '10115', country: '' },
  roles: ['admin'],
  is_active: true,
  created_at: '2026-01-01T12:00:00Z',
  last_login: null,
};

export const member = (id: number, over: Partial<AdminMember> = {}): AdminMember => ({
  id,
  username: `user${id}`,
  email: `user${id}@example.com`,
  first_name: 'First',
  last_name: `Last${id}`,
  is_active: true,
  roles: [],
  created_at: '2026-11-20T10:00:00Z',
  registered_from: null,
  ...over,
});

export const PENDING_A = member(11, {
  username: 'newbie',
  email: 'newbie@example.com',
  first_name: 'Nina',
  last_name: 'New',
  is_active: false,
  created_at: '2026-11-25T09:00:00Z',
  registered_from: '203.0.113.7',
});
export const PENDING_B = member(12, {
  username: 'waiting',
  is_active: false,
  registered_from: '198.51.100.2',
});
export const ACTIVE = member(5, {
  username: 'jane',
  first_name: 'Jane',
  last_name: 'Doe',
  roles: ['paid-tier-1'],
});

export interface Recorded {
  lists: URLSearchParams[];
  posts: { path: string; body: unknown }[];
  deletes: string[];
  audits: URLSearchParams[];
}

interface Options {
  items?: AdminMember[];
  total?: number;
  pending?: number;
  audit?: AdminAuditEntry[];
  profile?: typeof ADMIN_PROFILE;
}

/** The admin's session and a members API answering `items` (whatever the question); every call is recorded. */
export function mockMembersApi({
  items = [PENDING_A, PENDING_B, ACTIVE],
  total = items.length,
  pending = items.filter((m) => !m.is_active).length,
  audit = [],
  profile = ADMIN_PROFILE,
}: Options = {}): Recorded {
  const calls: Recorded = { lists: [], posts: [], deletes: [], audits: [] };
  localStorage.setItem('token', 'admin-token');
  server.use(
    http.get(`${API}${API_PATHS.profile}`, () => HttpResponse.json(profile)),
    http.get(`${API}${ADMIN_PATHS.members}`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.lists.push(params);
      return HttpResponse.json({ items, total, page: Number(params.get('page') ?? 1), limit: 25, pending });
    }),
    http.get(`${API}${ADMIN_PATHS.audit}`, ({ request }) => {
      calls.audits.push(new URL(request.url).searchParams);
      return HttpResponse.json({ items: audit, total: audit.length, page: 1, limit: 10 });
    }),
  );
  return calls;
}

/** Shows the address the screen keeps its question in (?q, ?status, ?page). */
function SearchProbe() {
  const location = useLocation();
  return <output data-testid="search">{location.search}</output>;
}

export function renderMembers(path = '/admin/members') {
  const user = userEvent.setup({ delay: null });
  const result = render(
    <Providers path={path}>
      <Routes>
        <Route path="/admin/members" element={<MembersPage />} />
      </Routes>
      <SearchProbe />
    </Providers>,
  );
  return { user, ...result };
}
