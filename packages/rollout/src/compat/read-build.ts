import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { BUILD_CONTRACT_FILE, type BuildContract, parseBuildContract } from '../build-contract';
import type { BuildSide } from './types';

/** What the gate needs of mf-manifest.json: its shared modules, with whether each is a singleton. */
const SharedListSchema = v.object({
  shared: v.optional(
    v.array(
      v.object({
        name: v.string(),
        version: v.optional(v.string()),
        requiredVersion: v.optional(v.union([v.string(), v.literal(false)])),
        singleton: v.optional(v.boolean()),
      }),
    ),
    [],
  ),
});

type Read<T> = { value: T } | { problem: string };

function readJsonFile<T>(file: string, parse: (raw: string) => T): Read<T> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      problem: missing ? `${path.basename(file)} is missing` : `${path.basename(file)} cannot be read`,
    };
  }
  try {
    return { value: parse(text) };
  } catch (error) {
    return { problem: `${path.basename(file)} is unreadable: ${(error as Error).message}` };
  }
}

/**
 * A build as the gate reads it from disk: `manifestFile` (mf-manifest.json) and the build contract beside
 * it. Whatever is missing or invalid comes back as null with the reason, never thrown: the gate answers it
 * as an `unknown` conflict (a 409 that force may pass), not as a failure of the request.
 */
export function readBuildSide(manifestFile: string, who: string): BuildSide {
  const manifest = readJsonFile(manifestFile, (text) => {
    const parsed = v.safeParse(SharedListSchema, JSON.parse(text));
    if (!parsed.success) throw new Error('not a Module Federation manifest');
    return parsed.output;
  });
  const contractFile = path.join(path.dirname(manifestFile), BUILD_CONTRACT_FILE);
  const contract = readJsonFile<BuildContract>(contractFile, parseBuildContract);
  const side: BuildSide = {
    who,
    manifest: 'value' in manifest ? manifest.value : null,
    contract: 'value' in contract ? contract.value : null,
  };
  if ('problem' in manifest) side.unreadable = { file: manifestFile, reason: manifest.problem };
  else if ('problem' in contract) side.unreadable = { file: contractFile, reason: contract.problem };
  return side;
}

/** The same from the files' contents (a shell build posted to the API); throws with the reason when invalid. */
export function buildSideOf(manifest: unknown, contract: unknown, who: string): BuildSide {
  const shared = v.safeParse(SharedListSchema, manifest);
  if (!shared.success) throw new Error('manifest is not a Module Federation manifest (mf-manifest.json)');
  // No contract at all is a build that says nothing of its code: the gate answers "unknown" (force can pass,
  // audited); one that is there but malformed is refused as not a build.
  if (contract === null || contract === undefined) return { who, manifest: shared.output, contract: null };
  return { who, manifest: shared.output, contract: parseBuildContract(JSON.stringify(contract)) };
}
