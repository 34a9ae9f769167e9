import { API_PATHS } from '@app/contracts';
import { ADMIN_PATHS } from '@app/contracts/admin-paths';
import type { LeadDetail, LeadSummary } from '@app/contracts/leads';
import { useLocation } from '@app/router';
import { API, renderWithProviders } from '@app/test-utils';
import { HttpResponse, http } from 'msw';
import type { SetupServerApi } from 'msw/node';
import LeadsPage from '../features/leads/components/leads-page';

export const url = (path: string) => `${API}${path}`;

/** Logs the test in: a stored token and a profile with these roles. */
export function loginAs(server: SetupServerApi, roles: string[]) {
  localStorage.setItem('token', 'test-token');
  server.use(
    http.get(url(API_PATHS.profile), () =>
      HttpResponse.json({
        id: 1,
        username: 'admin',
        name: { first: 'Ada', last: 'Admin' },
        email: 'ada@example.com',
        address: { street: '1 Main Street', city: 'Berlin', postal_code: '10115', country: 'Germany' },
        roles,
        is_active: true,
        created_at: '2025-01-01T10:00:00.000Z',
      }),
    ),
  );
}

export function makeLead(id: number, overrides: Partial<LeadSummary> = {}): LeadSummary {
  return {
    id,
    created_at: '2026-11-20T09:30:00.000Z',
    email: `lead${id}@example.com`,
    name: `Lead ${id}`,
    company: `Company ${id}`,
    industry: 'logistics',
    company_size: '51-200',
    role: 'coo',
    urgency: 'immediate',
    consultation: true,
    communication_method: 'email-meeting',
    contacted_at: null,
    ...overrides,
  };
}

export function makeDetail(id: number, overrides: Partial<LeadDetail> = {}): LeadDetail {
  return {
    ...makeLead(id, { name: 'Jane Doe', company: 'Northwind Freight', email: 'jane@example.com' }),
    answers: {
      companySize: '51-200',
      industry: 'logistics',
      role: 'coo',
      yearsInRole: '4-7',
      primaryChallenges: ['supply-chain', 'cash-flow'],
      riskConcerns: ['cyber-attack'],
      growthGoals: [],
      intelligenceTopics: ['market-trends'],
      reportFrequency: 'monthly',
      urgency: 'immediate',
      email: 'jane@example.com',
      firstName: 'Jane',
      lastName: 'Doe',
      company: 'Northwind Freight',
      phone: '',
      communicationMethod: 'email-meeting',
      consultationInterest: true,
    },
    contacted_by: null,
    contacted_note: '',
    ...overrides,
  };
}

/**
 * GET /api/admin/leads as the API pages `total` leads (25 a page by default): each request's query is kept,
 * so a test checks what the screen asked for. `rows` caps the rows of an answer (fewer rows, faster tests).
 */
export function serveLeads(server: SetupServerApi, total: number, { rows = Infinity } = {}) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get(url(ADMIN_PATHS.leads), ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      const page = Number(params.get('page') ?? '1');
      const limit = Number(params.get('limit') ?? '25');
      const first = (page - 1) * limit;
      const count = Math.max(0, Math.min(limit, total - first, rows));
      const items = Array.from({ length: count }, (_, i) => makeLead(first + i + 1));
      return HttpResponse.json({ items, total, page, limit });
    }),
  );
  return asked;
}

/** Shows where the router is, so a test can read the address the screen wrote. */
function AddressProbe() {
  const { search } = useLocation();
  return <output aria-label="address">{search}</output>;
}

export function renderLeads(path = '/admin/leads') {
  return renderWithProviders(
    <>
      <LeadsPage />
      <AddressProbe />
    </>,
    { path },
  );
}

/** The query as a plain object, without the paging the screen always sends. */
export const filtersOf = (params: URLSearchParams | undefined) => {
  const all = Object.fromEntries(params ?? []);
  const { page: _page, limit: _limit, ...filters } = all;
  return filters;
};
