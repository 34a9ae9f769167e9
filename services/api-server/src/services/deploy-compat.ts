import path from 'node:path';
import type {
  CompatConflict,
  Compatibility,
  CompatRow,
  LiveTrack,
  ShellCheckResult,
} from '@app/contracts/compatibility';
import {
  type BuildSide,
  type CompatEntry,
  CompatRefused,
  callEntries,
  compatConflicts,
  compatEntries,
  compatMessage,
  conflictsSummary,
  describeDeployment,
  type GateConflict,
  type GateResult,
  ManifestError,
  peerConflicts,
  type RemotePackage,
  refuseIncompatible,
} from '@app/rollout';
import { MF_MANIFEST_FILE, readBuildSide, releaseDir } from '@app/rollout/node';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { recordDeployAudit } from './deploy-audit';
import type { DeploymentService } from './deployments';

/** The live shell's manifest: the configured file (SHELL_MANIFEST, resolved by config.ts), else shell/dist's. */
export function shellManifestFile(root: string, configured?: string): string {
  return configured ?? path.join(root, 'shell', 'dist', 'mf-manifest.json');
}

/** A refusal by the gate: 409 with the CompatRefusal body (the message and the conflicts one by one). */
export class CompatRefusalError extends HttpError {
  constructor(
    message: string,
    readonly conflicts: GateConflict[],
  ) {
    super(409, message);
  }
  override body(): Record<string, unknown> {
    return { error: this.message, conflicts: this.conflicts satisfies CompatConflict[] };
  }
}

/** @app/rollout's refusal (refuseIncompatible), answered as the API's 409 with the conflicts. */
export function requireCompatible(subject: string, gate: GateResult, force: boolean): GateConflict[] {
  try {
    return refuseIncompatible(subject, gate, force);
  } catch (error) {
    if (error instanceof CompatRefused) throw new CompatRefusalError(error.message, error.conflicts);
    throw error;
  }
}

/** One remote version a visitor of the environment may be served: as stable, as canary, or by a live preview link. */
export interface LiveBuild {
  remote: RemotePackage;
  version: string;
  track: Exclude<LiveTrack, 'shell'>;
  side: BuildSide;
}

export interface CompatibilityOptions {
  /** The release store folder: `<remote>/<version>/mf-manifest.json` and `mf-compat.json`. */
  store: string;
  /** The live shell's mf-manifest.json (config.deploy.shellManifest); its contract sits beside it. */
  shellManifest: string;
  /** DEPLOY_ENVIRONMENTS: a shell build is checked against all of them. */
  environments: readonly string[];
  now: () => number;
}

export const LIVE_SHELL = 'the live shell';
export const NEW_SHELL = 'the new shell';

/**
 * The compatibility gate against what is live (issue 45, docs/decisions/0038-compatibility-from-code.md):
 * which builds meet on an environment's pages (the live shell, every remote's stable and canary, and the
 * versions live preview links pin), and the rules of @app/rollout's compat over them. Files are read on
 * every call: the shell may be redeployed, and a release's files never change once stored.
 */
export class CompatibilityService {
  constructor(
    private readonly sql: Sql,
    private readonly deployments: DeploymentService,
    private readonly options: CompatibilityOptions,
  ) {}

  liveShell(): BuildSide {
    return readBuildSide(this.options.shellManifest, LIVE_SHELL);
  }

  /** A stored release as the gate reads it; an unreadable file is named as the release's, not by its path. */
  releaseSide(remote: RemotePackage, version: string, who: string): BuildSide {
    return buildAt(path.join(releaseDir(this.options.store, remote, version), MF_MANIFEST_FILE), who);
  }

  /** Every remote version the environment's visitors may be served (stable, canary, active preview links). */
  async live(environment: string): Promise<LiveBuild[]> {
    return this.withSides(environment, await this.liveVersions(environment));
  }

  /** The same, named only: no release's files read yet. */
  private async liveVersions(environment: string): Promise<Omit<LiveBuild, 'side'>[]> {
    const { manifest } = await this.deployments.state(environment);
    const found: Omit<LiveBuild, 'side'>[] = [];
    for (const [remote, deployment] of Object.entries(manifest.remotes) as [
      RemotePackage,
      NonNullable<(typeof manifest.remotes)[RemotePackage]>,
    ][]) {
      found.push({ remote, version: deployment.stable, track: 'stable' });
      if (deployment.canary) found.push({ remote, version: deployment.canary.version, track: 'canary' });
    }
    const previews = await this.sql.all<{ remote: RemotePackage; version: string }>(
      `SELECT DISTINCT remote, version FROM deploy_previews
       WHERE environment = @environment AND revoked_at IS NULL AND expires_at > @now ORDER BY remote, version`,
      { environment, now: new Date(this.options.now()).toISOString() },
    );
    for (const { remote, version } of previews) {
      // A version served as stable or canary already is that build: one check is enough.
      if (!found.some((f) => f.remote === remote && f.version === version)) {
        found.push({ remote, version, track: 'preview' });
      }
    }
    return found;
  }

  private withSides(environment: string, builds: Omit<LiveBuild, 'side'>[]): LiveBuild[] {
    return builds.map((build) => ({
      ...build,
      side: this.releaseSide(
        build.remote,
        build.version,
        `${build.remote} ${build.version} (${build.track} in ${environment})`,
      ),
    }));
  }

