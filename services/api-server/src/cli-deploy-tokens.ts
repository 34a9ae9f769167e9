import os from 'node:os';
import type { AppContext } from './context';
import { DeployTokenError } from './services/deploy-tokens';

export const DEPLOY_TOKEN_USAGE = `  deploy-token create --name N (--remote R[,R] --env E[,E] | --admin [--env E[,E]])
                                                           a deploy token for a pipeline: printed once
  deploy-token list                                        deploy tokens (names, scope, last use; no secrets)
  deploy-token revoke --name N                             revoke a deploy token (refused from its next call on)`;

export interface DeployTokenOptions {
  name?: string;
  remote?: string;
  env?: string;
  admin?: boolean;
}

const listOf = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * `pnpm admin deploy-token …` (docs/decisions/0030-deploy-control-plane.md). Straight on the database, like
 * every admin command: whoever can run this can read the database anyway. Returns the exit code.
 */
export async function runDeployTokenCommand(
  ctx: AppContext,
  sub: string | undefined,
  opts: DeployTokenOptions,
): Promise<number> {
  const tokens = ctx.deployTokens;
  try {
    switch (sub) {
      case 'create': {
        if (!opts.name) throw new DeployTokenError('deploy-token create needs --name <name>');
        const remotes = listOf(opts.remote);
        if (opts.admin && remotes.length > 0) {
          throw new DeployTokenError('An --admin token may change every remote: leave --remote out');
        }
        if (!opts.admin && (remotes.length === 0 || !opts.env)) {
          throw new DeployTokenError(
            'Name the remotes and environments (--remote R --env E), or give --admin',
          );
        }
        const { token, row } = await tokens.create({
          name: opts.name,
          admin: Boolean(opts.admin),
          remotes,
          environments: listOf(opts.env),
          createdBy: safeUser(),
        });
        const scope = tokens.scopeOf(row);
        console.log(
          `Created deploy token "${row.name}": ${scope.admin ? 'admin, every remote' : scope.remotes.join(', ')} in ${scope.environments.join(', ')}`,
        );
        console.log(token);
        console.log('Keep it now (e.g. as the pipeline secret DEPLOY_TOKEN): it will not be shown again.');
        return 0;
      }
      case 'list': {
        const rows = await tokens.list();
        if (rows.length === 0) {
          console.log('(no deploy tokens)');
          return 0;
        }
        for (const row of rows) {
          const scope = tokens.scopeOf(row);
          const what = scope.admin ? 'admin' : scope.remotes.join(',');
          const state = row.revokedAt ? `REVOKED ${row.revokedAt}` : `last used ${row.lastUsedAt ?? 'never'}`;
          console.log(
            `${row.name.padEnd(24)} ${what.padEnd(36)} ${scope.environments.join(',').padEnd(24)} ${state}  (created ${row.createdAt} by ${row.createdBy})`,
          );
        }
        return 0;
      }
      case 'revoke': {
        if (!opts.name) throw new DeployTokenError('deploy-token revoke needs --name <name>');
        const found = await tokens.find(opts.name);
        if (!found) throw new DeployTokenError(`There is no deploy token named "${opts.name}"`);
        if (!(await tokens.revoke(opts.name))) {
          console.log(`Deploy token "${opts.name}" was revoked already (${found.revokedAt})`);
          return 0;
        }
        console.log(`Revoked deploy token "${opts.name}": it is refused from its next call on`);
        return 0;
      }
      default:
        console.error(`deploy-token needs create, list or revoke\n\n${DEPLOY_TOKEN_USAGE}`);
        return 1;
    }
  } catch (error) {
    if (!(error instanceof DeployTokenError)) throw error;
    console.error(`Error: ${error.message}`);
    return 1;
  }
}

function safeUser(): string {
  try {
    return `pnpm admin (${os.userInfo().username})`;
  } catch {
    return 'pnpm admin';
  }
}
