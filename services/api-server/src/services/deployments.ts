import { isDeepStrictEqual } from 'node:util';
import type { AuditEntry } from '@app/contracts';
import type { DeployChangeResult, DeployState } from '@app/contracts/deploy';
import {
  type AuditNote,
  type DeployCommandContext,
  type DeploymentManifest,
  describeDeployment,
  emptyManifest,
  parseManifest,
  pinIntegrity,
  type RemotePackage,
} from '@app/rollout';
import { isReleased as isReleasedOnDisk, releasedEntryIntegrity } from '@app/rollout/node';
import type { Sql } from '../db/sql';
import { readDeployAudit, recordDeployAudit } from './deploy-audit';

/**
 * The deployment of each environment (table deployments, migration 11; docs/decisions/0030-deploy-control-plane.md).
 * A change is a compare-and-swap on `revision`: the caller names the revision it looked at (If-Match), the
 * change runs on a copy of the stored manifest inside one write transaction with its audit rows, and the
 * UPDATE only lands `WHERE revision = <that one>`. Whoever lost the race gets DeployConflict with the
 * revision it lost to, whichever API instance they went through.
 */
export class DeployConflict extends Error {
  override readonly name = 'DeployConflict';
  constructor(readonly revision: number) {
    super(`The deployment changed meanwhile: it is at revision ${revision} now`);
  }
}

interface Row {
  revision: number;
  manifest_json: string;
  updated_at: string | null;
}

interface ReleaseRow {
  remote: string;
  version: string;
  entry_integrity: string | null;
  created_at: string;
}

export interface EnvironmentRevisions {
  deployment: number;
  previews: number;
}

export type DeployApply = (draft: DeploymentManifest, ctx: DeployCommandContext) => AuditNote[];

export class DeploymentService {
  private readonly written = new Set<(environment: string) => void>();

  constructor(
    private readonly sql: Sql,
    /** The release store folder: releases made before deploy_releases existed are found there too. */
    private readonly storeDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called after every committed change through this instance (the feed wakes its waiters at once). */
  onWrite(listener: (environment: string) => void): () => void {
    this.written.add(listener);
    return () => this.written.delete(listener);
  }

  /** The environment's state; revision 0 and an empty manifest while it was never written. */
  async state(environment: string, sql: Sql = this.sql): Promise<DeployState> {
    const row = await sql.get<Row>(
      'SELECT revision, manifest_json, updated_at FROM deployments WHERE environment = @environment',
      { environment },
    );
    if (!row) {
      // A fixed timestamp: an unwritten environment answers the same bytes every time.
      return {
        environment,
        revision: 0,
        updatedAt: null,
        manifest: emptyManifest(environment, new Date(0)),
      };
    }
    return {
      environment,
      revision: Number(row.revision),
      updatedAt: row.updated_at,
      manifest: parseManifest(JSON.parse(row.manifest_json)),
    };
  }

  /**
   * Every environment's deployment revision and previews revision (services/deploy-previews.ts), 0 where
   * none was written: the feed's 200 ms poll, one small query for all of them.
   */
  async revisions(): Promise<Map<string, EnvironmentRevisions>> {
    const rows = await this.sql.all<{ environment: string; deployment: number; previews: number }>(
      `SELECT environment, SUM(deployment) AS deployment, SUM(previews) AS previews FROM (
         SELECT environment, revision AS deployment, 0 AS previews FROM deployments
         UNION ALL
         SELECT environment, 0 AS deployment, revision AS previews FROM deploy_preview_revisions
       ) AS written GROUP BY environment`,
    );
    return new Map(
      rows.map((r) => [r.environment, { deployment: Number(r.deployment), previews: Number(r.previews) }]),
    );
  }

  /** What the commands know of releases: deploy_releases, and the store folder for older releases. */
  async releases(environment: string): Promise<DeployCommandContext> {
    const rows = await this.sql.all<ReleaseRow>(
      'SELECT remote, version, entry_integrity, created_at FROM deploy_releases ORDER BY created_at DESC, version DESC',
    );
    const byKey = new Map(rows.map((r) => [`${r.remote}/${r.version}`, r]));
    const store = this.storeDir;
    return {
      now: new Date(this.now()),
      environment,
      isReleased: (remote, version) =>
        byKey.has(`${remote}/${version}`) || isReleasedOnDisk(store, remote, version),
      integrityOf: (remote, version) =>
        byKey.get(`${remote}/${version}`)?.entry_integrity ?? releasedEntryIntegrity(store, remote, version),
      releasedVersions: (remote) => rows.filter((r) => r.remote === remote).map((r) => r.version),
    };
  }

  /**
   * One change: `apply` on a copy of the manifest at `expected` (else DeployConflict), entry digests pinned,
   * validated, stored with revision + 1 and its audit rows, all in one transaction. No notes: nothing is
   * written. Notes but an unchanged manifest (watch-stop): the audit rows only, the revision stays.
   */
  async change(
    environment: string,
    expected: number,
    actor: string,
    apply: DeployApply,
  ): Promise<DeployChangeResult & { updatedAt: string | null }> {
    const ctx = await this.releases(environment);
    const at = ctx.now.toISOString();
    const result = await this.sql.transaction(async (tx) => {
      const before = await this.state(environment, tx);
      if (before.revision !== expected) throw new DeployConflict(before.revision);
      const draft = structuredClone(before.manifest);
      const notes = apply(draft, ctx);
      if (notes.length === 0) return { ...before, entries: [], changed: false };
      pinIntegrity(draft, ctx);
      const changed = !isDeepStrictEqual(before.manifest.remotes, draft.remotes);
      let after = before;
      if (changed) {
        const revision = expected + 1;
        const manifest = parseManifest({ ...draft, environment, revision, updatedAt: at });
        const text = JSON.stringify(manifest);
        const stored =
          expected === 0
            ? await tx.run(
                `INSERT INTO deployments (environment, revision, manifest_json, updated_at)
                 VALUES (@environment, @revision, @text, @at) ON CONFLICT (environment) DO NOTHING`,
                { environment, revision, text, at },
              )
            : await tx.run(
                `UPDATE deployments SET revision = revision + 1, manifest_json = @text, updated_at = @at
                 WHERE environment = @environment AND revision = @expected`,
                { environment, expected, text, at },
              );
        if (stored === 0) {
          const now = await tx.value<number>(
            'SELECT revision FROM deployments WHERE environment = @environment',
            {
              environment,
            },
          );
          throw new DeployConflict(Number(now ?? 0));
        }
        after = { environment, revision, updatedAt: at, manifest };
      }
      const entries: AuditEntry[] = notes.map((note) => ({
        at,
        actor,
        environment,
        action: note.action,
        remote: note.remote,
        from: describeDeployment(before.manifest.remotes[note.remote]),
        to: describeDeployment(after.manifest.remotes[note.remote]),
        ...(note.reason ? { reason: note.reason } : {}),
        ...(note.forced ? { forced: true } : {}),
      }));
      await recordDeployAudit(tx, entries, actor);
      return { ...after, entries, changed };
    });
    if (result.changed) for (const listener of this.written) listener(environment);
    return {
      environment,
      revision: result.revision,
      manifest: result.manifest,
      entries: result.entries,
      updatedAt: result.updatedAt,
    };
  }

  /** Audit entries, newest first. */
  history(environment: string, remote?: RemotePackage, limit = 200): Promise<AuditEntry[]> {
    return readDeployAudit(this.sql, environment, { remote, limit });
  }
}
