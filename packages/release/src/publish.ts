import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { containerOf, type RemotePackage, versionId } from '@app/rollout';
import { entryIntegrityOfDir, isReleased, releaseDir } from '@app/rollout/node';
import { hashFiles, listFiles, readMfManifest } from './dist';
import { RolloutError } from './errors';
import { RELEASE_INFO_FILE, type ReleaseInfo, readReleaseInfo } from './release-info';

export interface PublishInput {
  store: string;
  remote: RemotePackage;
  distDir: string;
  /** Used when the build's manifest carries no buildVersion. */
  fallbackVersion: string;
  /** Asked only when something new is written (git status costs time on every `pnpm start`). */
  git: () => { commit: string | null; dirty: boolean | null };
  now: Date;
}

export interface PublishResult {
  info: ReleaseInfo;
  alreadyReleased: boolean;
}

/** The id a dist folder's content would get. */
function versionOf(dir: string, fallbackVersion: string, remote: RemotePackage) {
  const files = listFiles(dir);
  if (files.includes(RELEASE_INFO_FILE)) {
    throw new RolloutError(
      `${dir} contains a ${RELEASE_INFO_FILE}; that name is reserved for the release store`,
    );
  }
  const manifest = readMfManifest(path.join(dir, 'mf-manifest.json'));
  if (manifest.name !== containerOf(remote)) {
    throw new RolloutError(
      `${dir} is a build of ${manifest.name}, not of ${remote} (${containerOf(remote)})`,
    );
  }
  const { hash, bytes } = hashFiles(dir, files);
  const packageVersion = manifest.buildVersion ?? fallbackVersion;
  return { version: versionId(packageVersion, hash), packageVersion, manifest, files: files.length, bytes };
}

/**
 * Publishes a build as an immutable version: copy the dist into a temp folder beside the versions, hash the
 * copy again (so the id describes exactly what is stored, even if a build rewrote the dist meanwhile), write
 * release.json, and rename the folder into place. A version folder appears complete or not at all, and an
 * existing version is never touched: the same content has the same id.
 */
/**
 * A release is public, whoever built it: folders 755 and files 644, whatever modes the dist had (a
 * `mktemp -d` folder is 700, which a web server's workers, nginx's `nobody`, could not read).
 */
function publicModes(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) publicModes(full);
    else fs.chmodSync(full, 0o644);
  }
}

export function publishRelease(input: PublishInput): PublishResult {
  const { store, remote, distDir } = input;
  // Already released (every `pnpm start` with an unchanged build): answer without copying anything.
  const inPlace = versionOf(distDir, input.fallbackVersion, remote);
  const known = readReleaseInfo(store, remote, inPlace.version);
  if (known) return { info: known, alreadyReleased: true };

  const remoteDir = path.join(store, remote);
  fs.mkdirSync(remoteDir, { recursive: true });
  const tmp = path.join(remoteDir, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.cpSync(distDir, tmp, { recursive: true, dereference: true });
    publicModes(tmp);
    const copy = versionOf(tmp, input.fallbackVersion, remote);
    const { version } = copy;
    const existing = readReleaseInfo(store, remote, version);
    if (existing) return { info: existing, alreadyReleased: true };
    const target = releaseDir(store, remote, version);
    if (fs.existsSync(target)) {
      throw new RolloutError(
        `${target} exists without a valid ${RELEASE_INFO_FILE}; remove that folder and release again`,
      );
    }
    const git = input.git();
    const info: ReleaseInfo = {
      remote,
      version,
      packageVersion: copy.packageVersion,
      createdAt: input.now.toISOString(),
      commit: git.commit,
      dirty: git.dirty,
      exposes: copy.manifest.exposes,
      shared: copy.manifest.shared,
      files: copy.files,
      bytes: copy.bytes,
      // Of the copy being stored, not of the dist: the digest describes exactly the bytes that are served.
      entryIntegrity: entryIntegrityOfDir(tmp),
    };
    fs.writeFileSync(path.join(tmp, RELEASE_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
    try {
      fs.renameSync(tmp, target);
    } catch (error) {
      // Another process released the same content a moment ago: theirs stands, and it is the same build.
      const existingNow = isReleased(store, remote, version) ? readReleaseInfo(store, remote, version) : null;
      if (existingNow) return { info: existingNow, alreadyReleased: true };
      throw error;
    }
    return { info, alreadyReleased: false };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
