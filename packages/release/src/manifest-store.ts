import fs from 'node:fs';
import path from 'node:path';
import type { AuditEntry } from '@app/contracts';
import {
  type DeploymentManifest,
  emptyManifest,
  parseManifest,
  type RemoteDeployment,
  type RemotePackage,
} from '@app/rollout';
import { type RolloutPaths, readManifestFile, releasedEntryIntegrity } from '@app/rollout/node';
import { type AuditNote, appendAudit, auditEntry, describeDeployment } from './audit';
import { RolloutError } from './errors';
import { withLock } from './lock';

/**
 * The one way the deployment manifest changes. Under the environment's lock: read (or start empty), apply
 * the change to a copy, bump revision and updatedAt, validate, write a temp file, fsync, rename over the
 * manifest (readers see the old file or the new one, never half of one), then append the audit lines, whose
 * from/to are the changed remotes' states before and after. The change throws to refuse, or returns no
 * notes when there is nothing to do; either way nothing is written.
 */
export type ManifestChange = (manifest: DeploymentManifest, now: Date) => AuditNote | AuditNote[];

export interface ManifestUpdate {
  manifest: DeploymentManifest;
  entries: AuditEntry[];
}

function writeAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
  // The rename itself is durable only once the directory is synced.
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

/**
 * Every version the manifest names (stable, canary, previous) carries the entry digest recorded when it was
 * released; versions it no longer names are dropped. A version without a digest cannot be written: the
 * shell would refuse to load it.
 */
function pinIntegrity(manifest: DeploymentManifest, store: string): void {
  for (const [remote, deployment] of Object.entries(manifest.remotes) as [
    RemotePackage,
    RemoteDeployment,
  ][]) {
    const versions = [deployment.stable, deployment.canary?.version, ...(deployment.previous ?? [])].filter(
      (version): version is string => Boolean(version),
    );
    const integrity: Record<string, string> = {};
    for (const version of versions) {
      const digest = deployment.integrity?.[version] ?? releasedEntryIntegrity(store, remote, version);
      if (!digest) throw new RolloutError(`${remote} ${version}: no entry digest (is it released?)`);
      integrity[version] = digest;
    }
    deployment.integrity = integrity;
  }
}

export function readManifest(paths: RolloutPaths, now = new Date()): DeploymentManifest {
  return readManifestFile(paths.manifestFile) ?? emptyManifest(paths.environment, now);
}

export function updateManifest(
  paths: RolloutPaths,
  change: ManifestChange,
  { actor, now = () => new Date() }: { actor: string; now?: () => Date },
): ManifestUpdate {
  return withLock(paths.lockFile, paths.environment, () => {
    const at = now();
    const before = readManifest(paths, at);
    const draft = structuredClone(before);
    const notes = [change(draft, at)].flat();
    if (notes.length === 0) return { manifest: before, entries: [] };
    pinIntegrity(draft, paths.store);
    const manifest = parseManifest({ ...draft, revision: before.revision + 1, updatedAt: at.toISOString() });
    const state = (m: DeploymentManifest, remote: RemotePackage) => describeDeployment(m.remotes[remote]);
    const entries = notes.map((note) =>
      auditEntry(
        { ...note, from: state(before, note.remote), to: state(manifest, note.remote) },
        { environment: paths.environment, actor, at },
      ),
    );
    writeAtomically(paths.manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    appendAudit(paths.auditFile, entries);
    return { manifest, entries };
  });
}
