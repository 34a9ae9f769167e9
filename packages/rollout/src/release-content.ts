import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import * as v from 'valibot';
import { ENTRY_FILE } from './integrity';
import { entryIntegrityOfDir } from './integrity-node';
import { containerOf, type RemotePackage } from './remotes';
import { versionId } from './version-id';

/**
 * What a release's files are, wherever they sit: a build's dist (the CLI), an uploaded bundle being checked
 * (the API) or a stored release folder (adopting releases made before the API kept them). One copy of the
 * hashing, so a version id computed anywhere is the id computed everywhere (it moved here from
 * tooling/release/src/dist.ts unchanged: existing ids stay valid).
 */
export const RELEASE_INFO_FILE = 'release.json';
export const MF_MANIFEST_FILE = 'mf-manifest.json';

/** A release's content is not what it should be; the message says why, for a person to read. */
export class ReleaseContentError extends Error {
  override readonly name = 'ReleaseContentError';
}

const SharedSchema = v.object({
  name: v.string(),
  version: v.optional(v.string()),
  requiredVersion: v.optional(v.union([v.string(), v.literal(false)])),
});

/** What a release needs from a build's `mf-manifest.json` (Module Federation writes much more). */
const MfManifestSchema = v.object({
  name: v.string(),
  metaData: v.optional(
    v.object({ buildInfo: v.optional(v.object({ buildVersion: v.optional(v.string()) })) }),
  ),
  shared: v.optional(v.array(SharedSchema), []),
  exposes: v.optional(v.array(v.object({ name: v.string(), path: v.string() })), []),
});

export interface MfManifestInfo {
  /** The container name (`mf_research`). */
  name: string;
  buildVersion: string | null;
  shared: v.InferOutput<typeof SharedSchema>[];
  exposes: { name: string; path: string }[];
}

export function readMfManifest(file: string): MfManifestInfo {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReleaseContentError(code === 'ENOENT' ? `${file} does not exist` : `${file} is not valid JSON`);
  }
  const parsed = v.safeParse(MfManifestSchema, raw);
  if (!parsed.success) throw new ReleaseContentError(`${file} is not a Module Federation manifest`);
  const { name, metaData, shared, exposes } = parsed.output;
  return {
    name,
    buildVersion: metaData?.buildInfo?.buildVersion ?? null,
    shared: shared.map(({ name, version, requiredVersion }) => ({ name, version, requiredVersion })),
    exposes: exposes.map(({ name, path }) => ({ name, path })),
  };
}

/** Relative paths (with `/`) of every file under `dir`, sorted, so the order never depends on the disk. */
export function listFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/**
 * SHA-256 over each file's relative path, size and bytes, in sorted order: the same build gives the same
 * hash wherever it is, and renaming or moving a file changes it.
 */
export function hashFiles(dir: string, files: string[]): { hash: string; bytes: number } {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const rel of files) {
    const content = fs.readFileSync(path.join(dir, rel));
    bytes += content.length;
    hash.update(`${rel}\0${content.length}\0`);
    hash.update(content);
  }
  return { hash: hash.digest('hex'), bytes };
}

export interface ReleaseVersion {
  version: string;
  packageVersion: string;
  /** The full SHA-256 hex of the files (the id carries its first 10 characters). */
  contentHash: string;
  manifest: MfManifestInfo;
  /** How many files and bytes the release has, release.json left out. */
  files: number;
  bytes: number;
  /** SHA-384 of remoteEntry.js (sha384-<base64>): what the shell will require of it. */
  entryIntegrity: string;
}

/**
 * The version id a folder's content gets: every file but release.json (which describes the content, so it
 * cannot be part of it; a stored release folder hashes to its own id). The folder must be a build of
 * `remote` (its mf-manifest.json names the remote's container) with a remoteEntry.js. Whether a dist may
 * contain a release.json at all is the caller's business (the CLI refuses one).
 */
export function releaseVersionOf(
  dir: string,
  fallbackPackageVersion: string,
  remote: RemotePackage,
): ReleaseVersion {
  const files = listFiles(dir).filter((rel) => rel !== RELEASE_INFO_FILE);
  const manifest = readMfManifest(path.join(dir, MF_MANIFEST_FILE));
  if (manifest.name !== containerOf(remote)) {
    throw new ReleaseContentError(
      `${dir} is a build of ${manifest.name}, not of ${remote} (${containerOf(remote)})`,
    );
  }
  if (!files.includes(ENTRY_FILE)) throw new ReleaseContentError(`${dir} has no ${ENTRY_FILE}`);
  const { hash, bytes } = hashFiles(dir, files);
  const packageVersion = manifest.buildVersion ?? fallbackPackageVersion;
  let version: string;
  try {
    version = versionId(packageVersion, hash);
  } catch {
    throw new ReleaseContentError(
      `${dir}: "${packageVersion}" is not a package version a release id can carry (like 1.0.0)`,
    );
  }
  return {
    version,
    packageVersion,
    contentHash: hash,
    manifest,
    files: files.length,
    bytes,
    entryIntegrity: entryIntegrityOfDir(dir),
  };
}

/**
 * What release.json says about a content (@app/contracts ReleaseInfo): the one place its fields are taken from
 * the bytes, for the CLI that writes it, the API that recomputes it and the tests that forge it.
 */
export function describeRelease(
  remote: RemotePackage,
  content: ReleaseVersion,
  origin: { createdAt: string; commit: string | null; dirty: boolean | null },
) {
  return {
    remote,
    version: content.version,
    packageVersion: content.packageVersion,
    ...origin,
    exposes: content.manifest.exposes,
    shared: content.manifest.shared,
    files: content.files,
    bytes: content.bytes,
    entryIntegrity: content.entryIntegrity,
    contentHash: content.contentHash,
  };
}

/**
 * A release bundle as the deploy API takes it: an uncompressed tar of `dir`'s files (sorted, plain files
 * only, mode 644) plus `extra` files (release.json) at the root. Pipe it through zlib.createGzip() to send
 * it compressed. Files are read one at a time, so a large dist never sits in memory whole.
 */
export function packReleaseBundle(dir: string, extra: { name: string; content: string | Buffer }[] = []) {
  const pack = tar.pack();
  const add = (name: string, content: Buffer) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name, size: content.length, mode: 0o644, mtime: new Date(0) }, content, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  (async () => {
    const extraNames = new Set(extra.map((file) => file.name));
    for (const rel of listFiles(dir)) {
      if (!extraNames.has(rel)) await add(rel, fs.readFileSync(path.join(dir, rel)));
    }
    for (const file of extra) await add(file.name, Buffer.from(file.content));
    pack.finalize();
  })().catch((error: Error) => pack.destroy(error));
  // streamx's Readable, seen as node's (what fetch, pipeline and zlib expect).
  return Readable.from(pack as AsyncIterable<Buffer>);
}
