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
  /** Issue 46: follow an email change's confirmation link (POST {token}). */
  confirmEmail: '/api/profile/email/confirm',
  /** Issue 46: undo an email change from the old address's link (POST {token}). */
  undoEmailChange: '/api/profile/email/undo',
  /** Issue 46: the caller's sessions (GET), end every other one (DELETE). */
  sessions: '/api/profile/sessions',
  /** Issue 46: end one of the caller's sessions by its public id (DELETE). */
  session: (id: string) => `/api/profile/sessions/${encodeURIComponent(id)}`,
  changePassword: '/api/account/change-password',
  /** Issue 34: always the same 202, whether or not the email has an account. */
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  deleteAccount: '/api/account/delete',
  /** Issue 46: the account's second factor (TOTP): status, setup, confirm, turn off, and the step-up check. */
  twoFactor: '/api/account/two-factor',
  twoFactorSetup: '/api/account/two-factor/setup',
  twoFactorConfirm: '/api/account/two-factor/confirm',
  twoFactorDisable: '/api/account/two-factor/disable',
  /** A code for this session: sensitive admin actions need one within the last TWO_FACTOR_STEP_UP_MS. */
  twoFactorVerify: '/api/account/two-factor/verify',
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
  rolloutHealth: '/api/rollout/health',
  rolloutPreview: '/api/rollout/preview',
  /** POST from the edges only (signed with the shared secret): their server renders per version (issue 48). */
  rolloutRenders: '/api/rollout/renders',
} as const;
