import type { Context } from 'hono';
import type { Caller } from '../services/accounts';
import type { DeployTokenService } from '../services/deploy-tokens';

/** What the deploy routes' token check needs; app.ts sets it on every /api/deploy/* request. */
export interface DeployAuth {
  tokens: DeployTokenService;
  /** DEPLOY_ENVIRONMENTS, in promotion order. */
  environments: readonly string[];
}

/**
 * What app.ts's middleware puts on each request's context. Its own module, below every route helper
 * (http-helpers, list-cache, deploy-auth), so none of them has to import another to name the context.
 */
export type Env = {
  Variables: {
    caller: Caller | null;
    /** Set on /api/deploy/* only: the deploy token check (routes/deploy-auth.ts). */
    deployAuth?: DeployAuth;
  };
};
export type C = Context<Env>;

export const caller = (c: C) => c.get('caller');
