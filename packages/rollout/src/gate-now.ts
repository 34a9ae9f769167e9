import { decideStep, type GateDecision, type GatePolicy } from './health-gate';
import { type VisitorFigures, versionSignals } from './health-signals';
import type { Canary } from './manifest';
import type { ServerFigures } from './server-signals';

/**
 * Where a gate reads one environment's figures of a remote: the API's database in the API, the deploy API in
 * `rollout watch` and `rollout status`. `server` is optional: a source without it judges browsers only.
 */
export interface GateReader {
  visitors(version: string, since: Date): VisitorFigures[] | Promise<VisitorFigures[]>;
  server?(version: string, since: Date): ServerFigures | Promise<ServerFigures>;
}

/**
 * The gate's answer for a running canary now: the one rule `rollout watch` acts on, `rollout status` prints
 * and the rollouts screen shows (docs/decisions/0043-server-signals-in-the-gate.md). Both tracks are read
 * over the step's window; when stable has too few visitors (or renders) in it (at the last steps, none), it
 * is read over the whole rollout instead, and the reason says so.
 */
export async function gateNow(
  reader: GateReader,
  stableVersion: string,
  canary: Pick<Canary, 'version' | 'percent' | 'startedAt' | 'stepStartedAt'>,
  policy: GatePolicy,
): Promise<GateDecision> {
  if (canary.percent === 0)
    return { action: 'advance', answer: 'advance', reason: 'no visitor gets the canary at 0 %', signals: [] };
  const step = new Date(canary.stepStartedAt);
  const whole = new Date(canary.startedAt);
  const canStretch = canary.startedAt !== canary.stepStartedAt;
  const canaryVisitors = await reader.visitors(canary.version, step);
  let stableVisitors = await reader.visitors(stableVersion, step);
  const notes: string[] = [];
  if (stableVisitors.length < policy.minVisitors && canStretch) {
    stableVisitors = await reader.visitors(stableVersion, whole);
    notes.push('stable over the whole rollout: too few stable visitors this step');
  }
  let server: { canary: ServerFigures; stable: ServerFigures } | undefined;
  if (reader.server) {
    const canaryServer = await reader.server(canary.version, step);
    let stableServer = await reader.server(stableVersion, step);
    if (stableServer.renders < policy.minRenders && canStretch) {
      stableServer = await reader.server(stableVersion, whole);
      notes.push('stable renders over the whole rollout');
    }
    server = { canary: canaryServer, stable: stableServer };
  }
  const decision = decideStep(
    versionSignals(canaryVisitors, policy.confidence),
    versionSignals(stableVisitors, policy.confidence),
    policy,
    server,
  );
  return notes.length ? { ...decision, reason: `${decision.reason} (${notes.join('; ')})` } : decision;
}
