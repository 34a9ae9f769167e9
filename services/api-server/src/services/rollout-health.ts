import type { HealthEvent, HealthRefusal } from '@app/contracts';
import {
  type HealthKind,
  isServerKind,
  type RemotePackage,
  type SignalRow,
  type VisitorFigures,
  type VisitorSample,
  visitorSample,
} from '@app/rollout';
import { type HealthTicket, trackInTicket } from '@app/rollout/node';
import type { Sql } from '../db/sql';

export const HEALTH_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** Pruning runs at most this often, and deletes at most PRUNE_BATCH rows a run, so a report never waits long. */
const PRUNE_EVERY_MS = 3600 * 1000;
const PRUNE_BATCH = 5000;
/** The most rows one read of a remote's window takes (a chart or a gate tick): the newest are kept. */
const WINDOW_ROWS = 200_000;

/** A report that must not count, and why (docs/decisions/0027-health-gate.md). */
export class HealthRefused extends Error {
  constructor(readonly reason: HealthRefusal) {
    super(reason);
  }
}

const INSERT = `INSERT INTO rollout_health_signals
  (environment, remote, version, track, kind, value, visitor, address, ticket, at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
const REFUSE = `INSERT INTO rollout_health_refusals (reason, minute, count) VALUES (?, ?, 1)
  ON CONFLICT (reason, minute) DO UPDATE SET count = rollout_health_refusals.count + 1`;
const REFUSALS_SINCE = `SELECT reason, SUM(count) AS "count" FROM rollout_health_refusals
  WHERE minute >= ? GROUP BY reason ORDER BY reason`;
// Every read is one environment's: a staging page view says nothing about production (issue 44).
const VERSION_ROWS = `SELECT visitor, address, ticket, kind, value FROM rollout_health_signals
  WHERE environment = ? AND remote = ? AND version = ? AND at >= ? ORDER BY at DESC LIMIT ${WINDOW_ROWS}`;
const REMOTE_ROWS = `SELECT version, track, visitor, address, ticket, kind, value, at FROM rollout_health_signals
  WHERE environment = ? AND remote = ? AND at >= ? ORDER BY at DESC LIMIT ${WINDOW_ROWS}`;
const PRUNE = `DELETE FROM rollout_health_signals WHERE id IN
  (SELECT id FROM rollout_health_signals WHERE at < ? ORDER BY at LIMIT ${PRUNE_BATCH})`;
const PRUNE_REFUSALS = 'DELETE FROM rollout_health_refusals WHERE minute < ?';

export interface RemoteSignalRow extends SignalRow {
  version: string;
  track: 'stable' | 'canary' | 'preview';
  at: number;
}

/**
 * What visitors felt, per remote and version: the one place with the SQL of health reports, used by the
 * API's report route and admin view, and by the deploy API's health route (what `rollout status` and `watch` read).
 */
export class RolloutHealthService {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sql: Sql,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Stores one page view's events, all or none, in its ticket's environment with its address pseudonym.
   * Every event must be on a version its ticket names (else `mismatched`), of a kind a browser may report
   * (else `server-only`), and each kind counts once per ticket and version (a second time is `replayed`,
   * whichever instance stored the first: the unique index decides). With them go the ticket's own
   * server-render failures (renderFailureRows).
   */
  async record(ticket: HealthTicket, events: HealthEvent[]): Promise<void> {
    if (events.some((e) => isServerKind(e.kind))) throw new HealthRefused('server-only');
    const at = this.now();
    const row = rowOf(ticket, at);
    const reported = events.map((e) => {
      const track = trackInTicket(ticket, e.remote, e.version);
      if (!track) throw new HealthRefused('mismatched');
      return row(e.remote, e.version, track, e.kind, e.value ?? null);
    });
    const keys = new Set(events.map((e) => `${e.remote}\n${e.version}\n${e.kind}`));
    if (keys.size !== events.length) throw new HealthRefused('replayed');
    await this.sql.transaction(async (tx) => {
      for (const values of reported) {
        if ((await tx.run(INSERT, values)) === 0) throw new HealthRefused('replayed');
      }
      // Stored already by the page view's first report, they conflict and are skipped: not a replay.
      for (const values of renderFailureRows(ticket, row)) await tx.run(INSERT, values);
    });
    if (at - this.lastPrune >= PRUNE_EVERY_MS) await this.prune(at);
  }

  /** Counts a refused report (per reason and minute). */
  async refuse(reason: HealthRefusal): Promise<void> {
    await this.sql.run(REFUSE, [reason, Math.floor(this.now() / 60_000)]);
  }

  async refusals(sinceMs: number): Promise<Array<{ reason: HealthRefusal; count: number }>> {
    const rows = await this.sql.all<{ reason: HealthRefusal; count: number | string }>(REFUSALS_SINCE, [
      Math.floor(sinceMs / 60_000),
    ]);
    return rows.map((r) => ({ reason: r.reason, count: Number(r.count) }));
  }

  /**
   * Per visitor, what one version's page views felt in one environment from `since` on, with at most
   * ADDRESS_VISITOR_CAP visitors per address group (@app/rollout visitorSample).
   */
  async sample(
    environment: string,
    remote: RemotePackage,
    version: string,
    since?: Date,
  ): Promise<VisitorSample> {
    const rows = await this.sql.all<SignalRow>(VERSION_ROWS, [
      environment,
      remote,
      version,
      since ? since.getTime() : 0,
    ]);
    return visitorSample(rows.map(numericValue));
  }

  async visitors(
    environment: string,
    remote: RemotePackage,
    version: string,
    since?: Date,
  ): Promise<VisitorFigures[]> {
    return (await this.sample(environment, remote, version, since)).visitors;
  }

  /** Every report on one remote in one environment from `since` on, newest first (bounded), for the charts. */
  async remoteRows(environment: string, remote: RemotePackage, since: number): Promise<RemoteSignalRow[]> {
    const rows = await this.sql.all<RemoteSignalRow>(REMOTE_ROWS, [environment, remote, since]);
    return rows.map((r) => ({ ...numericValue(r), at: Number(r.at) }));
  }

  /** Deletes one batch of reports older than the retention; a full batch leaves the next record to go on. */
  async prune(now = this.now()): Promise<number> {
    const deleted = await this.sql.run(PRUNE, [now - HEALTH_RETENTION_MS]);
    await this.sql.run(PRUNE_REFUSALS, [Math.floor((now - HEALTH_RETENTION_MS) / 60_000)]);
    this.lastPrune = deleted < PRUNE_BATCH ? now : Number.NEGATIVE_INFINITY;
    return deleted;
  }
}

type Track = RemoteSignalRow['track'];
type RowOf = (
  remote: RemotePackage,
  version: string,
  track: Track,
  kind: HealthKind,
  value: number | null,
) => unknown[];

/** INSERT's values for one event of this page view: its environment, visitor, address and ticket. */
const rowOf =
  (ticket: HealthTicket, at: number): RowOf =>
  (remote, version, track, kind, value) => [
    ticket.environment,
    remote,
    version,
    track,
    kind,
    value,
    ticket.visitor,
    ticket.address,
    ticket.id,
    at,
  ];

/**
 * A `server-render-failure` for each remote whose first screen the edge could not render for this page view
 * (the ticket says so, signed), charged to the version the ticket served it: a browser can neither claim one
 * nor leave one out. A remote the ticket does not serve has no version to charge.
 */
function renderFailureRows(ticket: HealthTicket, row: RowOf): unknown[][] {
  return ticket.renderFailures.flatMap((remote) => {
    const served = ticket.remotes[remote];
    return served ? [row(remote, served.version, served.track, 'server-render-failure', null)] : [];
  });
}

// PostgreSQL's DOUBLE PRECISION arrives as a number, SQLite's REAL too; a NULL stays null.
function numericValue<T extends { kind: HealthKind; value: number | string | null }>(row: T): T & SignalRow {
  return { ...row, value: row.value === null ? null : Number(row.value) } as T & SignalRow;
}
