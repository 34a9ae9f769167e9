import fs from 'node:fs';
import path from 'node:path';
import { type DeploymentManifest, REMOTE_PACKAGES, type RemotePackage } from '@app/rollout';
import type { RolloutPaths } from '@app/rollout/node';
import { createContext } from './context';
import { readManifest, updateManifest } from './manifest-store';
import { release } from './release';

/** Remotes whose deployment names a version without its entry digest. */
function unpinnedRemotes(manifest: DeploymentManifest): RemotePackage[] {
  return REMOTE_PACKAGES.filter((remote) => {
    const deployment = manifest.remotes[remote];
    if (!deployment) return false;
    const named = [deployment.stable, deployment.canary?.version, ...(deployment.previous ?? [])];
    return named.some((version) => version && !deployment.integrity?.[version]);
  });
}

export interface BootstrapResult {
  remote: RemotePackage;
  /** The version of the remote's current build; null when it has no build. */
  version: string | null;
  /** The environment's stable version afterwards; null when it has none. */
  stable: string | null;
}

/**
 * For `pnpm start`: releases each remote's current build (no build, no compatibility gate: these are the
 * builds the local shell was built with; idempotent, so an unchanged build costs one hash) and gives every
 * remote without a stable version its current build as stable (audited 'bootstrap'). A remote that already
 * has a stable keeps it; the log says how to roll the new build out. Never throws for one remote's trouble:
 * the app should still start.
 *
 * With `followBuilds` (ROLLOUT_FOLLOW_BUILDS=1: the e2e suite, or a developer who wants `pnpm start` to show
 * what they just built), every remote's current build becomes its stable version at once, canary dropped,
 * audited like any other change.
 */
export async function bootstrapReleases(
  options: {
    paths?: RolloutPaths;
    log?: (line: string) => void;
    env?: Record<string, string | undefined>;
    followBuilds?: boolean;
  } = {},
): Promise<BootstrapResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const ctx = createContext({ paths: options.paths, env: options.env, log, actor: 'pnpm start' });
  const built = new Map<RemotePackage, string>();
  for (const remote of REMOTE_PACKAGES) {
    if (!fs.existsSync(path.join(ctx.paths.root, remote, 'dist', 'mf-manifest.json'))) continue;
    try {
      const { info, alreadyReleased } = await release({ remote, build: false, skipGate: true }, ctx);
      built.set(remote, info.version);
      if (!alreadyReleased) log(`${remote}: released ${info.version}`);
    } catch (error) {
      log(`${remote}: could not release the current build: ${(error as Error).message}`);
    }
  }

  let manifest: ReturnType<typeof readManifest>;
  try {
    manifest = readManifest(ctx.paths);
  } catch (error) {
    log(`the deployment manifest cannot be read: ${(error as Error).message}`);
    return REMOTE_PACKAGES.map((remote) => ({ remote, version: built.get(remote) ?? null, stable: null }));
  }
  const follow = options.followBuilds ?? false;
  const needsStable = (remote: RemotePackage, version: string, m: typeof manifest) =>
    !m.remotes[remote] || (follow && m.remotes[remote]?.stable !== version);
  const missing = [...built].filter(([remote, version]) => needsStable(remote, version, manifest));
  if (missing.length > 0) {
    try {
      manifest = updateManifest(
        ctx.paths,
        (draft) =>
          // Checked again under the lock: someone may have set a stable since the first read.
          missing
            .filter(([remote, version]) => needsStable(remote, version, draft))
            .map(([remote, version]) => {
              const before = draft.remotes[remote];
              const previous = before ? [before.stable, ...before.previous.filter((v) => v !== version)] : [];
              draft.remotes[remote] = { stable: version, previous: previous.slice(0, 20) };
              return {
                action: 'bootstrap' as const,
                remote,
                reason: before
                  ? 'ROLLOUT_FOLLOW_BUILDS: the build pnpm start found becomes stable'
                  : 'first stable: the build pnpm start found',
              };
            }),
        ctx,
      ).manifest;
    } catch (error) {
      log(`could not set the first stable versions: ${(error as Error).message}`);
    }
  }

  // A manifest written before entry digests were recorded (issue 11) names versions the shell would now
  // refuse to load: pin their recorded digests once, audited.
  if (unpinnedRemotes(manifest).length > 0) {
    try {
      manifest = updateManifest(
        ctx.paths,
        (draft) =>
          unpinnedRemotes(draft).map((remote) => ({
            action: 'bootstrap' as const,
            remote,
            reason: 'entry digests pinned: the manifest predates integrity pinning',
          })),
        ctx,
      ).manifest;
    } catch (error) {
      log(`could not pin the entry digests: ${(error as Error).message}`);
    }
  }

  return REMOTE_PACKAGES.map((remote) => {
    const version = built.get(remote) ?? null;
    const deployment = manifest.remotes[remote];
    if (version && deployment && deployment.stable !== version) {
      log(
        deployment.canary?.version === version
          ? `${remote}: your current build ${version} is the canary at ${deployment.canary.percent} %; live stable is ${deployment.stable}`
          : `${remote}: your current build ${version} is released; live stable is ${deployment.stable} (pnpm rollout start ${remote} ${version} --percent 10)`,
      );
    }
    return { remote, version, stable: deployment?.stable ?? null };
  });
}
