import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { RELEASE_INFO_FILE } from './release-content';
import { isRemotePackage, type RemotePackage } from './remotes';
import { releaseDir } from './store-files';
import { isVersionId } from './version-id';

/**
 * Where released files live (docs/decisions/0030-deploy-control-plane.md). Only the API writes (on an
 * upload); the edge and nginx read the folders. A release is immutable: a version appears complete (its
 * release.json written last, the folder renamed into place) or not at all, and is never rewritten.
 *
 * The info type is the caller's: @app/contracts' ReleaseInfo depends on this package, so the store takes a
 * parser and keeps only what it needs itself (a version and when it was made, to order the list).
 */
export interface StoredReleaseInfo {
  version: string;
  createdAt: string;
}

export type PublishOutcome = 'published' | 'exists';

export interface ReleaseStore<I extends StoredReleaseInfo = StoredReleaseInfo> {
  /** The release's release.json, or null when that version is not (completely) released. */
  info(remote: RemotePackage, version: string): Promise<I | null>;
  /** Every complete release of a remote, newest first (createdAt, then version). */
  list(remote: RemotePackage): Promise<I[]>;
  has(remote: RemotePackage, version: string): Promise<boolean>;
  /**
   * A new empty folder inside the store (same file system, so publish can rename it), for an upload to
   * fill. Whoever asks for one removes it with `discard` if it is not published.
   */
  prepare(remote: RemotePackage): Promise<string>;
  /**
   * Makes `preparedDir` (from `prepare`, every file but release.json) the release `version`: public modes,
   * release.json written last, renamed into place. 'exists' when the version was there already (the
   * prepared folder is then left for the caller to discard).
   */
  publish(remote: RemotePackage, version: string, preparedDir: string, info: I): Promise<PublishOutcome>;
  /** Removes a release; renamed aside first, so nobody ever sees a half-deleted version. */
  remove(remote: RemotePackage, version: string): Promise<void>;
  /** Removes a prepared folder that was not published (missing is fine). */
  discard(preparedDir: string): Promise<void>;
  /** The release's folder on this machine, for file servers (the edge); null for a store without folders. */
  folder(remote: RemotePackage, version: string): string | null;
}

/** Prefixes of the store's own working folders; never a version id (those start with a digit). */
const UPLOAD_PREFIX = '.upload-';
const DELETING_PREFIX = '.deleting-';

/**
 * A release is public, whoever uploaded it: folders 755 and files 644, whatever modes the bundle carried
 * (nginx's workers and the edge may run as another user than the API).
 */
async function publicModes(dir: string): Promise<void> {
  await fs.chmod(dir, 0o755);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await publicModes(full);
    else await fs.chmod(full, 0o644);
  }
}

function defaultParse(raw: unknown): StoredReleaseInfo | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { version, createdAt } = raw as Record<string, unknown>;
  return isVersionId(version) && typeof createdAt === 'string' ? (raw as StoredReleaseInfo) : null;
}

/**
 * The release store on a file system: `<root>/<remote>/<version>/`, the layout RELEASE_STORE_DIR always had
 * (the edge serves it under /releases/, nginx too). `parse` validates a release.json (null: not valid).
 */
export function fileReleaseStore<I extends StoredReleaseInfo = StoredReleaseInfo>(
  root: string,
  parse: (raw: unknown) => I | null = defaultParse as (raw: unknown) => I | null,
): ReleaseStore<I> {
  const remoteDir = (remote: RemotePackage) => {
    if (!isRemotePackage(remote)) throw new Error(`"${remote}" is not a remote`);
    return path.join(root, remote);
  };

  const info = async (remote: RemotePackage, version: string): Promise<I | null> => {
    if (!isVersionId(version)) return null;
    let text: string;
    try {
      text = await fs.readFile(path.join(releaseDir(root, remote, version), RELEASE_INFO_FILE), 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed = parse(JSON.parse(text));
      // A release.json that names another version is not this version's (a folder copied by hand).
      return parsed && parsed.version === version ? parsed : null;
    } catch {
      return null;
    }
  };

  return {
    info,
    async has(remote, version) {
      return (await info(remote, version)) !== null;
    },
    async list(remote) {
      let names: string[] = [];
      try {
        names = await fs.readdir(remoteDir(remote));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      const found = await Promise.all(names.filter(isVersionId).map((name) => info(remote, name)));
      return found
        .filter((release): release is Awaited<I> => release !== null)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.version.localeCompare(a.version));
    },
    async prepare(remote) {
      const dir = remoteDir(remote);
      await fs.mkdir(dir, { recursive: true, mode: 0o755 });
      const prepared = path.join(dir, `${UPLOAD_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
      await fs.mkdir(prepared, { mode: 0o700 });
      return prepared;
    },
    async publish(remote, version, preparedDir, release) {
      const target = releaseDir(root, remote, version);
      if (path.dirname(preparedDir) !== remoteDir(remote)) {
        throw new Error(`${preparedDir} was not prepared by this store for ${remote}`);
      }
      if (release.version !== version)
        throw new Error(`release.json names ${release.version}, not ${version}`);
      await publicModes(preparedDir);
      // Last, so a folder with a release.json is a folder with every file (isReleased's rule).
      await fs.writeFile(path.join(preparedDir, RELEASE_INFO_FILE), `${JSON.stringify(release, null, 2)}\n`, {
        mode: 0o644,
      });
      await fs.chmod(path.join(preparedDir, RELEASE_INFO_FILE), 0o644);
      try {
        // rename() onto an existing non-empty folder fails (ENOTEMPTY/EEXIST): a version is never replaced.
        await fs.rename(preparedDir, target);
        return 'published';
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST') return 'exists';
        throw error;
      }
    },
    async remove(remote, version) {
      const dir = releaseDir(root, remote, version);
      const aside = path.join(remoteDir(remote), `${DELETING_PREFIX}${randomBytes(6).toString('hex')}`);
      try {
        await fs.rename(dir, aside);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      await fs.rm(aside, { recursive: true, force: true });
    },
    async discard(preparedDir) {
      const parent = path.dirname(path.dirname(preparedDir));
      // Only the store's own working folders: a bug upstream must never make this delete a release.
      if (
        path.resolve(parent) !== path.resolve(root) ||
        !path.basename(preparedDir).startsWith(UPLOAD_PREFIX)
      ) {
        throw new Error(`${preparedDir} is not a prepared folder of this store`);
      }
      await fs.rm(preparedDir, { recursive: true, force: true });
    },
    folder(remote, version) {
      return releaseDir(root, remote, version);
    },
  };
}
