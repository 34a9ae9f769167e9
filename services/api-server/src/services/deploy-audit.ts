import type { AuditEntry } from '@app/contracts';
import type { Sql } from '../db/sql';

/**
 * The deployment audit log (table deploy_audit, migration 11): one row per change, written in the
 * transaction of the change it describes. `actor` is the deploy token's name (who acted, as the API knows
 * it); token_name repeats it so a later actor wording (a person behind a pipeline) keeps the credential.
 */
export async function recordDeployAudit(sql: Sql, entries: readonly AuditEntry[], tokenName: string | null) {
  for (const entry of entries) {
    await sql.run(
      `INSERT INTO deploy_audit (environment, at, actor, token_name, action, remote, from_state, to_state, reason, forced)
       VALUES (@environment, @at, @actor, @token, @action, @remote, @from, @to, @reason, @forced)`,
      {
        environment: entry.environment,
        at: entry.at,
        actor: entry.actor,
        token: tokenName,
        action: entry.action,
        remote: entry.remote,
        from: entry.from,
        to: entry.to,
        reason: entry.reason ?? null,
        forced: entry.forced ? 1 : 0,
      },
    );
  }
}

interface AuditRow {
  environment: string;
  at: string;
  actor: string;
  action: AuditEntry['action'];
  remote: AuditEntry['remote'];
  from_state: string | null;
  to_state: string | null;
  reason: string | null;
  forced: number;
}

/** Newest first; one remote's or every remote's. */
export async function readDeployAudit(
  sql: Sql,
  environment: string,
  { remote, limit = 200 }: { remote?: string; limit?: number } = {},
): Promise<AuditEntry[]> {
  const rows = remote
    ? await sql.all<AuditRow>(
        `SELECT * FROM deploy_audit WHERE environment = @environment AND remote = @remote ORDER BY id DESC LIMIT @limit`,
        { environment, remote, limit },
      )
    : await sql.all<AuditRow>(
        `SELECT * FROM deploy_audit WHERE environment = @environment ORDER BY id DESC LIMIT @limit`,
        { environment, limit },
      );
  return rows.map((row) => ({
    at: row.at,
    actor: row.actor,
    environment: row.environment,
    action: row.action,
    remote: row.remote,
    from: row.from_state,
    to: row.to_state,
    ...(row.reason ? { reason: row.reason } : {}),
    ...(row.forced ? { forced: true } : {}),
  }));
}
