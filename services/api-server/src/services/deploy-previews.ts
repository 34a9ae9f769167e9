import { randomBytes } from 'node:crypto';
import type { DeployPreview, PreviewStatus } from '@app/contracts/rollouts-admin';
import {
  conflictsSummary,
  describeDeployment,
  type FeedPreview,
  type GateResult,
  isRemotePackage,
  PREVIEW_TOKEN_PATTERN,
  type RemotePackage,
} from '@app/rollout';
import { isReleased as isReleasedOnDisk, newPreviewToken, previewTokenHash } from '@app/rollout/node';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { recordDeployAudit } from './deploy-audit';
import { requireCompatible } from './deploy-compat';
import { bumpRevision, type Revoker, revokeLink } from './deploy-link-revoke';

import type { DeploymentService } from './deployments';

/**
 * Preview links (issue 44, table deploy_previews, migration 19): an opaque token per link, made for one
 * environment, stored as its SHA-256, revocable. Every link made or revoked bumps the environment's
 * previews revision in the same transaction, so the deployment feed's long poll wakes every edge
 * (services/deploy-feed.ts): this instance's waiters at once (onWrite), other instances' within their poll.
 */

/** Links that expired (or were revoked and expired) longer ago than this are left out of lists and the feed. */
export const PREVIEW_LISTED_FOR_MS = 7 * 24 * 3600 * 1000;

interface Row {
  id: string;
  token_hash: string;
  environment: string;
  remote: string;
  version: string;
  integrity: string;
  created_at: string;
  expires_at: string;
  created_by: string;
  revoked_at: string | null;
  revoked_by: string | null;
}

const COLUMNS = `id, token_hash, environment, remote, version, integrity, created_at, expires_at, created_by,
  revoked_at, revoked_by`;

export interface NewPreview {
  environment: string;
  remote: RemotePackage;
  version: string;
  hours: number;
  /** The deploy token's name: created_by and the audit row's actor. */
  actor: string;
  /** The compatibility gate for the version (a link serves it to whoever opens it, issue 45). */
  gate?: () => Promise<GateResult>;
  /** Go past the gate's conflicts (audited with them). */
  force?: boolean;
}

/** 12 base64url characters: how a person names a link to revoke it. Not secret: the token is. */
const newPreviewId = () => randomBytes(9).toString('base64url');

function statusOf(row: Row, now: number): PreviewStatus {
  if (row.revoked_at !== null) return 'revoked';
  return Date.parse(row.expires_at) > now ? 'active' : 'expired';
}

function toPreview(row: Row, now: number): DeployPreview {
  return {
    id: row.id,
    environment: row.environment,
    remote: row.remote as RemotePackage,
    version: row.version,
    createdAt: row.created_at,
    createdBy: row.created_by,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
    status: statusOf(row, now),
  };
}

function toFeed(row: Row): FeedPreview {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    remote: row.remote as RemotePackage,
    version: row.version,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    integrity: row.integrity,
  };
}

/** Active first, the soonest to expire first; then expired and revoked ones, the newest first. */
function listOrder(a: DeployPreview, b: DeployPreview): number {
  const activeA = a.status === 'active';
  if (activeA !== (b.status === 'active')) return activeA ? -1 : 1;
  if (activeA) return a.expiresAt.localeCompare(b.expiresAt) || a.id.localeCompare(b.id);
  return b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id);
}

const describeLink = (row: Pick<Row, 'version' | 'expires_at' | 'id'>) =>
  `preview ${row.version} until ${row.expires_at} (${row.id})`;

export class PreviewService {
  private readonly written = new Set<(environment: string) => void>();

