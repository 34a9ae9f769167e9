import { AuditEntrySchema, type HealthBeacon, type HealthRefusal, type PreviewGrant } from '@app/contracts';
import { type AdminRollouts, AdminRolloutsSchema } from '@app/contracts/rollouts-admin';
import {
  DEFAULT_GATE,
  type DeploymentManifest,
  gateNow,
  ManifestError,
  REMOTE_PACKAGES,
  type RemotePackage,
} from '@app/rollout';
import { checkPreview, ensureEdgeSecret, ticketKey, verifyTicket } from '@app/rollout/node';
import * as v from 'valibot';
import type { Config } from '../config';
import type { Sql } from '../db/sql';
import { HttpError } from '../errors';
import type { CompatibilityService } from './deploy-compat';
import type { PreviewService } from './deploy-previews';
import type { DeploymentService } from './deployments';
import { RenderFiguresService } from './render-figures';
import { chartOf, healthRows } from './rollout-charts';
import { HealthRefused, RolloutHealthService } from './rollout-health';
import { ROLLOUT_MESSAGES as M } from './rollout-messages';

const AUDIT_LIMIT = 100;

/** What became of one health report: counted, or refused and why (/metrics counts both, src/metrics.ts). */
export type ReportOutcome = 'accepted' | HealthRefusal;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Staged rollouts as the API sees them: health reports proven by their tickets, preview-link checks (against
 * the stored links, issue 44) and the admin view (the deployment, its preview links and its audit log, from
 * the database since issue 33).
 */
export class RolloutService {
  readonly health: RolloutHealthService;
  /** The edges' server renders per version (the gate's server signals, issue 48). */
  readonly renders: RenderFiguresService;
  private ticketKeyValue: Buffer | null = null;
  private readonly reported = new Set<(outcome: ReportOutcome) => void>();

  constructor(
    sql: Sql,
    private readonly config: Config['rollout'],
    private readonly deployments: DeploymentService,
    private readonly previews: PreviewService,
    private readonly compatibility: CompatibilityService,
    /** DEPLOY_ENV: the environment the admin view shows unless asked for another, and previews are checked in. */
    readonly environment: string,
    private readonly now: () => number = Date.now,
  ) {
    this.health = new RolloutHealthService(sql, now);
    this.renders = new RenderFiguresService(sql, () => this.edgeSecret(), now);
  }

  /** The edge's secret (EDGE_SECRET, else the deploy folder's file): health tickets' and render batches' keys. */
  private edgeSecret(): string {
    return ensureEdgeSecret(this.config.paths, { EDGE_SECRET: this.config.edgeSecret ?? undefined });
  }

  /** The key of health tickets, from the edge's secret. */
  private ticketKey(): Buffer {
    this.ticketKeyValue ??= ticketKey(this.edgeSecret());
    return this.ticketKeyValue;
  }

  /**
   * Stores one page view's report if its ticket proves the page was served those versions
   * (docs/decisions/0027-health-gate.md). Anything else is a 400 that counts nothing but the refusal.
   */
  async report(beacon: HealthBeacon): Promise<void> {
    try {
      const verdict = verifyTicket(beacon.ticket, this.ticketKey(), this.now());
      if (!verdict.ok) throw new HealthRefused(verdict.reason);
      await this.health.record(verdict.ticket, beacon.events);
      this.tell('accepted');
    } catch (error) {
      if (!(error instanceof HealthRefused)) throw error;
      this.tell(error.reason);
      await this.health.refuse(error.reason);
      throw new HttpError(400, M.refused[error.reason]);
    }
  }

  /** A report that did not even parse: refused like a forged one, and counted. */
  async refuseMalformed(): Promise<void> {
    this.tell('malformed');
    await this.health.refuse('malformed');
  }

  /** Calls `listener` with the outcome of every report from now on. */
  onReport(listener: (outcome: ReportOutcome) => void): void {
    this.reported.add(listener);
  }

