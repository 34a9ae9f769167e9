import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RemotePackage } from '@app/rollout';
import { readManifestFile, releaseDir } from '@app/rollout/node';
import { listReleases } from './release-info';

export const DEFAULT_KEEP = 10;

/**
 * Versions any deployment manifest in the deploy folder names (stable, canary, previous), in every
 * environment. Null when a manifest cannot be read: then nothing is known to be safe to delete.
 */
export function referencedVersions(deployDir: string, remote: RemotePackage): Set<string> | null {
  const used = new Set<string>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(deployDir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  for (const name of names) {
    try {
      const deployment = readManifestFile(path.join(deployDir, name))?.remotes[remote];
      if (!deployment) continue;
      used.add(deployment.stable);
      if (deployment.canary) used.add(deployment.canary.version);
      for (const version of deployment.previous) used.add(version);
    } catch {
      return null;
    }
  }
  return used;
}

export interface PruneResult {
  removed: string[];
  /** Why nothing was pruned, when that was a precaution. */
  skipped?: string;
}

/**
 * Keeps the newest `keep` releases of a remote plus every version a manifest references (a rollback must
 * always find its target) and `protect` (the version just released); removes the rest. A version is renamed
 * aside before it is deleted, so the store never shows a half-deleted version.
 */
export function pruneReleases(input: {
  store: string;
  deployDir: string;
  remote: RemotePackage;
  keep: number;
  protect?: string[];
}): PruneResult {
  const releases = listReleases(input.store, input.remote);
  if (releases.length <= input.keep) return { removed: [] };
  const referenced = referencedVersions(input.deployDir, input.remote);
  if (!referenced) {
    return {
      removed: [],
      skipped: `a manifest in ${input.deployDir} could not be read, so no release was removed`,
    };
  }
  const removed: string[] = [];
  for (const release of releases.slice(input.keep)) {
    if (referenced.has(release.version) || input.protect?.includes(release.version)) continue;
    const dir = releaseDir(input.store, input.remote, release.version);
    const aside = path.join(input.store, input.remote, `.deleting-${randomBytes(4).toString('hex')}`);
    fs.renameSync(dir, aside);
    fs.rmSync(aside, { recursive: true, force: true });
    removed.push(release.version);
  }
  return { removed };
}
