import fs from 'node:fs';
import path from 'node:path';
import type { RemotePackage } from '@app/rollout';
import { readManifestFile } from '@app/rollout/node';
import { parsePositiveInt } from './args';
import { appendAudit, auditEntry, describeDeployment } from './audit';
import { buildRemote } from './build-remote';
import { compatibilityGate, conflictsMessage } from './compat-gate';
import type { RolloutContext } from './context';
import { readMfManifest } from './dist';
import { RolloutError } from './errors';
import { gitState } from './git-info';
import { publishRelease } from './publish';
import type { ReleaseInfo } from './release-info';
import { DEFAULT_KEEP, pruneReleases } from './retention';

export interface ReleaseOptions {
  remote: RemotePackage;
  /** Build first (default), unless a dist is given. */
  build?: boolean;
  /** A dist folder to release instead of `<remote>/dist` (relative to where the command was typed). */
  dist?: string;
  force?: boolean;
  keep?: number;
  /** `pnpm start` releases the shell's own builds: no gate, it is the shell they were built with. */
  skipGate?: boolean;
}

export interface ReleaseResult {
  info: ReleaseInfo;
  alreadyReleased: boolean;
  /** Compatibility conflicts that --force went past. */
  forcedConflicts: string[];
  removed: string[];
}

export function keepFrom(options: { keep?: number }, env: Record<string, string | undefined>): number {
  if (options.keep !== undefined) return options.keep;
  return env.RELEASE_KEEP ? parsePositiveInt(env.RELEASE_KEEP, 'RELEASE_KEEP') : DEFAULT_KEEP;
}

function packageVersionOf(root: string, remote: RemotePackage): string {
  try {
    return (
      JSON.parse(fs.readFileSync(path.join(root, remote, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return '0.0.0';
  }
}

export async function release(options: ReleaseOptions, ctx: RolloutContext): Promise<ReleaseResult> {
  const { paths, env } = ctx;
  const { remote } = options;
  const distDir = options.dist
    ? path.resolve(env.INIT_CWD ?? process.cwd(), options.dist)
    : path.join(paths.root, remote, 'dist');
  if (options.build !== false && !options.dist) await buildRemote(paths.root, remote);
  const manifestFile = path.join(distDir, 'mf-manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new RolloutError(
      `no build of ${remote} at ${distDir} (mf-manifest.json is missing); build it (pnpm build ${remote}) or pass --dist <dir>`,
    );
  }

  const gate = options.skipGate ? null : compatibilityGate(readMfManifest(manifestFile).shared, paths, env);
  if (gate && gate.conflicts.length > 0 && !options.force)
    throw new RolloutError(conflictsMessage(remote, gate));

  const { info, alreadyReleased } = publishRelease({
    store: paths.store,
    remote,
    distDir,
    fallbackVersion: packageVersionOf(paths.root, remote),
    git: () => gitState(paths.root),
    now: ctx.now(),
  });

  const forcedConflicts = gate?.conflicts ?? [];
  if (forcedConflicts.length > 0) {
    // A release changes no deployment: from/to say what is live and what was added beside it.
    let live: string | null = null;
    try {
      live = describeDeployment(readManifestFile(paths.manifestFile)?.remotes[remote]);
    } catch {} // the release is done; an unreadable manifest must not lose its audit line
    const entry = auditEntry(
      {
        action: 'release',
        remote,
        from: live,
        to: `${live ? `${live} · ` : ''}released ${info.version}${alreadyReleased ? ' (already in the store)' : ''}`,
        reason: `released despite compatibility conflicts: ${forcedConflicts.join('; ')}`,
        forced: true,
      },
      { environment: paths.environment, actor: ctx.actor, at: ctx.now() },
    );
    appendAudit(paths.auditFile, [entry]);
  }

  const pruned = pruneReleases({
    store: paths.store,
    deployDir: paths.deployDir,
    remote,
    keep: keepFrom(options, env),
    protect: [info.version],
  });
  if (pruned.skipped) ctx.log(`warning: ${pruned.skipped}`);
  return { info, alreadyReleased, forcedConflicts, removed: pruned.removed };
}
