import { setTimeout as delay } from 'node:timers/promises';
import {
  type Canary,
  DEFAULT_GATE,
  decideStep,
  type GateDecision,
  type GatePolicy,
  type RemoteDeployment,
  type RemotePackage,
  versionSignals,
} from '@app/rollout';
import { appendAudit, auditEntry, describeDeployment } from './audit';
import { promoteDeployment } from './commands';
import type { RolloutContext } from './context';
import { RolloutError } from './errors';
import type { HealthSource } from './health';
import { LockHeldError } from './lock';
import { readManifest, updateManifest } from './manifest-store';

/**
 * `rollout watch`: a health-gated rollout (docs/decisions/0027-health-gate.md). Each tick compares what the
 * canary's visitors felt with what stable's felt since the current step began (decideStep: error rate and
 * p75 LCP, INP, CLS, per visitor), then waits (extends the step), moves to the next step, promotes after the
 * last one, or rolls back. Every move is an ordinary audited manifest write that first checks the canary is
 * still the one being watched, so a person's `set`, `abort` or `promote` meanwhile stops the watch instead of
 * being overwritten. A step that gets no decision within --max-wait is stopped, with the reason audited.
 */
export const DEFAULT_STEPS = [1, 10, 50, 100];

export interface WatchOptions {
  remote: RemotePackage;
  steps?: number[];
  intervalMs?: number;
  gate?: GatePolicy;
  /** Stop (leaving the canary where it is, audited) when one step gets no decision for this long. */
  maxWaitMs?: number;
}

export type WatchResult =
  | { outcome: 'promoted'; version: string }
  | { outcome: 'rolled-back'; version: string; reason: string }
  | { outcome: 'stopped'; version: string; reason: string };

type Watched = Pick<Canary, 'version' | 'percent' | 'stepStartedAt'>;

const isWatched = (canary: Canary | undefined, watched: Watched): canary is Canary =>
  !!canary &&
  canary.version === watched.version &&
  canary.percent === watched.percent &&
  canary.stepStartedAt === watched.stepStartedAt;

function changedError(remote: RemotePackage, watched: Watched, now: Canary | undefined): RolloutError {
  const what = now
    ? `it is now ${now.version} at ${now.percent} % (step since ${now.stepStartedAt})`
    : 'it has no canary any more';
  return new RolloutError(
    `stopped watching ${remote}: the canary ${watched.version} at ${watched.percent} % was changed by someone else; ${what}`,
  );
}

