import { type ReleaseInfo, ReleaseInfoSchema } from '@app/contracts/deploy';
import type { RemotePackage } from '@app/rollout';
import { fileReleaseStore, type ReleaseStore, releaseVersionOf } from '@app/rollout/node';
import * as v from 'valibot';
import type { Sql } from '../db/sql';
import { previewedVersions } from './deploy-previews';

/** A release as the API knows it: its release.json plus the full hash of its files. */
export interface CatalogRelease {
  info: ReleaseInfo;
  contentHash: string;
}

interface Row {
  version: string;
  content_hash: string;
  info_json: string;
}

/** The file store with release.json validated by the contract's schema. */
export function releaseStoreAt(root: string): ReleaseStore<ReleaseInfo> {
  return fileReleaseStore(root, (raw) => {
    const parsed = v.safeParse(ReleaseInfoSchema, raw);
    return parsed.success ? parsed.output : null;
  });
}

/**
 * The releases of every remote: the files in the store (what the edge serves) and a row per release in
 * deploy_releases (what the API answers from and what the deployment commands check). The upload writes
 * the folder first and the row after; retention removes the row first and the folder after. A folder with
 * no row is a release made before the API kept them (or one whose row write failed after publishing): it
 * is adopted, hashed again from its files, the first time its remote is asked about on this instance.
 */
export class ReleaseCatalog {
  private readonly adopted = new Set<RemotePackage>();

  constructor(
    private readonly sql: Sql,
    readonly store: ReleaseStore<ReleaseInfo>,
    private readonly now: () => number = Date.now,
  ) {}

  private parseRow(row: Row): CatalogRelease | null {
    try {
      const parsed = v.safeParse(ReleaseInfoSchema, JSON.parse(row.info_json));
      return parsed.success ? { info: parsed.output, contentHash: row.content_hash } : null;
    } catch {
      return null;
    }
  }

  /** Records a release (a no-op when its row exists: the same version is the same bytes). */
  async record(info: ReleaseInfo, contentHash: string, sql: Sql = this.sql): Promise<void> {
    await sql.run(
      `INSERT INTO deploy_releases (remote, version, content_hash, entry_integrity, info_json, created_at)
       VALUES (@remote, @version, @hash, @integrity, @info, @created)
       ON CONFLICT (remote, version) DO NOTHING`,
      {
        remote: info.remote,
        version: info.version,
        hash: contentHash,
        integrity: info.entryIntegrity ?? null,
        info: JSON.stringify(info),
        created: info.createdAt,
      },
    );
  }

  /** Rows for the store's folders that have none (see the class comment). */
  async adopt(remote: RemotePackage): Promise<void> {
    if (this.adopted.has(remote)) return;
    const known = new Set(
      await this.sql.column<string>(`SELECT version FROM deploy_releases WHERE remote = @remote`, { remote }),
    );
    for (const info of await this.store.list(remote)) {
      if (known.has(info.version)) continue;
      const folder = this.store.folder(remote, info.version);
      try {
        const content = folder ? releaseVersionOf(folder, info.packageVersion, remote) : null;
        // A folder whose files are not what its id says (edited by hand) is left out rather than vouched for.
        if (!content || content.version !== info.version) continue;
        await this.record(
          {
            ...info,
            contentHash: content.contentHash,
            entryIntegrity: info.entryIntegrity ?? content.entryIntegrity,
          },
          content.contentHash,
        );
      } catch {
        // unreadable folder: not a release this API can vouch for
      }
    }
    this.adopted.add(remote);
  }

  async get(remote: RemotePackage, version: string): Promise<CatalogRelease | null> {
    await this.adopt(remote);
    const row = await this.sql.get<Row>(
      `SELECT version, content_hash, info_json FROM deploy_releases WHERE remote = @remote AND version = @version`,
      { remote, version },
    );
    if (row) return this.parseRow(row);
    // Published by another instance after this one adopted: its row is written right after the folder.
    return null;
  }

  /** Newest first. */
  async list(remote: RemotePackage): Promise<CatalogRelease[]> {
    await this.adopt(remote);
    const rows = await this.sql.all<Row>(
      `SELECT version, content_hash, info_json FROM deploy_releases WHERE remote = @remote
       ORDER BY created_at DESC, version DESC`,
      { remote },
    );
    return rows.map((row) => this.parseRow(row)).filter((r): r is CatalogRelease => r !== null);
  }

  /**
   * Versions that must stay: those any environment's manifest names (stable, canary, previous: a rollback
   * must always find its target, in every environment) and those a live preview link names (issue 44: a
   * link must keep working until it expires or is revoked). Null when a manifest cannot be read: then
   * nothing is known to be safe.
   */
  async keptVersions(remote: RemotePackage, sql: Sql = this.sql): Promise<Set<string> | null> {
    const manifests = await sql.column<string>(`SELECT manifest_json FROM deployments`);
    const used = await previewedVersions(sql, remote, this.now());
    for (const text of manifests) {
      try {
        const deployment = (JSON.parse(text) as { remotes?: Record<string, unknown> }).remotes?.[remote] as
          | { stable?: string; canary?: { version?: string } | null; previous?: string[] }
          | undefined;
        if (!deployment) continue;
        if (deployment.stable) used.add(deployment.stable);
        if (deployment.canary?.version) used.add(deployment.canary.version);
        for (const version of deployment.previous ?? []) used.add(version);
      } catch {
        return null;
      }
    }
    return used;
  }

  /**
   * Keeps the newest `keep` releases of a remote plus every version keptVersions names and `protect`;
   * removes the rest, row first (so no row ever points at a missing folder), then the folder. Each row is
   * removed in a transaction that looks at the kept versions again: a preview link made meanwhile (stored
   * in a transaction that checks its release's row) is either seen, or comes after and finds no release.
   */
  async prune(remote: RemotePackage, keep: number, protect: string[] = []): Promise<string[]> {
    const releases = await this.list(remote);
    if (releases.length <= keep) return [];
    const removed: string[] = [];
    for (const { info } of releases.slice(keep)) {
      if (protect.includes(info.version)) continue;
      const deleted = await this.sql.transaction(async (tx) => {
        // The release's key lock, which a new preview link of it takes too (services/deploy-previews.ts).
        await tx.lock('release', remote, info.version);
        const kept = await this.keptVersions(remote, tx);
        if (!kept || kept.has(info.version)) return false;
        const rows = await tx.run(
          `DELETE FROM deploy_releases WHERE remote = @remote AND version = @version`,
          { remote, version: info.version },
        );
        return rows > 0;
      });
      if (!deleted) continue;
      await this.store.remove(remote, info.version);
      removed.push(info.version);
    }
    return removed;
  }
}
