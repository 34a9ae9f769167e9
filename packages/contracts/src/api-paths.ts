/** The API paths of SPEC §7, in one list. Functions build paths with an id or slug. */
export const API_PATHS = {
  /** `{status:'ok'}` while the process runs (kept for existing callers; the same as healthLive). */
  health: '/api/health',
  /** Liveness: the event loop answers; the database is not asked (docs/decisions/0028-process-lifecycle.md). */
  healthLive: '/api/health/live',
  /** Readiness: the database answers and the instance is not draining; else 503 with Retry-After. */
  healthReady: '/api/health/ready',
  login: '/api/login',
  logout: '/api/logout',
  register: '/api/register',
  profile: '/api/profile',
  preferences: '/api/preferences',
  changePassword: '/api/account/change-password',
  /** Issue 34: always the same 202, whether or not the email has an account. */
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  deleteAccount: '/api/account/delete',
  posts: '/api/posts',
  myPosts: '/api/posts/my',
  searchPosts: '/api/posts/search',
  tags: '/api/posts/tags',
  categories: '/api/posts/categories',
  post: (idOrSlug: string | number) => `/api/posts/${encodeURIComponent(String(idOrSlug))}`,
  postLike: (id: string | number) => `/api/posts/${id}/like`,
  postPublish: (id: string | number) => `/api/posts/${id}/publish`,
  postVisibility: (id: string | number) => `/api/posts/${id}/visibility`,
  postComments: (id: string | number) => `/api/posts/${id}/comments`,
  comment: (id: string | number) => `/api/comments/${id}`,
  commentLike: (id: string | number) => `/api/comments/${id}/like`,
  publicContact: '/api/public-contact',
  publicImpressum: '/api/public-impressum',
  stats: '/api/stats',
  report: '/api/report',
  dashboards: '/api/dashboards',
  dashboard: (slug: string) => `/api/dashboards/${encodeURIComponent(slug)}`,
  marketAssessment: '/api/market-assessment',
  publicPostsDeprecated: '/api/public-posts',
  privatePostsDeprecated: '/api/private-posts',
  adminUsers: '/api/admin/users',
  adminRollouts: '/api/admin/rollouts',
  /** Every mail the product sent or would send, with its delivery attempts (issue 34). */
  adminOutbox: '/api/admin/outbox',
  /** Issue 34's admin screens: members (mf-account), leads (mf-survey), company details (mf-public-pages). */
  adminMembers: '/api/admin/members',
  adminMembersActivate: '/api/admin/members/activate',
  adminMembersReject: '/api/admin/members/reject',
  adminMemberRoles: (id: string | number) => `/api/admin/members/${id}/roles`,
  adminMemberRole: (id: string | number, role: string) =>
    `/api/admin/members/${id}/roles/${encodeURIComponent(role)}`,
  adminAudit: '/api/admin/audit',
  adminLeads: '/api/admin/leads',
  /** The same filters as adminLeads; every matching lead, RFC 4180, formula injection neutralised. */
  adminLeadsCsv: '/api/admin/leads.csv',
  adminLead: (id: string | number) => `/api/admin/leads/${id}`,
  adminLeadContacted: (id: string | number) => `/api/admin/leads/${id}/contacted`,
  adminSite: '/api/admin/site',
  adminSiteImpressum: '/api/admin/site/impressum',
  adminSiteContact: '/api/admin/site/contact',
  /** Counts per status and the last delivery error: what the outbox screen and the Admin menu warn with. */
  adminOutboxSummary: '/api/admin/outbox/summary',
  rolloutHealth: '/api/rollout/health',
  rolloutPreview: '/api/rollout/preview',
  adminActivate: (id: string | number) => `/api/admin/users/${id}/activate`,
  adminRoles: (id: string | number) => `/api/admin/users/${id}/roles`,
  adminRole: (id: string | number, role: string) =>
    `/api/admin/users/${id}/roles/${encodeURIComponent(role)}`,
} as const;