  private tell(outcome: ReportOutcome): void {
    for (const listener of this.reported) listener(outcome);
  }

  /**
   * For the shell where no edge opened the link (docs/decisions/0026-edge.md): the same check as the edge's,
   * against this API's own environment's links (DEPLOY_ENV), read from the database.
   */
  async verifyPreview(token: string): Promise<PreviewGrant> {
    const previews = await this.previews.linksFor(this.environment, token);
    const checked = checkPreview(token, { previews, now: this.now() });
    if (checked.status === 'refused') throw new HttpError(400, checked.message);
    return checked.grant;
  }

  async adminView(environment = this.environment): Promise<AdminRollouts> {
    const now = this.now();
    const manifest = await this.manifestOrNull(environment);
    const health: AdminRollouts['health'] = [];
    const charts: AdminRollouts['charts'] = [];
    for (const remote of REMOTE_PACKAGES) {
      const from = windowStart(manifest, remote, now);
      const rows = await this.health.remoteRows(environment, remote, from);
      health.push(...healthRows(remote, rows));
      if (rows.length > 0) charts.push(chartOf(remote, rows, from, now));
    }
    return v.parse(AdminRolloutsSchema, {
      environment,
      manifest,
      health,
      charts,
      // Global: a refused report has no environment anyone can trust.
      refusals: await this.health.refusals(now - DAY_MS),
      audit: (await this.deployments.history(environment, undefined, AUDIT_LIMIT * 5))
        .filter((entry) => v.is(AuditEntrySchema, entry))
        .slice(0, AUDIT_LIMIT),
      previews: await this.previews.list(environment),
      compatibility: await this.compatibility.table(environment),
      gates: await this.gates(environment, manifest),
    });
  }

  /**
   * The gate's answer now for each running canary, by the rule `rollout watch` acts on (@app/rollout gateNow,
   * default policy): what an operator would see the next tick decide, `inconclusive` included.
   */
  async gates(environment: string, manifest: DeploymentManifest | null): Promise<AdminRollouts['gates']> {
    const gates: NonNullable<AdminRollouts['gates']> = [];
    for (const remote of REMOTE_PACKAGES) {
      const deployment = manifest?.remotes[remote];
      const canary = deployment?.canary;
      if (!deployment || !canary) continue;
      const decision = await gateNow(
        {
          visitors: (version, since) => this.health.visitors(environment, remote, version, since),
          server: (version, since) => this.renders.figures(environment, remote, version, since),
        },
        deployment.stable,
        canary,
        DEFAULT_GATE,
      );
      gates.push({
        remote,
        version: canary.version,
        percent: canary.percent,
        answer: decision.answer,
        reason: decision.reason,
      });
    }
    return gates;
  }

  /** The gate's answer now for each running canary of `environment` (/metrics' api_rollout_gate). */
  async gatesNow(environment: string): Promise<NonNullable<AdminRollouts['gates']>> {
    return (await this.gates(environment, await this.manifestOrNull(environment))) ?? [];
  }

  // The admin view is a diagnostic: a deployment never written, or one whose stored text no longer parses
  // (edited by hand), shows as none, never as a 500.
  private async manifestOrNull(environment: string): Promise<DeploymentManifest | null> {
    try {
      const state = await this.deployments.state(environment);
      return state.revision === 0 ? null : state.manifest;
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof ManifestError) return null;
      throw error;
    }
  }
}

/** A running canary is shown from its start (up to a week back); otherwise the last day. */
function windowStart(manifest: DeploymentManifest | null, remote: RemotePackage, now: number): number {
  const canary = manifest?.remotes[remote]?.canary;
  const started = canary ? Date.parse(canary.startedAt) : Number.NaN;
  return Number.isFinite(started)
    ? Math.max(now - 7 * DAY_MS, Math.min(started, now - DAY_MS))
    : now - DAY_MS;
}
