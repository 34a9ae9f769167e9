import type { DeployChangeResult, DeployVerb } from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import type { RolloutContext } from './context';
import type { VerbBody } from './deploy-client';

/**
 * The manual rollout commands, as calls of the deploy API. Each reads the environment's revision and sends
 * the change with If-Match, so a change made by someone else in between is refused (412) rather than
 * overwritten; what a command may do when (no canary to promote, version not released, …) is the server's
 * rule (@app/rollout deployment-commands) and its refusal text is printed as it is.
 */
export async function change<V extends DeployVerb>(
  ctx: RolloutContext,
  remote: RemotePackage,
  verb: V,
  body: VerbBody<V>,
  environment = ctx.environment,
): Promise<DeployChangeResult> {
  const { revision } = await ctx.client.state(environment);
  return ctx.client.command(remote, verb, body, revision, environment);
}

export const startCanary = (
  ctx: RolloutContext,
  input: { remote: RemotePackage; version: string; percent: number; force?: boolean },
) =>
  change(ctx, input.remote, 'start', {
    version: input.version,
    percent: input.percent,
    ...(input.force ? { force: true } : {}),
  });

export const setPercent = (ctx: RolloutContext, input: { remote: RemotePackage; percent: number }) =>
  change(ctx, input.remote, 'set', { percent: input.percent });

export const promote = (ctx: RolloutContext, input: { remote: RemotePackage }) =>
  change(ctx, input.remote, 'promote', {});

export const abort = (ctx: RolloutContext, input: { remote: RemotePackage }) =>
  change(ctx, input.remote, 'abort', {});

/** Without `to`: back to the previous stable; with it, any released version (also a first stable). */
export const rollback = (ctx: RolloutContext, input: { remote: RemotePackage; to?: string }) =>
  change(ctx, input.remote, 'rollback', input.to ? { to: input.to } : {});

/** A remote without a stable version gets this one (with `replace`, whatever it had). */
export const bootstrap = (
  ctx: RolloutContext,
  input: { remote: RemotePackage; version: string; replace?: boolean },
) =>
  change(ctx, input.remote, 'bootstrap', {
    version: input.version,
    ...(input.replace ? { replace: true } : {}),
  });

/**
 * `promote-to <env> <remote> <version>`: the version another environment runs (`from`, default the one
 * before `env` in DEPLOY_ENVIRONMENTS) comes to `env` as the same bytes, a canary at `percent` or stable.
 */
export const promoteTo = (
  ctx: RolloutContext,
  input: {
    environment: string;
    remote: RemotePackage;
    version: string;
    percent?: number;
    from?: string;
    force?: boolean;
  },
) =>
  change(
    ctx,
    input.remote,
    'adopt',
    {
      version: input.version,
      ...(input.from ? { from: input.from } : {}),
      ...(input.percent === undefined ? {} : { percent: input.percent }),
      ...(input.force ? { force: true } : {}),
    },
    input.environment,
  );

/** How the CLI shows a change: one line per audit entry, then the new revision. */
export function formatChange({ environment, revision, entries }: DeployChangeResult): string {
  return [
    // A bootstrap of what is already there changes nothing (a pipeline run again): say so.
    ...(entries.length === 0 ? ['nothing to change'] : []),
    ...entries.map((e) => `${e.remote}: ${e.from ?? '(nothing)'} → ${e.to ?? '(nothing)'}`),
    `deployment "${environment}" is at revision ${revision}`,
  ].join('\n');
}
