/**
 * The administrators' API paths (issue 34): their own entry (`@app/contracts/admin-paths`), so a visitor's
 * bundles never carry them; only the admin screens' lazy chunks, the API and the tests import them.
 */
export const ADMIN_PATHS = {
  users: '/api/admin/users',
  rollouts: '/api/admin/rollouts',
  /** DELETE ?environment=E (default: the API's DEPLOY_ENV): revokes one preview link (issue 44). */
  rolloutPreview: (id: string) => `/api/admin/rollouts/previews/${id}`,
  /** Every mail the product sent or would send, with its delivery attempts (issue 34). */
  outbox: '/api/admin/outbox',
  /** Issue 34's admin screens: members (mf-account), leads (mf-survey), company details (mf-public-pages). */
  members: '/api/admin/members',
  membersActivate: '/api/admin/members/activate',
  membersReject: '/api/admin/members/reject',
  memberRoles: (id: string | number) => `/api/admin/members/${id}/roles`,
  memberRole: (id: string | number, role: string) =>
    `/api/admin/members/${id}/roles/${encodeURIComponent(role)}`,
  audit: '/api/admin/audit',
  leads: '/api/admin/leads',
  /** The same filters as `leads`; every matching lead, RFC 4180, formula injection neutralised. */
  leadsCsv: '/api/admin/leads.csv',
  lead: (id: string | number) => `/api/admin/leads/${id}`,
  leadContacted: (id: string | number) => `/api/admin/leads/${id}/contacted`,
  site: '/api/admin/site',
  siteImpressum: '/api/admin/site/impressum',
  siteContact: '/api/admin/site/contact',
  /** Counts per status and the last delivery error: what the outbox screen and the Admin menu warn with. */
  outboxSummary: '/api/admin/outbox/summary',
  activate: (id: string | number) => `/api/admin/users/${id}/activate`,
  roles: (id: string | number) => `/api/admin/users/${id}/roles`,
  role: (id: string | number, role: string) => `/api/admin/users/${id}/roles/${encodeURIComponent(role)}`,
} as const;
