import type { RenderReport } from '@app/contracts/render-report';
import { NO_SERVER_FIGURES, type RemotePackage, type ServerFigures } from '@app/rollout';
import { RENDER_REPORT_MAX_SKEW_MS, renderReportKey, verifyRenderReport } from '@app/rollout/node';
import type { Sql } from '../db/sql';
import { HEALTH_RETENTION_MS } from './rollout-health';

/**
 * The edges' server renders per environment, remote, version, track and minute
 * (docs/decisions/0043-server-signals-in-the-gate.md): batches signed with the shared secret are summed into
 * one row a minute per version, and read back as one version's figures over a window (the gate's server
 * signals). The one place with this SQL.
 */
const ADD = `INSERT INTO rollout_render_figures
  (environment, remote, version, track, minute, renders, failures, slow, duration_ms)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (environment, remote, version, track, minute) DO UPDATE SET
    renders = rollout_render_figures.renders + excluded.renders,
    failures = rollout_render_figures.failures + excluded.failures,
    slow = rollout_render_figures.slow + excluded.slow,
    duration_ms = rollout_render_figures.duration_ms + excluded.duration_ms`;
const SEEN = 'INSERT INTO rollout_render_batches (id, at) VALUES (?, ?) ON CONFLICT DO NOTHING';
// A version's figures whatever the track: a canary promoted to stable is the same code.
const FIGURES = `SELECT COALESCE(SUM(renders), 0) AS renders, COALESCE(SUM(failures), 0) AS failures,
  COALESCE(SUM(slow), 0) AS slow, COALESCE(SUM(duration_ms), 0) AS "durationMs"
  FROM rollout_render_figures WHERE environment = ? AND remote = ? AND version = ? AND minute >= ?`;
const PRUNE = 'DELETE FROM rollout_render_figures WHERE minute < ?';
const PRUNE_BATCHES = 'DELETE FROM rollout_render_batches WHERE at < ?';
const PRUNE_EVERY_MS = 3600 * 1000;

/** Why a batch was refused (answered 4xx with the reason; nothing of it is stored). */
export class RenderReportRefused extends Error {
  constructor(
    readonly status: 400 | 401 | 409,
    message: string,
  ) {
    super(message);
  }
}

const REFUSED = {
  unsigned: 'the report is not signed (X-Edge-Report-Time and X-Edge-Report-Signature)',
  forged: "the report's signature is not the edges' (EDGE_SECRET must be the same on the edge and the API)",
  stale: `the report's time is more than ${RENDER_REPORT_MAX_SKEW_MS / 60_000} minutes from the API's clock`,
} as const;

export class RenderFiguresService {
  private key: Buffer | null = null;
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sql: Sql,
    private readonly edgeSecret: () => string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws RenderReportRefused unless the body was signed by an edge, now. */
  verify(body: string, time: string | undefined, signature: string | undefined): void {
    this.key ??= renderReportKey(this.edgeSecret());
    const verdict = verifyRenderReport(body, time, signature, this.key, this.now());
    if (!verdict.ok) throw new RenderReportRefused(401, REFUSED[verdict.reason]);
  }

  /** Adds a verified batch, all or nothing; a batch id seen before is refused (409) and adds nothing. */
  async record(report: RenderReport): Promise<void> {
    const now = this.now();
    await this.sql.transaction(async (tx) => {
      if ((await tx.run(SEEN, [report.id, now])) === 0)
        throw new RenderReportRefused(409, `batch ${report.id} was stored already`);
      for (const e of report.entries) {
        await tx.run(ADD, [
          report.environment,
          e.remote,
          e.version,
          e.track,
          e.minute,
          e.renders,
          e.failures,
          e.slow,
          e.durationMs,
        ]);
      }
    });
    if (now - this.lastPrune >= PRUNE_EVERY_MS) await this.prune(now);
  }

  /** One version's renders in one environment from the minute of `since` on (all retained without it). */
  async figures(
    environment: string,
    remote: RemotePackage,
    version: string,
    since?: Date,
  ): Promise<ServerFigures> {
    const minute = since ? Math.floor(since.getTime() / 60_000) : 0;
    const row = await this.sql.get<Record<keyof ServerFigures, number | string>>(FIGURES, [
      environment,
      remote,
      version,
      minute,
    ]);
    if (!row) return NO_SERVER_FIGURES;
    // PostgreSQL's SUM of BIGINT arrives as a string.
    return {
      renders: Number(row.renders),
      failures: Number(row.failures),
      slow: Number(row.slow),
      durationMs: Number(row.durationMs),
    };
  }

  async prune(now = this.now()): Promise<void> {
    await this.sql.run(PRUNE, [Math.floor((now - HEALTH_RETENTION_MS) / 60_000)]);
    // A batch id matters only while its signature is fresh.
    await this.sql.run(PRUNE_BATCHES, [now - 2 * RENDER_REPORT_MAX_SKEW_MS]);
    this.lastPrune = now;
  }
}
