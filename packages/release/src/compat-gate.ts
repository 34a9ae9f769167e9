import fs from 'node:fs';
import path from 'node:path';
import { compatibilityConflicts } from '@app/rollout';
import type { RolloutPaths } from '@app/rollout/node';
import { readMfManifest } from './dist';
import type { SharedInfo } from './release-info';

/** The live shell's manifest: SHELL_MANIFEST (relative to where the command was typed), else shell/dist. */
export function shellManifestFile(paths: RolloutPaths, env: Record<string, string | undefined>): string {
  if (env.SHELL_MANIFEST) return path.resolve(env.INIT_CWD ?? process.cwd(), env.SHELL_MANIFEST);
  return path.join(paths.root, 'shell', 'dist', 'mf-manifest.json');
}

/**
 * What stops a remote built against `shared` from running in the live shell, one line per conflict. A shell
 * manifest that cannot be read is itself a conflict: the gate cannot vouch for anything then (--force can).
 */
export function compatibilityGate(
  shared: SharedInfo[],
  paths: RolloutPaths,
  env: Record<string, string | undefined>,
): { shellManifest: string; conflicts: string[] } {
  const shellManifest = shellManifestFile(paths, env);
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

export function conflictsMessage(
  subject: string,
  gate: { shellManifest: string; conflicts: string[] },
): string {
  return [
    `${subject} is not compatible with the live shell (${gate.shellManifest}):`,
    ...gate.conflicts.map((conflict) => `  - ${conflict}`),
    'Rebuild it against the shell’s versions, or pass --force to go ahead anyway (audited).',
  ].join('\n');
}
