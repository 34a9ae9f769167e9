import fs from 'node:fs';
import path from 'node:path';
import { compatibilityConflicts, type GateResult } from '@app/rollout';
import { readMfManifest } from '@app/rollout/node';

/** The live shell's manifest: the configured file (SHELL_MANIFEST, resolved by config.ts), else shell/dist's. */
export function shellManifestFile(root: string, configured?: string): string {
  return configured ?? path.join(root, 'shell', 'dist', 'mf-manifest.json');
}

/**
 * The compatibility gate, run by the API for deploy commands and release uploads alike (one rule): what stops a
 * remote built against `shared` from running in the live shell, one line per conflict. A shell manifest
 * that cannot be read is itself a conflict: the gate cannot vouch for anything then (force can). Read on
 * every call: the shell may be redeployed while the API runs.
 */
export function compatibilityGate(
  shared: Parameters<typeof compatibilityConflicts>[0],
  shellManifest: string,
): GateResult {
  if (!fs.existsSync(shellManifest)) {
    return {
      shellManifest,
      conflicts: [
        `the live shell's manifest ${shellManifest} does not exist (build the shell or set SHELL_MANIFEST)`,
      ],
    };
  }
  try {
    return { shellManifest, conflicts: compatibilityConflicts(shared, readMfManifest(shellManifest).shared) };
  } catch (error) {
    return {
      shellManifest,
      conflicts: [`the live shell's manifest cannot be read: ${(error as Error).message}`],
    };
  }
}

/** The 409's text: what conflicts, and the two ways forward. */
export function conflictsMessage(subject: string, shellManifest: string, conflicts: string[]): string {
  return [
    `${subject} is not compatible with the live shell (${shellManifest}):`,
    ...conflicts.map((conflict) => `  - ${conflict}`),
    'Rebuild it against the shell’s versions, or upload with ?force=1 (pnpm release --force) to go ahead anyway (audited).',
  ].join('\n');
}
