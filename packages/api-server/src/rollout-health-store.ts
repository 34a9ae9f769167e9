import type { HealthEvent } from '@app/contracts';
import type { RemotePackage, VisitorFigures } from '@app/rollout';
import type { HealthTicket } from '@app/rollout/node';
import { type Config, databaseFrom, dbPathFrom } from './config';
import { migrate, openDatabase } from './db/database';
import { RolloutHealthService } from './services/rollout-health';

export { databaseFrom, dbPathFrom };

export interface RolloutHealthStore {
  /** Per visitor, what one remote's version felt from `since` on (all retained reports without it). */
  visitors(remote: RemotePackage, version: string, since?: Date): Promise<VisitorFigures[]>;
  /** Stores one page view's verified report, as the API's route does after checking its ticket. */
  record(ticket: HealthTicket, events: HealthEvent[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * What visitors felt, per version, for the rollout CLI's gate and status (`@app/api-server/rollout-health`): the API's
 * database (DATABASE_URL or DB_PATH, read like the server reads them, unless a SQLite file is given),
 * migrated, through the same service as the API's routes. Safe beside a running server: SQLite in WAL mode
 * with a busy timeout, or PostgreSQL.
 */
export async function openRolloutHealthStore(
  where: string | Pick<Config, 'dbPath' | 'databaseUrl'> = databaseFrom(process.env),
  { now = Date.now }: { now?: () => number } = {},
): Promise<RolloutHealthStore> {
  const sql = openDatabase(typeof where === 'string' ? { dbPath: where, databaseUrl: null } : where);
  try {
    await migrate(sql);
  } catch (error) {
    await sql.close();
    throw error;
  }
  const health = new RolloutHealthService(sql, now);
  return {
    visitors: (remote, version, since) => health.visitors(remote, version, since),
    record: (ticket, events) => health.record(ticket, events),
    close: () => sql.close(),
  };
}
