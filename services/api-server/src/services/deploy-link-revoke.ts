import { isRemotePackage, type RemotePackage } from '@app/rollout';
import type { Sql } from '../db/sql';
import { notFound } from '../errors';
import { recordDeployAudit } from './deploy-audit';

export interface Revoker {
  /** Who revoked it, as the audit names them: a deploy token's name or an administrator's username. */
  actor: string;
  /** The deploy token's name (audit's token_name); null for an administrator in the browser. */
  tokenName: string | null;
  /** Throws (403) when the caller may not change this remote: checked once the link is found. */
  mayChange(remote: RemotePackage): void;
}

/** One more link made or revoked in the environment; inside the write's own transaction. */
export async function bumpRevision(tx: Sql, environment: string): Promise<void> {
  await tx.run(
    `INSERT INTO deploy_preview_revisions (environment, revision) VALUES (@environment, 1)
     ON CONFLICT (environment) DO UPDATE SET revision = deploy_preview_revisions.revision + 1`,
    { environment },
  );
}

/** A stored link's table as revoking sees it: preview links (0037) and dev override links (0042). */
export interface RevocableLinks<Row extends { id: string; remote: string }> {
  table: 'deploy_previews' | 'deploy_overrides';
  columns: string;
  /** "preview" or "override", for the 404's text. */
  noun: string;
  action: 'preview-revoke' | 'override-revoke';
  describe: (row: Row) => string;
  /** The audit row's `to` (default: `revoked (<id>)`). */
  revoked?: (row: Row) => string;
}

/**
 * Revokes a link of the environment: 404 when the environment has no such link, 403 (mayChange) when the
 * caller may not change its remote. Revoking a revoked link answers it as it is (no second audit row). The
 * revocation bumps the environment's previews revision, so the feed carries it to every edge; `changed`
 * says whether the caller should wake the feed's waiters.
 */
export async function revokeLink<Row extends { id: string; remote: string }>(
  sql: Sql,
  links: RevocableLinks<Row>,
  q: { environment: string; id: string; by: Revoker; at: string },
): Promise<{ row: Row; changed: boolean }> {
  const { environment, id, by, at } = q;
  const find = (db: Sql) =>
    db.get<Row>(`SELECT ${links.columns} FROM ${links.table} WHERE id = @id AND environment = @environment`, {
      id,
      environment,
    });
  const found = await find(sql);
  if (!found || !isRemotePackage(found.remote)) {
    throw notFound(`No ${links.noun} link "${id}" in the "${environment}" environment`);
  }
  by.mayChange(found.remote);
  const remote = found.remote;
  return sql.transaction(async (tx) => {
    const changed = await tx.run(
      `UPDATE ${links.table} SET revoked_at = @at, revoked_by = @by
       WHERE id = @id AND environment = @environment AND revoked_at IS NULL`,
      { at, by: by.actor, id, environment },
    );
    if (changed > 0) {
      await bumpRevision(tx, environment);
      const entry = {
        at,
        actor: by.actor,
        environment,
        action: links.action,
        remote,
        from: links.describe(found),
        to: links.revoked ? links.revoked(found) : `revoked (${found.id})`,
      };
      await recordDeployAudit(tx, [entry], by.tokenName);
    }
    return { row: (await find(tx)) as Row, changed: changed > 0 };
  });
}
