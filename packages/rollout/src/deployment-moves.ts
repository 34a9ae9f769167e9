import {
  type AuditNote,
  beginCanary,
  canaryOf,
  type DeployCommandContext,
  DeployRefused,
  deploymentOf,
  describeDeployment,
  type GateResult,
  gateNote,
  MAX_PREVIOUS,
  promoteDeployment,
  requireReleased,
} from './deployment-commands';
import type { DeploymentManifest, RemoteDeployment } from './manifest';
import type { RemotePackage } from './remotes';

/**
 * The rest of a deployment's changes: `pnpm rollout watch`'s moves, `pnpm start`'s first stable versions,
 * a version adopted from the environment before, and the entry digests every write pins.
 */
export type WatchStep =
  | { step: 'advance'; percent: number; reason: string }
  | { step: 'promote'; reason: string }
  | { step: 'rollback'; reason: string }
  | { step: 'stop'; reason: string };

/**
 * One move of the watch loop. Whether the canary is still the one the loop watched is the compare-and-swap's
 * business (If-Match); here the canary only has to exist. `stop` changes nothing and is audited only.
 */
export function watchStep(
  draft: DeploymentManifest,
  input: { remote: RemotePackage } & WatchStep,
  ctx: DeployCommandContext,
): AuditNote[] {
  const { remote, reason } = input;
  const deployment = deploymentOf(draft, remote, ctx.environment);
  const canary = canaryOf(deployment, remote, 'watch');
  switch (input.step) {
    case 'advance':
      if (input.percent <= canary.percent) {
        throw new DeployRefused(
          `${remote}'s canary is at ${canary.percent} % already; a watch step only moves it up (asked ${input.percent} %)`,
        );
      }
      canary.percent = input.percent;
      canary.stepStartedAt = ctx.now.toISOString();
      return [{ action: 'watch-advance', remote, reason }];
    case 'promote':
      promoteDeployment(deployment, remote);
      return [{ action: 'watch-promote', remote, reason }];
    case 'rollback':
      delete deployment.canary;
      return [{ action: 'watch-rollback', remote, reason }];
    case 'stop':
      return [{ action: 'watch-stop', remote, reason }];
  }
}

/**
 * `pnpm start`: a remote without a stable version gets this one (audited 'bootstrap'). With `replace`
 * (ROLLOUT_FOLLOW_BUILDS) the build becomes stable whatever was there, the old stable going to `previous`.
 * Nothing to do (already its stable, or a stable exists and no `replace`): no notes, nothing written.
 */
export function bootstrap(
  draft: DeploymentManifest,
  input: { remote: RemotePackage; version: string; replace?: boolean; force?: boolean; gate?: GateResult },
  ctx: DeployCommandContext,
): AuditNote[] {
  const { remote, version } = input;
  const before = draft.remotes[remote];
  if (before && (!input.replace || (before.stable === version && !before.canary))) return [];
  requireReleased(ctx, remote, version);
  const forced = gateNote(`${remote} ${version}`, input.gate, input.force, 'bootstrapped');
  const previous = before ? [before.stable, ...before.previous.filter((v) => v !== version)] : [];
  draft.remotes[remote] = {
    stable: version,
    previous: previous.filter((v) => v !== version).slice(0, MAX_PREVIOUS),
  };
  return [
    {
      action: 'bootstrap',
      remote,
      reason: `${
        before
          ? 'ROLLOUT_FOLLOW_BUILDS: the build pnpm start found becomes stable'
          : 'first stable: the build pnpm start found'
      }${forced.reason ? `; ${forced.reason}` : ''}`,
      ...(forced.forced ? { forced: true } : {}),
    },
  ];
}

/**
 * `pnpm rollout promote-to <env> <remote> <version>`: a version the source environment runs (its stable or
 * its canary) comes here as the same bytes: its integrity is the source's, never recomputed. With `percent`
 * it starts as a canary (audited 'start'); without, it becomes stable, the old stable going to `previous`
 * (audited 'promote'; a canary of that same version is promoted, any other canary refuses).
 */
export function adopt(
  draft: DeploymentManifest,
  input: {
    remote: RemotePackage;
    version: string;
    from: string;
    source: DeploymentManifest;
    percent?: number;
    force?: boolean;
    gate?: GateResult;
  },
  ctx: DeployCommandContext,
): AuditNote[] {
  const { remote, version, from, source, percent } = input;
  const there = source.remotes[remote];
  if (!there || (there.stable !== version && there.canary?.version !== version)) {
    throw new DeployRefused(
      `${remote} ${version} is not what "${from}" runs (${describeDeployment(there) ?? 'no deployment'}); only its stable or canary can be promoted to "${ctx.environment}"`,
    );
  }
  requireReleased(ctx, remote, version);
  const forced = gateNote(`${remote} ${version}`, input.gate, input.force, 'adopted');
  const reason = `adopted from "${from}"${forced.reason ? `; ${forced.reason}` : ''}`;
  const note = { remote, reason, ...(forced.forced ? { forced: true } : {}) };
  const digest = there.integrity?.[version];
  const pin = (deployment: RemoteDeployment) => {
    if (digest) deployment.integrity = { ...deployment.integrity, [version]: digest };
  };
  if (percent !== undefined) {
    const deployment = deploymentOf(draft, remote, ctx.environment);
    beginCanary(deployment, remote, version, percent, ctx.now);
    pin(deployment);
    return [{ action: 'start', ...note }];
  }
  const current = draft.remotes[remote];
  if (!current) {
    draft.remotes[remote] = { stable: version, previous: [] };
  } else if (current.canary?.version === version) {
    promoteDeployment(current, remote);
  } else {
    if (current.stable === version)
      throw new DeployRefused(`${remote} ${version} is already the stable version`);
    if (current.canary) {
      const { version: running, percent: at } = current.canary;
      throw new DeployRefused(
        `${remote} already has a canary (${running} at ${at} %); promote or abort it first (pnpm rollout abort ${remote})`,
      );
    }
    const previous = [current.stable, ...current.previous.filter((v) => v !== current.stable)];
    current.previous = previous.filter((v) => v !== version).slice(0, MAX_PREVIOUS);
    current.stable = version;
  }
  pin(draft.remotes[remote] as RemoteDeployment);
  return [{ action: 'promote', ...note }];
}

/**
 * Every version the manifest names (stable, canary, previous) carries the entry digest recorded when it was
 * released; versions it no longer names are dropped. A version without a digest cannot be written: the
 * shell would refuse to load it.
 */
export function pinIntegrity(
  draft: DeploymentManifest,
  ctx: Pick<DeployCommandContext, 'integrityOf'>,
): void {
  for (const [remote, deployment] of Object.entries(draft.remotes) as [RemotePackage, RemoteDeployment][]) {
    const versions = [deployment.stable, deployment.canary?.version, ...(deployment.previous ?? [])].filter(
      (version): version is string => Boolean(version),
    );
    const integrity: Record<string, string> = {};
    for (const version of versions) {
      const digest = deployment.integrity?.[version] ?? ctx.integrityOf(remote, version);
      if (!digest) throw new DeployRefused(`${remote} ${version}: no entry digest (is it released?)`);
      integrity[version] = digest;
    }
    deployment.integrity = integrity;
  }
}