  /**
   * A remote version about to meet the environment's visitors (an upload for it, a command, a preview
   * link): against the live shell, and, both ways, the exposed modules of every other remote live there.
   */
  async checkRemote(environment: string, remote: RemotePackage, candidate: BuildSide): Promise<GateResult> {
    const conflicts = compatConflicts(candidate, this.liveShell());
    // The remote's own live versions are never on a page with it: only the others' files are read.
    const others = (await this.liveVersions(environment)).filter((peer) => peer.remote !== remote);
    for (const peer of this.withSides(environment, others)) {
      conflicts.push(...peerConflicts(candidate, peer.side));
    }
    return { against: `the live shell and what is live in ${environment}`, conflicts };
  }

  /** The stored release `version` of `remote`, checked as checkRemote does. */
  checkRelease(environment: string, remote: RemotePackage, version: string): Promise<GateResult> {
    return this.checkRemote(environment, remote, this.releaseSide(remote, version, `${remote} ${version}`));
  }

  /**
   * A shell build before it ships: the provider of every environment's every live remote version. With
   * `force`, conflicts are answered (200) and audited in each environment, one row per remote concerned.
   */
  async checkShell(shell: BuildSide, input: { force: boolean; actor: string }): Promise<ShellCheckResult> {
    const environments: ShellCheckResult['environments'] = [];
    const byEnvironment: { environment: string; build: LiveBuild; conflicts: GateConflict[] }[] = [];
    for (const environment of this.options.environments) {
      const live = await this.live(environment);
      environments.push({ environment, liveVersions: live.length });
      for (const build of live) {
        const conflicts = compatConflicts(build.side, shell);
        if (conflicts.length) byEnvironment.push({ environment, build, conflicts });
      }
    }
    const conflicts = byEnvironment.flatMap((found) => found.conflicts);
    if (conflicts.length > 0 && !input.force) {
      throw new CompatRefusalError(
        compatMessage(
          `${NEW_SHELL} is not compatible with the remotes live in ${this.options.environments.join(', ')}`,
          conflicts,
          'provider',
        ),
        conflicts,
      );
    }
    if (conflicts.length > 0) await this.auditForcedShell(byEnvironment, input.actor);
    return { environments, conflicts };
  }

  private async auditForcedShell(
    found: { environment: string; build: LiveBuild; conflicts: GateConflict[] }[],
    actor: string,
  ): Promise<void> {
    const at = new Date(this.options.now()).toISOString();
    await this.sql.transaction(async (tx) => {
      const rows = new Map<
        string,
        { environment: string; remote: RemotePackage; conflicts: GateConflict[] }
      >();
      for (const { environment, build, conflicts } of found) {
        const key = `${environment}/${build.remote}`;
        const row = rows.get(key) ?? { environment, remote: build.remote, conflicts: [] };
        row.conflicts.push(...conflicts);
        rows.set(key, row);
      }
      for (const row of rows.values()) {
        const live = describeDeployment(
          (await this.deployments.state(row.environment, tx)).manifest.remotes[row.remote],
        );
        await recordDeployAudit(
          tx,
          [
            {
              at,
              actor,
              environment: row.environment,
              action: 'shell-forced',
              remote: row.remote,
              from: live,
              to: live,
              reason: `a shell build was forced past compatibility conflicts with ${row.remote}: ${conflictsSummary(row.conflicts)}`,
              forced: true,
            },
          ],
          actor,
        );
      }
    });
  }

  /** GET DEPLOY_PATHS.compatibility(env) and the admin view: every live remote version, row by row. */
  async table(environment: string): Promise<Compatibility> {
    const shell = this.liveShell();
    // A diagnostic: a stored deployment that no longer parses (edited by hand) shows no rows, never a 500.
    const live = await this.live(environment).catch((error: unknown) => {
      if (error instanceof ManifestError || error instanceof SyntaxError) return [];
      throw error;
    });
    const rows: CompatRow[] = [];
    for (const build of live) {
      const entries: CompatEntry[] = compatEntries(build.side, shell);
      // Calls between remotes: only where both contracts are readable (an unreadable one shows as its
      // own remote's unknown row already).
      for (const peer of live) {
        if (peer.remote === build.remote || !peer.side.contract || !build.side.contract) continue;
        entries.push(...callEntries(peer.side, build.side), ...callEntries(build.side, peer.side));
      }
      for (const entry of entries) {
        rows.push({
          remote: build.remote,
          version: build.version,
          track: build.track,
          package: entry.package,
          required: entry.required,
          provided: entry.provided,
          status: entry.conflicts.some((c) => c.kind === 'unknown')
            ? 'unknown'
            : entry.conflicts.length
              ? 'conflict'
              : 'ok',
          conflicts: entry.conflicts,
        });
      }
    }
    return {
      environment,
      shell: {
        manifest: this.options.shellManifest,
        federationRuntime: shell.contract?.federationRuntime ?? null,
      },
      rows,
    };
  }
}

/** A build in a folder of the store: a file it lacks is named by its file name (the folder is the store's business). */
function buildAt(manifestFile: string, who: string): BuildSide {
  const side = readBuildSide(manifestFile, who);
  if (side.unreadable) side.unreadable = { ...side.unreadable, file: path.basename(side.unreadable.file) };
  return side;
}

/** A bundle being uploaded, not stored yet: read from its prepared folder. */
export const uploadedSide = (folder: string, who: string) =>
  buildAt(path.join(folder, MF_MANIFEST_FILE), who);
