import type { DEPLOY_BODIES, DeployVerb } from '@app/contracts/deploy';
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
import type * as v from 'valibot';
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
        return promote(draft, { remote, ...(body as DeployBody<'promote'>), gate: extras.gate }, ctx);
      case 'abort':
        return abort(draft, { remote }, ctx);
      case 'rollback':
        return rollback(draft, { remote, ...(body as DeployBody<'rollback'>), gate: extras.gate }, ctx);
      case 'bootstrap':
        return bootstrap(draft, { remote, ...(body as DeployBody<'bootstrap'>), gate: extras.gate }, ctx);
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

/**
 * The version a command brings to visitors, which the compatibility gate checks first: start's and adopt's,
 * the canary promote makes stable (again: the shell may have changed since it started), the version a
 * rollback names, the one bootstrap would make stable. Null: the command brings none (set, abort, watch,
 * rollback to the previous stable: the emergency exit).
 */
export function gatedVersion(
  verb: DeployVerb,
  remote: RemotePackage,
  body: DeployBody<DeployVerb>,
  manifest: DeploymentManifest,
): string | null {
  switch (verb) {
    case 'start':
    case 'adopt':
    case 'bootstrap':
      return (body as { version: string }).version;
    case 'promote':
      return manifest.remotes[remote]?.canary?.version ?? null;
    case 'rollback':
      return (body as DeployBody<'rollback'>).to ?? null;
    default:
      return null;
  }
}