  constructor(
    private readonly sql: Sql,
    private readonly deployments: DeploymentService,
    /** The release store folder: releases made before deploy_releases existed are found there too. */
    private readonly storeDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called after every committed link made or revoked through this instance. */
  onWrite(listener: (environment: string) => void): () => void {
    this.written.add(listener);
    return () => this.written.delete(listener);
  }

  /** Wakes the feed's waiters: also for override links (deploy-overrides.ts), which share the revision. */
  announce(environment: string) {
    for (const listener of this.written) listener(environment);
  }

  /**
   * A new link for a released version, stored with its audit row (action `preview`, in this environment).
   * Answers the token: the only time it exists outside the caller's hands.
   */
  async create(input: NewPreview): Promise<{ token: string; preview: DeployPreview }> {
    const { environment, remote, version } = input;
    const releases = await this.deployments.releases(environment);
    if (!releases.isReleased(remote, version)) {
      const known = releases.releasedVersions(remote).slice(0, 5).join(', ');
      throw new HttpError(
        409,
        `${remote} ${version} is not released${known ? `; released versions, newest first: ${known}` : ''}`,
      );
    }
    const integrity = releases.integrityOf(remote, version);
    if (!integrity) throw new HttpError(409, `${remote} ${version} has no recorded entry digest`);
    const forced = input.gate
      ? requireCompatible(`${remote} ${version}`, await input.gate(), input.force ?? false)
      : [];
    const now = releases.now.getTime();
    const token = newPreviewToken();
    const row: Row = {
      id: newPreviewId(),
      token_hash: previewTokenHash(token),
      environment,
      remote,
      version,
      integrity,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + Math.round(input.hours * 3_600_000)).toISOString(),
      created_by: input.actor,
      revoked_at: null,
      revoked_by: null,
    };
    await this.sql.transaction(async (tx) => {
      // Pruning removes a release's row in a transaction too, after looking for live links: one of the two
      // goes first, so no link is stored for a version that is being removed (a folder without a row is a
      // release made before the API kept them). Both take the release's key lock first, so they take turns.
      await tx.lock('release', remote, version);
      const recorded = await tx.value<number>(
        'SELECT 1 FROM deploy_releases WHERE remote = @remote AND version = @version',
        { remote, version },
      );
      if (recorded === undefined && !isReleasedOnDisk(this.storeDir, remote, version)) {
        throw new HttpError(409, `${remote} ${version} is not released (it was removed meanwhile)`);
      }
      const live = describeDeployment(
        (await this.deployments.state(environment, tx)).manifest.remotes[remote],
      );
      await tx.run(
        `INSERT INTO deploy_previews (${COLUMNS})
         VALUES (@id, @token_hash, @environment, @remote, @version, @integrity, @created_at, @expires_at,
           @created_by, @revoked_at, @revoked_by)`,
        { ...row },
      );
      await bumpRevision(tx, environment);
      await recordDeployAudit(
        tx,
        [
          {
            at: row.created_at,
            actor: input.actor,
            environment,
            action: 'preview',
            remote,
            from: live,
            to: `${live ? `${live} · ` : ''}${describeLink(row)}`,
            ...(forced.length > 0
              ? {
                  reason: `previewed despite compatibility conflicts: ${conflictsSummary(forced)}`,
                  forced: true,
                }
              : {}),
          },
        ],
        input.actor,
      );
    });
    this.announce(environment);
    return { token, preview: toPreview(row, now) };
  }

  /** The environment's links (those of `remotes` when given), active first; see PREVIEW_LISTED_FOR_MS. */
  async list(environment: string, remotes?: readonly RemotePackage[]): Promise<DeployPreview[]> {
    const now = this.now();
    const rows = await this.listedRows(environment, now);
    return rows
      .filter((row) => isRemotePackage(row.remote) && (!remotes || remotes.includes(row.remote)))
      .map((row) => toPreview(row, now))
      .sort(listOrder);
  }

  private listedRows(environment: string, now: number): Promise<Row[]> {
    return this.sql.all<Row>(
      `SELECT ${COLUMNS} FROM deploy_previews WHERE environment = @environment AND expires_at > @since`,
      { environment, since: new Date(now - PREVIEW_LISTED_FOR_MS).toISOString() },
    );
  }

  /** Revokes a link of the environment (deploy-link-revoke.ts says how). */
  async revoke(environment: string, id: string, by: Revoker): Promise<DeployPreview> {
    const links = {
      table: 'deploy_previews',
      columns: COLUMNS,
      noun: 'preview',
      action: 'preview-revoke',
      describe: describeLink,
    } as const;
    const at = new Date(this.now()).toISOString();
    const result = await revokeLink<Row>(this.sql, links, { environment, id, by, at });
    if (result.changed) this.announce(environment);
    return toPreview(result.row, this.now());
  }

  /** The environment's previews revision: how many links were made or revoked there. */
  async revision(environment: string): Promise<number> {
    const value = await this.sql.value<number>(
      'SELECT revision FROM deploy_preview_revisions WHERE environment = @environment',
      { environment },
    );
    return Number(value ?? 0);
  }

  /**
   * What the feed publishes: the revision, then the links. Read in that order so the links are never older
   * than the revision a waiter will compare next time (a write in between only wakes it once more).
   */
  async feed(environment: string): Promise<{ revision: number; links: FeedPreview[] }> {
    const revision = await this.revision(environment);
    const rows = await this.listedRows(environment, this.now());
    return {
      revision,
      links: rows
        .filter((row) => isRemotePackage(row.remote))
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
        .map(toFeed),
    };
  }

  /** The environment's link for `token` (none or one), as checkPreview takes them. */
  async linksFor(environment: string, token: string): Promise<FeedPreview[]> {
    if (!PREVIEW_TOKEN_PATTERN.test(token)) return [];
    const rows = await this.sql.all<Row>(
      `SELECT ${COLUMNS} FROM deploy_previews WHERE token_hash = @hash AND environment = @environment`,
      { hash: previewTokenHash(token), environment },
    );
    return rows.filter((row) => isRemotePackage(row.remote)).map(toFeed);
  }
}

/**
 * Versions of `remote` that a live link (not revoked, not expired) names, in any environment: pruning
 * keeps them. `sql` is the pruning transaction's, so a link made meanwhile is either seen or refused.
 */
export async function previewedVersions(sql: Sql, remote: RemotePackage, now: number): Promise<Set<string>> {
  const versions = await sql.column<string>(
    `SELECT DISTINCT version FROM deploy_previews
     WHERE remote = @remote AND revoked_at IS NULL AND expires_at > @now`,
    { remote, now: new Date(now).toISOString() },
  );
  return new Set(versions);
}
