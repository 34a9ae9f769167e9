import { setTimeout as delay } from 'node:timers/promises';
import type { DeployChangeResult, DeployState } from '@app/contracts/deploy';
import {
  type Canary,
  DEFAULT_GATE,
  type GateDecision,
  type GatePolicy,
  gateNow,
  type RemoteDeployment,
  type RemotePackage,
} from '@app/rollout';
import type { RolloutContext } from './context';
import { DeployApiError, type VerbBody } from './deploy-client';
import { RolloutError } from './errors';
import { gateReader, type HealthSource } from './health';

/**
 * `rollout watch`: a health-gated rollout (docs/decisions/0027-health-gate.md). Each tick reads the
 * environment over the deploy API, compares what the canary's visitors felt with what stable's felt since
 * the current step began (gateNow → decideStep: error rate and p75 LCP, INP, CLS, per visitor, and the edges'
 * server render failures and slow renders, docs/decisions/0043), then waits (extends the step), moves to the next step, promotes after the last one, or rolls back. Every move is the `watch`
 * verb sent with If-Match: the revision it judged. When the deployment moved on meanwhile (412) it reads
 * again: if its canary is as it was (someone changed another remote) it sends the move again; if not, a
 * person's `set`, `abort` or `promote` stands and the watch stops. A step that gets no decision within
 * --max-wait is stopped, with the reason audited (step 'stop').
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

/** The canary is not the one watched any more: someone else's change stands, the watch ends. */
class CanaryChangedError extends RolloutError {}

function changedError(remote: RemotePackage, watched: Watched, now: Canary | undefined): RolloutError {
  const what = now
    ? `it is now ${now.version} at ${now.percent} % (step since ${now.stepStartedAt})`
    : 'it has no canary any more';
  return new CanaryChangedError(
    `stopped watching ${remote}: the canary ${watched.version} at ${watched.percent} % was changed by someone else; ${what}`,
  );
}

/** Reads that fail this many times in a row (the API restarting, the network) end the watch. */
const MAX_READ_FAILURES = 5;

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
  let state: DeployState = await ctx.client.state();
  const first = state.manifest.remotes[remote]?.canary;
  if (!first) {
    throw new RolloutError(
      `${remote} has no canary to watch in "${state.environment}"; start one with pnpm rollout start ${remote} <version> --percent N`,
    );
  }
  let watched: Watched = {
    version: first.version,
    percent: first.percent,
    stepStartedAt: first.stepStartedAt,
  };
  let waitingSince = ctx.now().getTime();
  const log = (line: string) => ctx.log(`${ctx.now().toISOString().slice(11, 19)} ${remote} ${line}`);
  log(
    `watching canary ${watched.version} at ${watched.percent} % in "${state.environment}", steps ${steps.join(' → ')} %`,
  );

  /** One move, against the revision judged; a 412 caused by another remote's change is sent again. */
  const move = async (body: VerbBody<'watch'>): Promise<DeployChangeResult> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await ctx.client.command(remote, 'watch', body, state.revision);
      } catch (error) {
        if (!(error instanceof DeployApiError && error.status === 412) || attempt >= 5) throw error;
        state = await ctx.client.state();
        const now = state.manifest.remotes[remote];
        if (!now || !isWatched(now.canary, watched)) throw changedError(remote, watched, now?.canary);
        log(
          `the deployment moved on to revision ${state.revision} (another remote changed); sending the move again`,
        );
      }
    }
  };

  /** The step's decision, by the one rule `rollout status` and the rollouts screen show too. */
  const judge = (deployment: RemoteDeployment, canary: Canary): Promise<GateDecision> =>
    gateNow(gateReader(health, remote), deployment.stable, { ...canary, ...watched }, gate);

  let failures = 0;
  for (let tick = 0; ; tick++) {
    let decision: GateDecision;
    let deployment: RemoteDeployment | undefined;
    try {
      if (tick > 0) state = await ctx.client.state();
      deployment = state.manifest.remotes[remote];
      if (!deployment || !isWatched(deployment.canary, watched))
        throw changedError(remote, watched, deployment?.canary);
      decision = await judge(deployment, deployment.canary);
      failures = 0;
    } catch (error) {
      // A refusal (403, 404) or a changed canary ends the watch; an unreachable API is waited out a while.
      const final = error instanceof DeployApiError || error instanceof CanaryChangedError;
      if (final || !(error instanceof RolloutError) || ++failures >= MAX_READ_FAILURES) throw error;
      log(`${error.message}; trying again in ${intervalMs / 1000} s`);
      await sleep(intervalMs);
      continue;
    }

    if (decision.action === 'rollback') {
      await move({ step: 'rollback', reason: decision.reason });
      log(`rolled back: ${decision.reason}; stable stays ${deployment.stable}`);
      return { outcome: 'rolled-back', version: watched.version, reason: decision.reason };
    }
    if (decision.action === 'advance') {
      const next = steps.find((step) => step > watched.percent);
      if (next === undefined) {
        await move({ step: 'promote', reason: decision.reason });
        log(`promoted ${watched.version} to stable: ${decision.reason}`);
        return { outcome: 'promoted', version: watched.version };
      }
      const reason = `${decision.reason}; ${watched.percent} % → ${next} %`;
      const done = await move({ step: 'advance', percent: next, reason });
      state = { ...state, revision: done.revision, manifest: done.manifest };
      const moved = done.manifest.remotes[remote]?.canary as Canary;
      watched = { version: moved.version, percent: moved.percent, stepStartedAt: moved.stepStartedAt };
      waitingSince = ctx.now().getTime();
      log(`advanced: ${reason}`);
    } else {
      log(`${watched.percent} %: ${decision.reason}`);
      if (options.maxWaitMs !== undefined && ctx.now().getTime() - waitingSince >= options.maxWaitMs) {
        const reason = `no decision within ${options.maxWaitMs / 1000} s at ${watched.percent} %: ${decision.reason}; the canary stays as it is`;
        await move({ step: 'stop', reason });
        log(`stopped: ${reason}`);
        return { outcome: 'stopped', version: watched.version, reason };
      }
    }
    await sleep(intervalMs);
  }
}
