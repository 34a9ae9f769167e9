import type { RemotePackage, VisitorFigures } from '@app/rollout';
import { RolloutError } from './errors';

/**
 * Where `status` and `watch` read what visitors felt, per visitor (docs/decisions/0027-health-gate.md): the
 * API's database in real use (@app/api-server/rollout-health), a fake in tests.
 */
export interface HealthSource {
  visitors(
    remote: RemotePackage,
    version: string,
    since?: Date,
  ): VisitorFigures[] | Promise<VisitorFigures[]>;
}

export interface ClosableHealthSource extends HealthSource {
  close(): Promise<void>;
}

/**
 * Opens the API's database (DATABASE_URL, else DB_PATH relative to where the command was typed, else the API's default) through
 * the API's own module. Imported on demand: only `status` and `watch` need SQLite.
 */
export async function openApiHealthSource(
  env: Record<string, string | undefined>,
): Promise<ClosableHealthSource> {
  const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split('\n')[0];
  let store: typeof import('@app/api-server/rollout-health');
  try {
    store = await import('@app/api-server/rollout-health');
  } catch (error) {
    throw new RolloutError(
      `cannot load the health reports (@app/api-server/rollout-health): ${firstLine(error)}`,
    );
  }
  try {
    return await store.openRolloutHealthStore(store.databaseFrom(env));
  } catch (error) {
    throw new RolloutError(`cannot open the health reports database: ${firstLine(error)}`);
  }
}
