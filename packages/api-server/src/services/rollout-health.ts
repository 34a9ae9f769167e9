import type { RolloutHealthReport, RolloutHealthRow } from '@app/contracts';
import type { HealthCounts, RemotePackage } from '@app/rollout';
import type { DB } from '../db/database';

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
  SUM(event = 'load') AS loads,
  SUM(event = 'load-failure') AS loadFailures,
  SUM(event = 'render-error') AS renderErrors`;

/**
 * The health events of staged rollouts: the one place with their SQL, used by the API's health route and
 * admin view, and by the rollout CLI's health gate (through openRolloutHealthStore, on the same file).
 */
export class RolloutHealthService {
  private lastPrune = Number.NEGATIVE_INFINITY;
  private readonly insert;
  private readonly countSince;
  private readonly summaryAll;
  private readonly pruneBatch;

  constructor(db: DB) {
    this.insert = db.prepare(
      'INSERT INTO rollout_health_events (remote, version, track, event, ms, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.countSince = db.prepare(
      `SELECT ${COUNT_COLUMNS} FROM rollout_health_events WHERE remote = ? AND version = ? AND at >= ?`,
    );
    this.summaryAll = db.prepare(
      `SELECT remote, version, ${COUNT_COLUMNS}, MAX(at) AS lastAt
       FROM rollout_health_events GROUP BY remote, version ORDER BY remote, lastAt DESC`,
    );
    this.pruneBatch = db.prepare(
      `DELETE FROM rollout_health_events WHERE id IN
         (SELECT id FROM rollout_health_events WHERE at < ? ORDER BY at LIMIT ${PRUNE_BATCH})`,
    );
  }

  record(report: RolloutHealthReport, at: Date = new Date()): void {
    this.insert.run(
      report.remote,
      report.version,
      report.track,
      report.event,
      report.ms ?? null,
      at.getTime(),
    );
    const now = Date.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) this.prune(now);
  }

  counts(remote: RemotePackage, version: string, since?: Date): HealthCounts {
    const row = this.countSince.get(remote, version, since ? since.getTime() : 0) as CountRow;
    return {
      loads: row.loads ?? 0,
      loadFailures: row.loadFailures ?? 0,
      renderErrors: row.renderErrors ?? 0,
    };
  }

  /** Per remote and version over the retained events, each remote's most recently reported version first. */
  summary(): RolloutHealthRow[] {
    const rows = this.summaryAll.all() as (CountRow & {
      remote: RemotePackage;
      version: string;
      lastAt: number;
    })[];
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
  prune(now = Date.now()): number {
    const deleted = this.pruneBatch.run(now - HEALTH_RETENTION_MS).changes;
    this.lastPrune = deleted < PRUNE_BATCH ? now : Number.NEGATIVE_INFINITY;
    return deleted;
  }
}
