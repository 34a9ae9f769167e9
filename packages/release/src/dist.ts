import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { RolloutError } from './errors';
import { SharedInfoSchema } from './release-info';

/** What the release needs from a build's `mf-manifest.json` (Module Federation writes much more). */
const MfManifestSchema = v.object({
  name: v.string(),
  metaData: v.optional(
    v.object({ buildInfo: v.optional(v.object({ buildVersion: v.optional(v.string()) })) }),
  ),
  shared: v.optional(v.array(SharedInfoSchema), []),
  exposes: v.optional(v.array(v.object({ name: v.string(), path: v.string() })), []),
});

export interface MfManifestInfo {
  /** The container name (`mf_research`). */
  name: string;
  buildVersion: string | null;
  shared: v.InferOutput<typeof SharedInfoSchema>[];
  exposes: { name: string; path: string }[];
}

export function readMfManifest(file: string): MfManifestInfo {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RolloutError(code === 'ENOENT' ? `${file} does not exist` : `${file} is not valid JSON`);
  }
  const parsed = v.safeParse(MfManifestSchema, raw);
  if (!parsed.success) throw new RolloutError(`${file} is not a Module Federation manifest`);
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
