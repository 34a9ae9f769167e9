import fs from 'node:fs';
import path from 'node:path';
import { IntegritySchema, REMOTE_PACKAGES, type RemotePackage, VersionIdSchema } from '@app/rollout';
import { isReleased, releaseDir } from '@app/rollout/node';
import * as v from 'valibot';
import { RolloutError } from './errors';

/**
 * `release.json`, written into a version's folder before it is renamed into the store: what was released,
 * from which commit, and what it needs from the shell (its `shared` list, for the compatibility gate when it
 * is rolled out later, against whatever shell is live then).
 */
export const SharedInfoSchema = v.object({
  name: v.string(),
  version: v.optional(v.string()),
  requiredVersion: v.optional(v.union([v.string(), v.literal(false)])),
});
export type SharedInfo = v.InferOutput<typeof SharedInfoSchema>;

export const ReleaseInfoSchema = v.object({
  remote: v.picklist(REMOTE_PACKAGES),
  version: VersionIdSchema,
  packageVersion: v.string(),
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  /** `git rev-parse HEAD` of the checkout that released it, and whether that tree had uncommitted changes. */
  commit: v.nullable(v.string()),
  dirty: v.nullable(v.boolean()),
  exposes: v.array(v.object({ name: v.string(), path: v.string() })),
  shared: v.array(SharedInfoSchema),
  files: v.number(),
  bytes: v.number(),
  /** SHA-384 of remoteEntry.js as published (sha384-<base64>): what the shell will require of it. */
  entryIntegrity: v.optional(IntegritySchema),
});
export type ReleaseInfo = v.InferOutput<typeof ReleaseInfoSchema>;

export const RELEASE_INFO_FILE = 'release.json';

export function readReleaseInfo(store: string, remote: RemotePackage, version: string): ReleaseInfo | null {
  if (!isReleased(store, remote, version)) return null;
  try {
    const raw = JSON.parse(
      fs.readFileSync(path.join(releaseDir(store, remote, version), RELEASE_INFO_FILE), 'utf8'),
    );
    const parsed = v.safeParse(ReleaseInfoSchema, raw);
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Every complete release of a remote, newest first (by createdAt). */
export function listReleases(store: string, remote: RemotePackage): ReleaseInfo[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(path.join(store, remote));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return names
    .map((name) => readReleaseInfo(store, remote, name))
    .filter((info): info is ReleaseInfo => info !== null)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.version.localeCompare(a.version));
}

/** The release, or an error that says what is released instead. */
export function requireRelease(store: string, remote: RemotePackage, version: string): ReleaseInfo {
  const info = readReleaseInfo(store, remote, version);
  if (info) return info;
  const known = listReleases(store, remote).map((r) => r.version);
  if (known.length === 0) {
    throw new RolloutError(
      `${remote} ${version} is not released; ${remote} has no releases yet (pnpm release ${remote})`,
    );
  }
  const shown = known.slice(0, 5).join(', ') + (known.length > 5 ? `, … (${known.length} in all)` : '');
  throw new RolloutError(`${remote} ${version} is not released; released versions, newest first: ${shown}`);
}
