import type { AuditEntry } from '@app/contracts';
import type { OverrideUse, OverrideUseAnswer } from '@app/contracts/deploy';
import { OVERRIDE_MESSAGES } from '@app/rollout/dev-override';
import { overrideTokenHash } from '@app/rollout/node';
import type { Clock } from '../clock';
import type { Sql } from '../db/sql';
import { notFound } from '../errors';
import { recordDeployAudit } from './deploy-audit';
import {
  describeLink,
  describeUse,
  OVERRIDE_COLUMNS,
  type OverrideRow,
  type OverrideUseColumns,
} from './deploy-overrides';
import { deviceLabel } from './device-label';

/**
 * A dev override link's use, as edges report it (issue 47, docs/decisions/0042-dev-overrides.md): a browser
 * opened it (`override-open`), pages were served under it (counted on the link's row, migration 26), Exit in
 * its banner (`override-exit`). The token is the proof: a report for a token this environment does not have,
 * or whose link expired or was revoked, is a 404 that writes nothing. Whoever holds the token chooses what
 * the report says, so nothing in it is trusted beyond its bounds, and the audit is debounced: at most one row
 * of each kind per link and address in OVERRIDE_AUDIT_WINDOW_MS, and OVERRIDE_AUDIT_PER_LINK per link in it
 * whatever addresses the reports name. Further opens are only counted.
 */
export const OVERRIDE_AUDIT_WINDOW_MS = 60_000;
export const OVERRIDE_AUDIT_PER_LINK = 5;
/** The counters stop here (INTEGER on both engines): a report never fails on them. */
const COUNTER_MAX = 2_000_000_000;

type Stored = OverrideRow & OverrideUseColumns;
type Audited = Exclude<OverrideUse, { event: 'views' }>;

/** Why a token is not accepted, in the words the edge and the banner use for the link. */
function refusal(row: Stored | undefined, at: string): string {
  if (!row) return OVERRIDE_MESSAGES.invalid;
  if (row.revoked_at !== null) return OVERRIDE_MESSAGES.revoked;
  return row.expires_at <= at ? OVERRIDE_MESSAGES.expired : OVERRIDE_MESSAGES.invalid;
}

export class OverrideUses {
  constructor(
    private readonly sql: Sql,
    private readonly now: Clock,
  ) {}

  /** Counts the report on the link and audits an open or Exit; 404 (OVERRIDE_MESSAGES) for a refused token. */
  async record(environment: string, use: OverrideUse): Promise<OverrideUseAnswer> {
    const hash = overrideTokenHash(use.token);
    const at = new Date(this.now()).toISOString();
    const opens = use.event === 'open' ? 1 : 0;
    const views = use.event === 'open' ? 0 : (use.views ?? 0);
    const outcome = await this.sql.transaction(async (tx) => {
      // The counters first: on PostgreSQL the row's lock then orders concurrent reports of one link, so the
      // debounce below sees the audit rows the others wrote.
      const changed = await tx.run(
        `UPDATE deploy_overrides SET
           opens = CASE WHEN opens < @opensBelow THEN opens + @opens ELSE opens END,
           page_views = CASE WHEN page_views < @viewsBelow THEN page_views + @views ELSE page_views END,
           last_used_at = @at
         WHERE token_hash = @hash AND environment = @environment AND revoked_at IS NULL AND expires_at > @at`,
        {
          hash,
          environment,
          at,
          opens,
          views,
          opensBelow: COUNTER_MAX - opens,
          viewsBelow: COUNTER_MAX - views,
        },
      );
      const row = await tx.get<Stored>(
        `SELECT ${OVERRIDE_COLUMNS} FROM deploy_overrides WHERE token_hash = @hash AND environment = @environment`,
        { hash, environment },
      );
      if (changed === 0 || !row) return { row, accepted: false, audited: false };
      const audited = use.event === 'views' ? false : await this.audit(tx, row, use, at);
      return { row, accepted: true, audited };
    });
    const { row } = outcome;
    if (!outcome.accepted || !row) throw notFound(refusal(row, at));
    return { audited: outcome.audited, opens: Number(row.opens), pageViews: Number(row.page_views) };
  }

  /** The audit row of an open or Exit, unless the debounce says the audit has one already. */
  private async audit(tx: Sql, row: Stored, use: Audited, at: string): Promise<boolean> {
    const action = use.event === 'open' ? 'override-open' : 'override-exit';
    const actor = `visitor ${use.address ?? '(address unknown)'}`;
    const link = describeLink(row);
    // The link is the open's `to` and the Exit's `from` (as a revocation's): both are the same words.
    const column = use.event === 'open' ? 'to_state' : 'from_state';
    const recent = await tx.all<{ actor: string; at: string }>(
      `SELECT actor, at FROM deploy_audit
       WHERE environment = @environment AND remote = @remote AND action = @action AND ${column} = @link
       ORDER BY id DESC LIMIT @limit`,
      { environment: row.environment, remote: row.remote, action, link, limit: OVERRIDE_AUDIT_PER_LINK },
    );
    const since = new Date(Date.parse(at) - OVERRIDE_AUDIT_WINDOW_MS).toISOString();
    const inWindow = recent.filter((r) => r.at > since);
    if (inWindow.length >= OVERRIDE_AUDIT_PER_LINK || inWindow.some((r) => r.actor === actor)) return false;
    const where = `${deviceLabel(use.userAgent) || 'an unknown browser'} at ${use.address ?? 'an unknown address'}`;
    const remote = row.remote as AuditEntry['remote'];
    const common = { at, actor, environment: row.environment, action, remote } as const;
    const entry: AuditEntry =
      use.event === 'open'
        ? { ...common, from: null, to: link, reason: `opened in ${where}` }
        : {
            ...common,
            from: link,
            to: `exited (${row.id}) after ${describeUse(row)}`,
            reason: `Exit in ${where}`,
          };
    // No deploy token acted: the browser holding the link did (token_name null).
    await recordDeployAudit(tx, [entry], null);
    return true;
  }
}
