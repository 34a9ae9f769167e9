import { randomBytes } from 'node:crypto';
import type { DeployOverride } from '@app/contracts/deploy';
import { isRemotePackage, type RemotePackage } from '@app/rollout';
import { type FeedOverride, overrideTarget } from '@app/rollout/dev-override';
import { newOverrideToken, overrideTokenHash } from '@app/rollout/node';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import { recordDeployAudit } from './deploy-audit';
import { bumpRevision, type Revoker, revokeLink } from './deploy-link-revoke';
import { PREVIEW_LISTED_FOR_MS, type PreviewService } from './deploy-previews';

/**
 * Dev override links (issue 47, table deploy_overrides, migration 25, docs/decisions/0042-dev-overrides.md):
 * preview links' machinery (deploy-previews.ts) for a dev server instead of a released version. The token is
 * opaque and stored as its SHA-256 per environment; making or revoking one bumps the environment's previews
 * revision in the same transaction and wakes the feed's waiters through the preview service, so every edge
 * learns of it as fast as of a preview link. The URL is checked here (overrideTarget: loopback and private
 * networks, or DEV_OVERRIDE_ORIGINS) and again by nobody: the edge trusts the feed, which only this writes.
 * How much a link is used (opens, page views: migration 26) is written by deploy-override-uses.ts.
 */

export interface OverrideRow {
  id: string;
  token_hash: string;
  environment: string;
  remote: string;
  url: string;
  created_at: string;
  expires_at: string;
  created_by: string;
  revoked_at: string | null;
  revoked_by: string | null;
}
type Row = OverrideRow;

/** How much a link was used, as edges report it (migration 26, deploy-override-uses.ts). */
export interface OverrideUseColumns {
  opens: number;
  page_views: number;
  last_used_at: string | null;
}

const COLUMNS =
  'id, token_hash, environment, remote, url, created_at, expires_at, created_by, revoked_at, revoked_by';
/** A stored link with its use. */
export const OVERRIDE_COLUMNS = `${COLUMNS}, opens, page_views, last_used_at`;

export interface NewOverride {
  environment: string;
  remote: RemotePackage;
  url: string;
  hours: number;
  /** The deploy token's name: created_by and the audit row's actor. */
  actor: string;
}

const toOverride = (row: Row & Partial<OverrideUseColumns>): DeployOverride => ({
  ...(row.page_views === undefined
    ? {}
    : { opens: Number(row.opens), pageViews: Number(row.page_views), lastUsedAt: row.last_used_at ?? null }),
  id: row.id,
  environment: row.environment,
  remote: row.remote as RemotePackage,
  url: row.url,
  createdAt: row.created_at,
  createdBy: row.created_by,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  revokedBy: row.revoked_by,
});

/** The link in the audit's words: the `override` row's `to`, and the state its later rows start from. */
export const describeLink = (row: Pick<Row, 'url' | 'expires_at' | 'id'>) =>
  `override → ${row.url} until ${row.expires_at} (${row.id})`;

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
/** How much a link was used, for the rows that end its use (override-revoke, override-exit). */
export const describeUse = (row: Pick<OverrideUseColumns, 'opens' | 'page_views'>) =>
  `${count(Number(row.page_views), 'page view')}, ${count(Number(row.opens), 'open')}`;

export class OverrideService {
  constructor(
    private readonly sql: Sql,
    /** Its announce() wakes the feed's waiters; its revision counts override links too. */
    private readonly previews: PreviewService,
    /** DEV_OVERRIDE_ORIGINS: origins accepted beside loopback and private networks. */
    private readonly allowedOrigins: readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** A new link, stored with its audit row (action `override`). 400 with the reason for a refused URL. */
  async create(input: NewOverride): Promise<{ token: string; override: DeployOverride }> {
    const target = overrideTarget(input.url, this.allowedOrigins);
    if (!target.ok) throw new HttpError(400, target.error);
    const now = this.now();
    const token = newOverrideToken();
    const row: Row = {
      id: randomBytes(9).toString('base64url'),
      token_hash: overrideTokenHash(token),
      environment: input.environment,
      remote: input.remote,
      url: target.url,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + Math.round(input.hours * 3_600_000)).toISOString(),
      created_by: input.actor,
      revoked_at: null,
      revoked_by: null,
    };
    await this.sql.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO deploy_overrides (${COLUMNS}) VALUES (@id, @token_hash, @environment, @remote, @url,
           @created_at, @expires_at, @created_by, @revoked_at, @revoked_by)`,
        { ...row },
      );
      await bumpRevision(tx, input.environment);
      await recordDeployAudit(
        tx,
        [
          {
            at: row.created_at,
            actor: input.actor,
            environment: input.environment,
            action: 'override',
            remote: input.remote,
            from: null,
            to: describeLink(row),
          },
        ],
        input.actor,
      );
    });
    this.previews.announce(input.environment);
    return { token, override: toOverride(row) };
  }

  /** Revokes a link of the environment (deploy-link-revoke.ts says how). */
  async revoke(environment: string, id: string, by: Revoker): Promise<DeployOverride> {
    const links = {
      table: 'deploy_overrides',
      columns: OVERRIDE_COLUMNS,
      noun: 'override',
      action: 'override-revoke',
      describe: describeLink,
      revoked: (row: Row & OverrideUseColumns) => `revoked (${row.id}) after ${describeUse(row)}`,
    } as const;
    const at = new Date(this.now()).toISOString();
    const result = await revokeLink<Row & OverrideUseColumns>(this.sql, links, { environment, id, by, at });
    if (result.changed) this.previews.announce(environment);
    return toOverride(result.row);
  }

  /**
   * What the feed publishes beside the preview links: every link not expired for more than a week, revoked
   * ones included (so a checker can say why a link stopped working). Read after the previews' revision.
   */
  async feed(environment: string): Promise<FeedOverride[]> {
    const rows = await this.sql.all<Row>(
      `SELECT ${COLUMNS} FROM deploy_overrides WHERE environment = @environment AND expires_at > @since`,
      { environment, since: new Date(this.now() - PREVIEW_LISTED_FOR_MS).toISOString() },
    );
    return rows
      .filter((row) => isRemotePackage(row.remote))
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
      .map((row) => ({
        id: row.id,
        tokenHash: row.token_hash,
        remote: row.remote as RemotePackage,
        url: row.url,
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
      }));
  }
}
