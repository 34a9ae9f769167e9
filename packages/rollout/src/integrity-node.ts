import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ENTRY_FILE } from './integrity';
import type { RemotePackage } from './remotes';
import { releaseDir } from './store-files';

/** The `integrity` value of a file's bytes: sha384-<base64>, as browsers check it. */
export function sha384Integrity(bytes: Buffer | string): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

export function entryIntegrityOfDir(dir: string): string {
  return sha384Integrity(fs.readFileSync(path.join(dir, ENTRY_FILE)));
}

/**
 * The digest recorded in a release's release.json when it was published. A release made before digests
 * were recorded gets its stored entry's digest (the store is write-once); null when it is not released.
 */
export function releasedEntryIntegrity(store: string, remote: RemotePackage, version: string): string | null {
  const dir = releaseDir(store, remote, version);
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dir, 'release.json'), 'utf8')) as {
      entryIntegrity?: unknown;
    };
    if (typeof info.entryIntegrity === 'string') return info.entryIntegrity;
    return entryIntegrityOfDir(dir);
  } catch {
    return null;
  }
}