export async function watch(
  ctx: RolloutContext,
  health: HealthSource,
  options: WatchOptions,
  sleep: (ms: number) => Promise<unknown> = delay,
): Promise<WatchResult> {
  const { remote } = options;
  const steps = options.steps ?? DEFAULT_STEPS;
  const gate = options.gate ?? DEFAULT_GATE;
  const intervalMs = options.intervalMs ?? 30_000;
  const first = readManifest(ctx.paths).remotes[remote]?.canary;
  if (!first) {
    throw new RolloutError(
      `${remote} has no canary to watch; start one with pnpm rollout start ${remote} <version> --percent N`,
    );
  }
  let watched: Watched = {
    version: first.version,
    percent: first.percent,
    stepStartedAt: first.stepStartedAt,
  };
  let waitingSince = ctx.now().getTime();
  const log = (line: string) => ctx.log(`${ctx.now().toISOString().slice(11, 19)} ${remote} ${line}`);
  log(`watching canary ${watched.version} at ${watched.percent} %, steps ${steps.join(' → ')} %`);

  /**
   * A manifest write that only happens if the canary is still the one watched. Null when another command
   * holds the lock this moment: the next tick looks again (and sees whatever that command did).
   */
  const change = (
    note: { action: 'watch-advance' | 'watch-promote' | 'watch-rollback'; reason: string },
    apply: (canary: Canary, deployment: RemoteDeployment, now: Date) => void,
  ) => {
    try {
      return updateManifest(
        ctx.paths,
        (manifest, now) => {
          const deployment = manifest.remotes[remote];
          if (!deployment || !isWatched(deployment.canary, watched))
            throw changedError(remote, watched, deployment?.canary);
          apply(deployment.canary, deployment, now);
          return { action: note.action, remote, reason: note.reason };
        },
        ctx,
      );
    } catch (error) {
      if (!(error instanceof LockHeldError)) throw error;
      log(`${error.message}; trying again in ${intervalMs / 1000} s`);
      return null;
    }
  };

  /**
   * The step's figures of both tracks. Stable is read over the same window; at the last steps it may have
   * too few visitors left (none at 100 %), and is then read over the whole rollout instead, said so.
   */
  const judge = async (deployment: RemoteDeployment, canary: Canary): Promise<GateDecision> => {
    if (watched.percent === 0)
      return { action: 'advance', reason: 'no visitor gets the canary at 0 %', signals: [] };
    const since = new Date(watched.stepStartedAt);
    const canaryVisitors = await health.visitors(remote, watched.version, since);
    let stableVisitors = await health.visitors(remote, deployment.stable, since);
    let note = '';
    if (stableVisitors.length < gate.minVisitors && canary.startedAt !== canary.stepStartedAt) {
      stableVisitors = await health.visitors(remote, deployment.stable, new Date(canary.startedAt));
      note = ' (stable over the whole rollout: too few stable visitors this step)';
    }
    const decision = decideStep(
      versionSignals(canaryVisitors, gate.confidence),
      versionSignals(stableVisitors, gate.confidence),
      gate,
    );
    return { ...decision, reason: `${decision.reason}${note}` };
  };

  for (;;) {
    const deployment = readManifest(ctx.paths).remotes[remote];
    if (!deployment || !isWatched(deployment.canary, watched))
      throw changedError(remote, watched, deployment?.canary);
    const decision = await judge(deployment, deployment.canary);

    if (decision.action === 'rollback') {
      const done = change({ action: 'watch-rollback', reason: decision.reason }, (_canary, d) => {
        delete d.canary;
      });
      if (done) {
        log(`rolled back: ${decision.reason}; stable stays ${deployment.stable}`);
        return { outcome: 'rolled-back', version: watched.version, reason: decision.reason };
      }
    } else if (decision.action === 'advance') {
      const next = steps.find((step) => step > watched.percent);
      if (next === undefined) {
        const done = change({ action: 'watch-promote', reason: decision.reason }, (_canary, d) =>
          promoteDeployment(d, remote),
        );
        if (done) {
          log(`promoted ${watched.version} to stable: ${decision.reason}`);
          return { outcome: 'promoted', version: watched.version };
        }
      } else {
        const reason = `${decision.reason}; ${watched.percent} % → ${next} %`;
        const done = change({ action: 'watch-advance', reason }, (c, _d, now) => {
          c.percent = next;
          c.stepStartedAt = now.toISOString();
        });
        if (done) {
          const moved = done.manifest.remotes[remote]?.canary as Canary;
          watched = { version: moved.version, percent: moved.percent, stepStartedAt: moved.stepStartedAt };
          waitingSince = ctx.now().getTime();
          log(`advanced: ${reason}`);
        }
      }
    } else {
      log(`${watched.percent} %: ${decision.reason}`);
      if (options.maxWaitMs !== undefined && ctx.now().getTime() - waitingSince >= options.maxWaitMs) {
        const reason = `no decision within ${options.maxWaitMs / 1000} s at ${watched.percent} %: ${decision.reason}; the canary stays as it is`;
        const state = describeDeployment(deployment);
        appendAudit(ctx.paths.auditFile, [
          auditEntry(
            { action: 'watch-stop', remote, reason, from: state, to: state },
            { environment: ctx.paths.environment, actor: ctx.actor, at: ctx.now() },
          ),
        ]);
        log(`stopped: ${reason}`);
        return { outcome: 'stopped', version: watched.version, reason };
      }
    }
    await sleep(intervalMs);
  }
}
