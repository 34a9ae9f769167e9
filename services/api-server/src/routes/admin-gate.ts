import { isAdmin, MESSAGES } from '@app/contracts';
import type { Hono } from 'hono';
import { HttpError } from '../errors';
import type { TwoFactor } from '../services/two-factor';
import type { Env } from './http-helpers';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The admin actions that change who may do what, export personal data or change what visitors get
 * (issue 46): each needs a code verified in this session within TWO_FACTOR_STEP_UP_MS. Hono-style paths,
 * as the routes register them. Deploy tokens are made and revoked with the CLI on the server only
 * (`pnpm admin deploy-token`): no browser route to guard.
 */
const SENSITIVE: [Method, string][] = [
  ['POST', '/api/admin/users/:id/activate'],
  ['POST', '/api/admin/users/:id/roles'],
  ['DELETE', '/api/admin/users/:id/roles/:role'],
  ['POST', '/api/admin/members/activate'],
  ['POST', '/api/admin/members/reject'],
  ['POST', '/api/admin/members/:id/roles'],
  ['DELETE', '/api/admin/members/:id/roles/:role'],
  ['GET', '/api/admin/leads.csv'],
  ['DELETE', '/api/admin/rollouts/previews/:id'],
  ['PUT', '/api/admin/site/impressum'],
  ['PUT', '/api/admin/site/contact'],
];

const PATTERNS = SENSITIVE.map(([method, path]) => ({
  method,
  regex: new RegExp(`^${path.replace(/\./g, '\\.').replace(/:[a-z]+/g, '[^/]+')}$`),
}));

export const isSensitiveAdminAction = (method: string, path: string): boolean =>
  PATTERNS.some((p) => p.method === method && p.regex.test(path));

/**
 * Before every /api/admin route, for administrators only (a guest's 401 and a member's 403 stay the routes'
 * own): no second factor, no administration (403 with `twoFactorSetupRequired`, the shell links to the
 * profile); a sensitive action without a recent code is a 403 with `stepUpRequired` (the shell asks for a
 * code and retries). So an administrator's password alone, or a session token alone, does not administer.
 */
export function mountAdminGate(app: Hono<Env>, factor: TwoFactor) {
  const T = MESSAGES.twoFactor;
  app.use('/api/admin/*', async (c, next) => {
    const who = c.get('caller');
    if (!who || !isAdmin(who.roles)) return next();
    const state = await factor.adminState(who.userId, who.tokenHash);
    if (!state.enabled) throw new HttpError(403, T.setupRequired, { twoFactorSetupRequired: true });
    if (isSensitiveAdminAction(c.req.method, c.req.path) && !factor.steppedUp(state))
      throw new HttpError(403, T.stepUpRequired, { stepUpRequired: true });
    return next();
  });
}
