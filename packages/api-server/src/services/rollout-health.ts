import type { RolloutHealthReport, RolloutHealthRow } from '@app/contracts';
import type { HealthCounts, RemotePackage } from '@app/rollout';
import type { Sql } from '../db/sql';

export const HEALTH_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** Pruning runs at most this often, and deletes at most PRUNE_BATCH rows a run, so a report never waits long. */
const PRUNE_EVERY_MS = 3600 * 1000;
const PRUNE_BATCH = 5000;

interface CountRow {
  loads: number | null;
  loadFailures: number | null;
  renderErrors: number | null;
}

const COUNT_COLUMNS = `
  SUM(CASE WHEN event = 'load' THEN 1 ELSE 0 END) AS "loads",
  SUM(CASE WHEN event = 'load-failure' THEN 1 ELSE 0 END) AS "loadFailures",
  SUM(CASE WHEN event = 'render-error' THEN 1 ELSE 0 END) AS "renderErrors"`;

const INSERT =
  'INSERT INTO rollout_health_events (remote, version, track, event, ms, at) VALUES (?, ?, ?, ?, ?, ?)';
const COUNT_SINCE = `SELECT ${COUNT_COLUMNS} FROM rollout_health_events WHERE remote = ? AND version = ? AND at >= ?`;
const SUMMARY = `SELECT remote, version, ${COUNT_COLUMNS}, MAX(at) AS "lastAt"
  FROM rollout_health_events GROUP BY remote, version ORDER BY remote, "lastAt" DESC`;
const PRUNE = `DELETE FROM rollout_health_events WHERE id IN
  (SELECT id FROM rollout_health_events WHERE at < ? ORDER BY at LIMIT ${PRUNE_BATCH})`;

/**
 * The health events of staged rollouts: the one place with their SQL, used by the API's health route and
 * admin view, and by the rollout CLI's health gate (through openRolloutHealthStore, on the same file).
 */
export class RolloutHealthService {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(private readonly sql: Sql) {}

  async record(report: RolloutHealthReport, at: Date = new Date()): Promise<void> {
    await this.sql.run(INSERT, [
      report.remote,
      report.version,
      report.track,
      report.event,
      report.ms ?? null,
      at.getTime(),
    ]);
    const now = Date.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) await this.prune(now);
  }

  async counts(remote: RemotePackage, version: string, since?: Date): Promise<HealthCounts> {
    const row = (await this.sql.get<CountRow>(COUNT_SINCE, [remote, version, since ? since.getTime() : 0]))!;
    return {
      loads: row.loads ?? 0,
      loadFailures: row.loadFailures ?? 0,
      renderErrors: row.renderErrors ?? 0,
    };
  }

  /** Per remote and version over the retained events, each remote's most recently reported version first. */
  async summary(): Promise<RolloutHealthRow[]> {
    const rows = await this.sql.all<CountRow & { remote: RemotePackage; version: string; lastAt: number }>(
      SUMMARY,
    );
    return rows.map((r) => ({
      remote: r.remote,
      version: r.version,
      loads: r.loads ?? 0,
      loadFailures: r.loadFailures ?? 0,
      renderErrors: r.renderErrors ?? 0,
      lastAt: new Date(r.lastAt).toISOString(),
    }));
  }

  /** Deletes one batch of events older than the retention; a full batch leaves the next record to go on. */
  async prune(now = Date.now()): Promise<number> {
    const deleted = await this.sql.run(PRUNE, [now - HEALTH_RETENTION_MS]);
    this.lastPrune = deleted < PRUNE_BATCH ? now : Number.NEGATIVE_INFINITY;
    return deleted;
  }
}
