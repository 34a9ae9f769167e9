import fs from 'node:fs';
import path from 'node:path';
import {
  type DEPLOY_BODIES,
  type DeployVerb,
  type SharedInfo,
  SharedInfoSchema,
} from '@app/contracts/deploy';
import {
  abort,
  adopt,
  bootstrap,
  type DeploymentManifest,
  type GateResult,
  promote,
  type RemotePackage,
  rollback,
  setPercent,
  startCanary,
  watchStep,
} from '@app/rollout';
import { releaseDir } from '@app/rollout/node';
import * as v from 'valibot';
import type { Sql } from '../db/sql';
import { compatibilityGate } from './deploy-compat';
import type { DeployApply } from './deployments';

export type DeployBody<V extends DeployVerb> = v.InferOutput<(typeof DEPLOY_BODIES)[V]>;

/** What a verb needs besides its body: the source environment's manifest (adopt) and the gate's finding. */
export interface CommandExtras {
  source?: { environment: string; manifest: DeploymentManifest };
  gate?: GateResult;
}

/** The pure rule of each verb (@app/rollout) as the change DeploymentService runs in its transaction. */
export function commandOf(
  verb: DeployVerb,
  remote: RemotePackage,
  body: DeployBody<DeployVerb>,
  extras: CommandExtras,
): DeployApply {
  return (draft, ctx) => {
    switch (verb) {
      case 'start': {
        const b = body as DeployBody<'start'>;
        return startCanary(draft, { remote, ...b, gate: extras.gate }, ctx);
      }
      case 'set':
        return setPercent(draft, { remote, ...(body as DeployBody<'set'>) }, ctx);
      case 'promote':
        return promote(draft, { remote }, ctx);
      case 'abort':
        return abort(draft, { remote }, ctx);
      case 'rollback':
        return rollback(draft, { remote, ...(body as DeployBody<'rollback'>) }, ctx);
      case 'bootstrap':
        return bootstrap(draft, { remote, ...(body as DeployBody<'bootstrap'>) }, ctx);
      case 'watch':
        return watchStep(draft, { remote, ...(body as DeployBody<'watch'>) }, ctx);
      case 'adopt': {
        const b = body as DeployBody<'adopt'>;
        const source = extras.source as NonNullable<CommandExtras['source']>;
        return adopt(
          draft,
          { remote, ...b, from: source.environment, source: source.manifest, gate: extras.gate },
          ctx,
        );
      }
    }
  };
}

const SharedListSchema = v.object({ shared: v.array(SharedInfoSchema) });

/** The release's `shared` list (deploy_releases, else its release.json in the store); null when unknown. */
async function sharedOf(sql: Sql, store: string, remote: RemotePackage, version: string) {
  const text =
    (await sql.value<string>(
      'SELECT info_json FROM deploy_releases WHERE remote = @remote AND version = @version',
      {
        remote,
        version,
      },
    )) ?? readReleaseJson(store, remote, version);
  if (!text) return null;
  try {
    const parsed = v.safeParse(SharedListSchema, JSON.parse(text));
    return parsed.success ? (parsed.output.shared as SharedInfo[]) : null;
  } catch {
    return null;
  }
}

function readReleaseJson(store: string, remote: RemotePackage, version: string): string | null {
  try {
    return fs.readFileSync(path.join(releaseDir(store, remote, version), 'release.json'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * The compatibility gate for a version about to reach visitors (start, adopt): against the live shell's
 * manifest. An unknown release is not gated here: the command refuses it as not released.
 */
export async function gateFor(
  sql: Sql,
  store: string,
  shellManifest: string,
  remote: RemotePackage,
  version: string,
): Promise<GateResult | undefined> {
  const shared = await sharedOf(sql, store, remote, version);
  return shared ? compatibilityGate(shared, shellManifest) : undefined;
}
