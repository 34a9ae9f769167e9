import { type RolloutHealthReport, RolloutHealthReportSchema, type RolloutHealthRow } from '@app/contracts';
import type { HealthCounts, RemotePackage } from '@app/rollout';
import * as v from 'valibot';
import { type Config, databaseFrom, dbPathFrom } from './config';
import { migrate, openDatabase } from './db/database';
import { RolloutHealthService } from './services/rollout-health';

export { databaseFrom, dbPathFrom };

export interface RolloutHealthStore {
  /** Events of one remote's version, from `since` on (all retained events without it). */
  counts(remote: RemotePackage, version: string, since?: Date): Promise<HealthCounts>;
  summary(): Promise<RolloutHealthRow[]>;
  /** Validates and stores one report (throws on an invalid one). */
  record(report: RolloutHealthReport, at?: Date): Promise<void>;
  close(): Promise<void>;
}

/**
 * The health events of staged rollouts for the rollout CLI (`@app/api-server/rollout-health`): the API's
 * database (DATABASE_URL or DB_PATH, read like the server reads them, unless a SQLite file is given),
 * migrated, through the same service as the API's routes. Safe beside a running server: SQLite in WAL mode
 * with a busy timeout, or PostgreSQL.
 */
export async function openRolloutHealthStore(
  where: string | Pick<Config, 'dbPath' | 'databaseUrl'> = databaseFrom(process.env),
): Promise<RolloutHealthStore> {
  const sql = openDatabase(typeof where === 'string' ? { dbPath: where, databaseUrl: null } : where);
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  const health = new RolloutHealthService(sql);
  return {
    counts: (remote, version, since) => health.counts(remote, version, since),
    summary: () => health.summary(),
    record: async (report, at) => health.record(v.parse(RolloutHealthReportSchema, report), at),
    close: () => sql.close(),
  };
}
