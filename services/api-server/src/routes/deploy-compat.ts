import { ShellCheckRequestSchema } from '@app/contracts/compatibility';
import { DEPLOY_PATHS } from '@app/contracts/deploy';
import { REMOTE_PACKAGES } from '@app/rollout';
import { buildSideOf } from '@app/rollout/node';
import type { Hono } from 'hono';
import type { AppContext } from '../context';
import { forbidden, HttpError, parseWith } from '../errors';
import { NEW_SHELL } from '../services/deploy-compat';
import { requireDeployScope } from './deploy-auth';
import { body, type Env } from './http-helpers';

/** Two build files as JSON: a shell's mf-compat.json lists every export it provides, so it may be large. */
const SHELL_CHECK_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The compatibility gate's own routes (issue 45): the table of what is live in an environment, and a shell
 * build checked against every environment before it ships. The gate on releases, commands and preview
 * links runs inside those routes.
 */
export function registerDeployCompatRoutes(app: Hono<Env>, ctx: AppContext) {
  const { config, compatibility } = ctx;

  app.get(DEPLOY_PATHS.compatibility(':env'), async (c) => {
    const environment = c.req.param('env') ?? '';
    await requireDeployScope(c, { environment });
    return c.json(await compatibility.table(environment));
  });

  app.post(DEPLOY_PATHS.shellCheck, async (c) => {
    const scope = await requireDeployScope(c);
    // The shell is every remote's provider in every environment: only a token that may change all of
    // them may vouch for it, or force it past their conflicts.
    const everyRemote = scope.admin || REMOTE_PACKAGES.every((remote) => scope.remotes.includes(remote));
    const everyEnvironment = config.deploy.environments.every((env) => scope.environments.includes(env));
    if (!everyRemote || !everyEnvironment) {
      throw forbidden(
        `A shell build concerns every remote in every environment; deploy token "${scope.name}" may change only ${scope.remotes.join(', ') || 'no remote'} in ${scope.environments.join(', ') || 'no environment'} (use an admin token, e.g. the local deploy token)`,
      );
    }
    const input = parseWith(ShellCheckRequestSchema, (await body(c, SHELL_CHECK_BODY_LIMIT)) ?? {});
    let shell: ReturnType<typeof buildSideOf>;
    try {
      shell = buildSideOf(input.manifest, input.contract, NEW_SHELL);
    } catch (error) {
      throw new HttpError(400, `Not a shell build: ${(error as Error).message}`);
    }
    const force = ['1', 'true'].includes(c.req.query('force') ?? '');
    return c.json(await compatibility.checkShell(shell, { force, actor: scope.name }));
  });
}
