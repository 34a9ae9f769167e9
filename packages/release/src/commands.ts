import type { DeploymentManifest, RemoteDeployment, RemotePackage } from '@app/rollout';
import { compatibilityGate, conflictsMessage } from './compat-gate';
import type { RolloutContext } from './context';
import { RolloutError } from './errors';
import { type ManifestUpdate, updateManifest } from './manifest-store';
import { requireRelease } from './release-info';

/**
 * The manual rollout commands. Each checks what it can before taking the lock (released? compatible?) and
 * checks the deployment's state inside the change, against the manifest as it is under the lock.
 */
export const MAX_PREVIOUS = 20;

function deploymentOf(
  manifest: DeploymentManifest,
  remote: RemotePackage,
  environment: string,
): RemoteDeployment {
  const deployment = manifest.remotes[remote];
  if (!deployment) {
    throw new RolloutError(
      `${remote} has no deployment in "${environment}" yet (pnpm start sets one, or pnpm rollout rollback ${remote} --to <version>)`,
    );
  }
  return deployment;
}

function canaryOf(deployment: RemoteDeployment, remote: RemotePackage, command: string) {
  if (!deployment.canary) {
    throw new RolloutError(
      `${remote} has no canary to ${command}; start one with pnpm rollout start ${remote} <version> --percent N`,
    );
  }
  return deployment.canary;
}

export function startCanary(
  ctx: RolloutContext,
  input: { remote: RemotePackage; version: string; percent: number; force?: boolean },
): ManifestUpdate {
  const { remote, version, percent } = input;
  const info = requireRelease(ctx.paths.store, remote, version);
  const gate = compatibilityGate(info.shared, ctx.paths, ctx.env);
  if (gate.conflicts.length > 0 && !input.force)
    throw new RolloutError(conflictsMessage(`${remote} ${version}`, gate));
  return updateManifest(
    ctx.paths,
    (manifest, now) => {
      const deployment = deploymentOf(manifest, remote, ctx.paths.environment);
      if (deployment.stable === version)
        throw new RolloutError(`${remote} ${version} is already the stable version`);
      if (deployment.canary) {
        const { version: running, percent: at } = deployment.canary;
        throw new RolloutError(
          `${remote} already has a canary (${running} at ${at} %); promote or abort it first (pnpm rollout abort ${remote})`,
        );
      }
      const at = now.toISOString();
      deployment.canary = { version, percent, startedAt: at, stepStartedAt: at };
      return gate.conflicts.length > 0
        ? {
            action: 'start',
            remote,
            forced: true,
            reason: `started despite compatibility conflicts: ${gate.conflicts.join('; ')}`,
          }
        : { action: 'start', remote };
    },
    ctx,
  );
}

export function setPercent(
  ctx: RolloutContext,
  input: { remote: RemotePackage; percent: number },
): ManifestUpdate {
  return updateManifest(
    ctx.paths,
    (manifest, now) => {
      const canary = canaryOf(
        deploymentOf(manifest, input.remote, ctx.paths.environment),
        input.remote,
        'set',
      );
      canary.percent = input.percent;
      // A new share of visitors is a new sample: the health gate's window starts again.
      canary.stepStartedAt = now.toISOString();
      return { action: 'set', remote: input.remote };
    },
    ctx,
  );
}

/** The canary becomes stable; the old stable goes to the front of `previous` (rollback's first target). */
export function promoteDeployment(deployment: RemoteDeployment, remote: RemotePackage): void {
  const canary = canaryOf(deployment, remote, 'promote');
  const previous = [deployment.stable, ...deployment.previous.filter((v) => v !== deployment.stable)];
  deployment.previous = previous.filter((v) => v !== canary.version).slice(0, MAX_PREVIOUS);
  deployment.stable = canary.version;
  delete deployment.canary;
}

export function promote(ctx: RolloutContext, input: { remote: RemotePackage }): ManifestUpdate {
  return updateManifest(
    ctx.paths,
    (manifest) => {
      promoteDeployment(deploymentOf(manifest, input.remote, ctx.paths.environment), input.remote);
      return { action: 'promote', remote: input.remote };
    },
    ctx,
  );
}

export function abort(ctx: RolloutContext, input: { remote: RemotePackage }): ManifestUpdate {
  return updateManifest(
    ctx.paths,
    (manifest) => {
      const deployment = deploymentOf(manifest, input.remote, ctx.paths.environment);
      canaryOf(deployment, input.remote, 'abort');
      delete deployment.canary;
      return { action: 'abort', remote: input.remote };
    },
    ctx,
  );
}

/**
 * Without `to`: back to previous[0], which leaves `previous` (the version rolled back from is not kept as a
 * target: it is the one that went wrong). With `to`: any released version, also the first stable of a remote
 * that has none. Either way any canary is dropped.
 */
export function rollback(ctx: RolloutContext, input: { remote: RemotePackage; to?: string }): ManifestUpdate {
  const { remote, to } = input;
  if (to) requireRelease(ctx.paths.store, remote, to);
  return updateManifest(
    ctx.paths,
    (manifest) => {
      const current = manifest.remotes[remote];
      if (to) {
        if (current?.stable === to && !current.canary)
          throw new RolloutError(`${remote} ${to} is already the stable version`);
        manifest.remotes[remote] = {
          stable: to,
          previous: (current?.previous ?? []).filter((v) => v !== to),
        };
        return { action: 'rollback', remote };
      }
      const deployment = deploymentOf(manifest, remote, ctx.paths.environment);
      const [target, ...rest] = deployment.previous;
      if (!target) {
        throw new RolloutError(
          `${remote} has no previous stable version to roll back to; name one with --to <version>`,
        );
      }
      requireRelease(ctx.paths.store, remote, target);
      manifest.remotes[remote] = { stable: target, previous: rest };
      return { action: 'rollback', remote };
    },
    ctx,
  );
}
