import path from 'node:path';
import { compatibilityConflicts, type SharedEntry } from '@app/rollout';
import { readMfManifest } from '@app/rollout/node';

/**
 * The live shell's mf-manifest.json, which every uploaded remote must be compatible with: SHELL_MANIFEST
 * (relative to where the API was started), else `<repo>/shell/dist/mf-manifest.json`, as the release CLI
 * looked for it before the gate moved to the server.
 */
export function shellManifestFile(repoRoot: string, env: Record<string, string | undefined> = process.env) {
  if (env.SHELL_MANIFEST) return path.resolve(env.INIT_CWD ?? process.cwd(), env.SHELL_MANIFEST);
  return path.join(repoRoot, 'shell', 'dist', 'mf-manifest.json');
}

/**
 * What stops a remote built against `shared` from running in the live shell, one line per conflict. A shell
 * manifest that cannot be read is itself a conflict: the gate cannot vouch for anything then (force can).
 * Read on every upload: the shell may be redeployed while the API runs.
 */
export function compatibilityGate(shared: SharedEntry[], shellManifest: string): string[] {
  try {
    return compatibilityConflicts(shared, readMfManifest(shellManifest).shared);
  } catch (error) {
    return [`the live shell's manifest cannot be read: ${(error as Error).message}`];
  }
}

export function conflictsMessage(subject: string, shellManifest: string, conflicts: string[]): string {
  return [
    `${subject} is not compatible with the live shell (${shellManifest}):`,
    ...conflicts.map((conflict) => `  - ${conflict}`),
    'Rebuild it against the shell’s versions, or upload with ?force=1 (pnpm release --force) to go ahead anyway (audited).',
  ].join('\n');
}
