import type { RemotePackage, VisitorFigures } from '@app/rollout';
import type { DeployClient } from './deploy-client';

/**
 * Where `status` and `watch` read what visitors felt, per visitor (docs/decisions/0027-health-gate.md): the
 * deploy API in real use (it reads its own database), a fake in tests of the gate's loop.
 */
export interface HealthSource {
  visitors(
    remote: RemotePackage,
    version: string,
    since?: Date,
  ): VisitorFigures[] | Promise<VisitorFigures[]>;
}

/** The figures of one environment's visitors, over the deploy API (DEPLOY_PATHS.health). */
export function apiHealthSource(client: DeployClient, environment = client.environment): HealthSource {
  return {
    visitors: async (remote, version, since) =>
      (await client.health(remote, version, since, environment)).visitors,
  };
}
