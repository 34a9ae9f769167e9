import type { GateReader, RemotePackage, ServerFigures, VisitorFigures } from '@app/rollout';
import type { DeployClient } from './deploy-client';

/**
 * Where `status` and `watch` read what visitors felt, per visitor (docs/decisions/0027-health-gate.md), and
 * what the edges saw of each version's server renders (0043): the deploy API in real use (it reads its own
 * database), a fake in tests of the gate's loop. A source without `server` judges browsers only.
 */
export interface HealthSource {
  visitors(
    remote: RemotePackage,
    version: string,
    since?: Date,
  ): VisitorFigures[] | Promise<VisitorFigures[]>;
  server?(remote: RemotePackage, version: string, since?: Date): ServerFigures | Promise<ServerFigures>;
}

/** The figures of one environment's visitors and edges, over the deploy API (DEPLOY_PATHS.health, .renders). */
export function apiHealthSource(client: DeployClient, environment = client.environment): HealthSource {
  return {
    visitors: async (remote, version, since) =>
      (await client.health(remote, version, since, environment)).visitors,
    server: async (remote, version, since) =>
      (await client.renders(remote, version, since, environment)).figures,
  };
}

/** One remote's figures as the gate reads them (@app/rollout gateNow). */
export function gateReader(source: HealthSource, remote: RemotePackage): GateReader {
  const server = source.server?.bind(source);
  return {
    visitors: (version, since) => source.visitors(remote, version, since),
    ...(server ? { server: (version: string, since: Date) => server(remote, version, since) } : {}),
  };
}
