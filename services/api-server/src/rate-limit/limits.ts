import { API_PATHS, RATE_LIMIT_MESSAGES } from '@app/contracts';
import type { LimitName } from '../config';
import { ROLLOUT_MESSAGES } from '../services/rollout-messages';

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What one limit counts: per client address or per signed-in account, on which routes. */
export interface LimitRule {
  name: LimitName;
  per: 'address' | 'account';
  /** Method + hono path pairs; `anonymous` has none: it counts every other write made without a token. */
  routes: [Method[], string][];
  /** The 429's `error` before "Please try again in …" (health reports keep issue 9's exact text). */
  what: string;
  withWait: boolean;
}

const posts = API_PATHS.posts;

export const LIMIT_RULES: LimitRule[] = [
  {
    name: 'register',
    per: 'address',
    routes: [[['POST'], API_PATHS.register]],
    what: RATE_LIMIT_MESSAGES.register,
    withWait: true,
  },
  // Counted per address across every account tried: the per-account lockout cannot see one client trying
  // one password against many accounts.
  {
    name: 'login',
    per: 'address',
    routes: [[['POST'], API_PATHS.login]],
    what: RATE_LIMIT_MESSAGES.login,
    withWait: true,
  },
  // Forgot password sends mail; reset guesses tokens: both per address, counted apart from login.
  {
    name: 'reset',
    per: 'address',
    routes: [
      [['POST'], API_PATHS.forgotPassword],
      [['POST'], API_PATHS.resetPassword],
    ],
    what: RATE_LIMIT_MESSAGES.reset,
    withWait: true,
  },
  {
    name: 'assessment',
    per: 'address',
    routes: [[['POST'], API_PATHS.marketAssessment]],
    what: RATE_LIMIT_MESSAGES.assessment,
    withWait: true,
  },
  {
    name: 'health',
    per: 'address',
    routes: [[['POST'], API_PATHS.rolloutHealth]],
    what: ROLLOUT_MESSAGES.tooManyHealthReports,
    withWait: false,
  },
  { name: 'anonymous', per: 'address', routes: [], what: RATE_LIMIT_MESSAGES.anonymous, withWait: true },
  {
    name: 'post',
    per: 'account',
    routes: [
      [['POST'], posts],
      [['PUT', 'DELETE'], `${posts}/:id`],
      [['PUT', 'POST'], `${posts}/:id/publish`],
      [['PUT', 'PATCH'], `${posts}/:id/visibility`],
    ],
    what: RATE_LIMIT_MESSAGES.post,
    withWait: true,
  },
  {
    name: 'comment',
    per: 'account',
    routes: [
      [['POST'], `${posts}/:id/comments`],
      [['PUT', 'DELETE'], '/api/comments/:id'],
    ],
    what: RATE_LIMIT_MESSAGES.comment,
    withWait: true,
  },
  {
    name: 'like',
    per: 'account',
    routes: [
      [['POST'], `${posts}/:id/like`],
      [['POST'], '/api/comments/:id/like'],
    ],
    what: RATE_LIMIT_MESSAGES.like,
    withWait: true,
  },
  {
    name: 'account',
    per: 'account',
    routes: [
      [['PUT'], API_PATHS.profile],
      [['PUT'], API_PATHS.preferences],
      [['PUT', 'POST'], API_PATHS.changePassword],
      // Issue 46: each checks a password or a code (wrong codes also lock: services/two-factor.ts).
      [['POST'], API_PATHS.twoFactorSetup],
      [['POST'], API_PATHS.twoFactorConfirm],
      [['POST'], API_PATHS.twoFactorDisable],
      [['POST'], API_PATHS.twoFactorVerify],
    ],
    what: RATE_LIMIT_MESSAGES.account,
    withWait: true,
  },
];

/** Paths whose unauthenticated writes an address limit of their own already counts. */
export const OWN_ADDRESS_LIMIT_PATHS = new Set(
  LIMIT_RULES.filter((r) => r.per === 'address').flatMap((r) => r.routes.map(([, path]) => path)),
);
