import type { DeployTokenScope } from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import { forbidden, HttpError, unauthorized } from '../errors';
import type { C, DeployAuth } from './hono-env';

export type { DeployAuth } from './hono-env';

const MISSING = 'A deploy token is required: Authorization: Bearer mfd_… (pnpm admin deploy-token create)';
const INVALID = 'This deploy token is unknown or revoked';

/** An environment outside DEPLOY_ENVIRONMENTS is a 404 that lists the known ones. */
export function requireEnvironment(auth: DeployAuth, environment: string): void {
  if (!auth.environments.includes(environment)) {
    throw new HttpError(
      404,
      `Unknown environment "${environment}"; this install knows ${auth.environments.join(', ')}`,
    );
  }
}

/**
 * The calling deploy token's scope, or a 401 (no token, unknown, revoked) / 404 (unknown environment) / 403
 * (a remote or environment the token may not change; the message says what it may). Records the use.
 */
export async function requireDeployScope(
  c: C,
  target: { remote?: RemotePackage; environment?: string } = {},
): Promise<DeployTokenScope> {
  const auth = c.get('deployAuth');
  if (!auth) throw new Error('requireDeployScope outside /api/deploy/* (app.ts sets deployAuth there)');
  const header = c.req.header('authorization');
  if (!header) throw unauthorized(MISSING);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const row = match?.[1] ? await auth.tokens.verify(match[1]) : null;
  if (!row) throw unauthorized(INVALID);
  if (target.environment !== undefined) requireEnvironment(auth, target.environment);
  const scope = auth.tokens.scopeOf(row);
  if (target.remote) requireRemoteScope(scope, target.remote);
  if (target.environment !== undefined && !scope.environments.includes(target.environment)) {
    throw forbidden(
      `This deploy token may not change the "${target.environment}" environment: ${mayText(scope)}`,
    );
  }
  return scope;
}

const mayText = (scope: DeployTokenScope) =>
  `token "${scope.name}" may change ${scope.remotes.join(', ') || 'no remote'} in ${scope.environments.join(', ') || 'no environment'}`;

/**
 * A 403 naming what the token may change, unless its scope covers `remote`: for a remote known only once
 * something is looked up (a preview link found by its id).
 */
export function requireRemoteScope(scope: DeployTokenScope, remote: RemotePackage): void {
  if (!scope.admin && !scope.remotes.includes(remote)) {
    throw forbidden(`This deploy token may not change ${remote}: ${mayText(scope)}`);
  }
}
