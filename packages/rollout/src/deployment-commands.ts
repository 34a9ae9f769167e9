import { compatMessage, conflictsSummary } from './compat/message';
import type { GateConflict } from './compat/types';
import type { DeploymentManifest, RemoteDeployment } from './manifest';
import type { RemotePackage } from './remotes';

/**
 * The rules of a deployment's changes (docs/decisions/0009-staged-rollouts.md), as pure functions over a
 * draft manifest: which command is allowed when, what it does, and the words of a refusal. The API runs
 * them inside its compare-and-swap transaction (the draft is the stored manifest's copy); they touch no
 * file, clock or database: what they need to know about releases comes in `ctx`.
 * Each mutates the draft and answers what to audit, or throws DeployRefused (the API's 409).
 */
export const MAX_PREVIOUS = 20;

export type DeployAuditAction =
  | 'bootstrap'
  | 'start'
  | 'set'
  | 'promote'
  | 'abort'
  | 'rollback'
  | 'watch-advance'
  | 'watch-promote'
  | 'watch-rollback'
  | 'watch-stop';

/** What a command says about one change; who, when and where are filled in by whoever stores it. */
export interface AuditNote {
  action: DeployAuditAction;
  remote: RemotePackage;
  reason?: string;
  forced?: boolean;
}

export interface DeployCommandContext {
  now: Date;
  /** The environment being changed (its name appears in refusals). */
  environment: string;
  isReleased(remote: RemotePackage, version: string): boolean;
  /** The release's recorded entry digest (sha384-…), null when unknown. */
  integrityOf(remote: RemotePackage, version: string): string | null;
  /** Every release of the remote, newest first. */
  releasedVersions(remote: RemotePackage): string[];
}

/** A command that the deployment's state does not allow, with the reason in today's words. */
export class DeployRefused extends Error {
  override readonly name = 'DeployRefused';
}

/** A remote's state in words, as the audit log and `status` show it. */
export function describeDeployment(deployment: RemoteDeployment | undefined): string | null {
  if (!deployment) return null;
  const { stable, canary } = deployment;
  return canary ? `stable ${stable} · canary ${canary.version} at ${canary.percent} %` : `stable ${stable}`;
}

/** Refuses a version that is not released, saying what is. */
export function requireReleased(ctx: DeployCommandContext, remote: RemotePackage, version: string): void {
  if (ctx.isReleased(remote, version)) return;
  const known = ctx.releasedVersions(remote);
  if (known.length === 0) {
    throw new DeployRefused(
      `${remote} ${version} is not released; ${remote} has no releases yet (pnpm release ${remote})`,
    );
  }
  const shown = known.slice(0, 5).join(', ') + (known.length > 5 ? `, … (${known.length} in all)` : '');
  throw new DeployRefused(`${remote} ${version} is not released; released versions, newest first: ${shown}`);
}

export function deploymentOf(
  manifest: DeploymentManifest,
  remote: RemotePackage,
  environment: string,
): RemoteDeployment {
  const deployment = manifest.remotes[remote];
  if (!deployment) {
    throw new DeployRefused(
      `${remote} has no deployment in "${environment}" yet (pnpm start sets one, or pnpm rollout rollback ${remote} --to <version>)`,
    );
  }
  return deployment;
}

export function canaryOf(deployment: RemoteDeployment, remote: RemotePackage, command: string) {
  if (!deployment.canary) {
    throw new DeployRefused(
      `${remote} has no canary to ${command}; start one with pnpm rollout start ${remote} <version> --percent N`,
    );
  }
  return deployment.canary;
}

/** The start of a canary in `deployment` (shared by start and adopt with a percent). */
export function beginCanary(
  deployment: RemoteDeployment,
  remote: RemotePackage,
  version: string,
  percent: number,
  now: Date,
) {
  if (deployment.stable === version)
    throw new DeployRefused(`${remote} ${version} is already the stable version`);
  if (deployment.canary) {
    const { version: running, percent: at } = deployment.canary;
    throw new DeployRefused(
      `${remote} already has a canary (${running} at ${at} %); promote or abort it first (pnpm rollout abort ${remote})`,
    );
  }
  const at = now.toISOString();
  deployment.canary = { version, percent, startedAt: at, stepStartedAt: at };
}

/**
 * What the compatibility gate found for a version about to reach visitors (the caller runs it against
 * what is live: services/deploy-gate.ts in the API): where it was checked, and the conflicts.
 */
export interface GateResult {
  /** What the version was checked against, for the headline: 'what is live in production'. */
  against: string;
  conflicts: GateConflict[];
}

/** A refusal by the compatibility gate: the API answers it as a CompatRefusal (409 with the conflicts). */
export class CompatRefused extends DeployRefused {
  constructor(
    message: string,
    readonly conflicts: GateConflict[],
  ) {
    super(message);
  }
}

/**
 * The one refusal of the compatibility gate: throws CompatRefused (the message with the ways forward) unless
 * `force`; answers the conflicts gone past (none, or the forced ones).
 */
