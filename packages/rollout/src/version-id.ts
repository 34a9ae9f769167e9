import * as v from 'valibot';

/**
 * A release's version id: the package version and the first 10 hex digits of the SHA-256 of the build's
 * files, e.g. `1.0.0-3fa2b1c9d0`. Derived from the content, so the same build is the same version and a
 * different build can never overwrite it. The pattern also keeps ids safe as path segments (no `/`, no `..`).
 */
export const VERSION_ID_PATTERN =
  /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?-[0-9a-f]{10}$/;

export const VersionIdSchema = v.pipe(
  v.string(),
  v.maxLength(80),
  v.regex(VERSION_ID_PATTERN, 'is not a release version id (like 1.0.0-3fa2b1c9d0)'),
);

export function versionId(packageVersion: string, contentHash: string): string {
  const id = `${packageVersion}-${contentHash.slice(0, 10)}`;
  if (!VERSION_ID_PATTERN.test(id)) throw new Error(`"${id}" is not a valid version id`);
  return id;
}

export function isVersionId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 80 && VERSION_ID_PATTERN.test(value);
}