export function refuseIncompatible(
  subject: string,
  gate: GateResult,
  force: boolean | undefined,
): GateConflict[] {
  if (gate.conflicts.length > 0 && !force) {
    throw new CompatRefused(
      compatMessage(`${subject} is not compatible with ${gate.against}`, gate.conflicts),
      gate.conflicts,
    );
  }
  return gate.conflicts;
}

/** Refuses past conflicts without `force`; with it, the note that says what was gone past. */
export function gateNote(
  subject: string,
  gate: GateResult | undefined,
  force: boolean | undefined,
  verb: string,
): { forced?: true; reason?: string } {
  const forced = gate ? refuseIncompatible(subject, gate, force) : [];
  if (forced.length === 0) return {};
  return { forced: true, reason: `${verb} despite compatibility conflicts: ${conflictsSummary(forced)}` };
}

/** `gate`: the compatibility gate's finding for this release (the caller runs it; none: not gated). */
export function startCanary(
  draft: DeploymentManifest,
  input: { remote: RemotePackage; version: string; percent: number; force?: boolean; gate?: GateResult },
  ctx: DeployCommandContext,
): AuditNote[] {
  const { remote, version, percent } = input;
  requireReleased(ctx, remote, version);
  const forced = gateNote(`${remote} ${version}`, input.gate, input.force, 'started');
  beginCanary(deploymentOf(draft, remote, ctx.environment), remote, version, percent, ctx.now);
  return [{ action: 'start', remote, ...forced }];
}

export function setPercent(
  draft: DeploymentManifest,
  input: { remote: RemotePackage; percent: number },
  ctx: DeployCommandContext,
): AuditNote[] {
  const canary = canaryOf(deploymentOf(draft, input.remote, ctx.environment), input.remote, 'set');
  canary.percent = input.percent;
  // A new share of visitors is a new sample: the health gate's window starts again.
  canary.stepStartedAt = ctx.now.toISOString();
  return [{ action: 'set', remote: input.remote }];
}

/** The canary becomes stable; the old stable goes to the front of `previous` (rollback's first target). */
export function promoteDeployment(deployment: RemoteDeployment, remote: RemotePackage): void {
  const canary = canaryOf(deployment, remote, 'promote');
  const previous = [deployment.stable, ...deployment.previous.filter((v) => v !== deployment.stable)];
  deployment.previous = previous.filter((v) => v !== canary.version).slice(0, MAX_PREVIOUS);
  deployment.stable = canary.version;
  delete deployment.canary;
}

/** Gated again (`gate`: the canary's finding now): the shell may have changed since the canary started. */
export function promote(
  draft: DeploymentManifest,
  input: { remote: RemotePackage; force?: boolean; gate?: GateResult },
  ctx: DeployCommandContext,
): AuditNote[] {
  const deployment = deploymentOf(draft, input.remote, ctx.environment);
  const canary = canaryOf(deployment, input.remote, 'promote');
  const forced = gateNote(`${input.remote} ${canary.version}`, input.gate, input.force, 'promoted');
  promoteDeployment(deployment, input.remote);
  return [{ action: 'promote', remote: input.remote, ...forced }];
}

export function abort(
  draft: DeploymentManifest,
  input: { remote: RemotePackage },
  ctx: DeployCommandContext,
): AuditNote[] {
  const deployment = deploymentOf(draft, input.remote, ctx.environment);
  canaryOf(deployment, input.remote, 'abort');
  delete deployment.canary;
  return [{ action: 'abort', remote: input.remote }];
}

/**
 * Without `to`: back to previous[0], which leaves `previous` (the version rolled back from is not kept as a
 * target: it is the one that went wrong). With `to`: any released version, also the first stable of a remote
 * that has none. Either way any canary is dropped.
 */
export function rollback(
  draft: DeploymentManifest,
  input: { remote: RemotePackage; to?: string; force?: boolean; gate?: GateResult },
  ctx: DeployCommandContext,
): AuditNote[] {
  const { remote, to } = input;
  const current = draft.remotes[remote];
  if (to) {
    requireReleased(ctx, remote, to);
    if (current?.stable === to && !current.canary)
      throw new DeployRefused(`${remote} ${to} is already the stable version`);
    // A named version may never have run with this shell; back to the previous stable (below) is the
    // emergency exit and is not gated.
    const forced = gateNote(`${remote} ${to}`, input.gate, input.force, 'rolled back');
    draft.remotes[remote] = { stable: to, previous: (current?.previous ?? []).filter((v) => v !== to) };
    return [{ action: 'rollback', remote, ...forced }];
  }
  const deployment = deploymentOf(draft, remote, ctx.environment);
  const [target, ...rest] = deployment.previous;
  if (!target) {
    throw new DeployRefused(
      `${remote} has no previous stable version to roll back to; name one with --to <version>`,
    );
  }
  requireReleased(ctx, remote, target);
  draft.remotes[remote] = { stable: target, previous: rest };
  return [{ action: 'rollback', remote }];
}
