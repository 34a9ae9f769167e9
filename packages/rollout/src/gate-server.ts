import type { Estimate } from './health-signals';
import { type ServerFigures, SLOW_RENDER_MS, shareVerdict } from './server-signals';

/**
 * The gate's server signals (docs/decisions/0043-server-signals-in-the-gate.md): of the edge's first-screen
 * renders of each version, the share that failed and the share that were slow, canary against stable, each
 * by a one-sided test against its margin (shareVerdict). Judged once the canary has `minRenders` renders;
 * stable with none counts as a clean stable (a remote with no renderer at stable's version has nothing to
 * compare, and a canary failing most of its renders is worse than any healthy baseline).
 */
export const SERVER_SIGNALS = ['server-errors', 'server-slow'] as const;
export type ServerSignalName = (typeof SERVER_SIGNALS)[number];

/** The gate policy's part for server renders (GatePolicy in health-gate.ts extends it). */
export interface ServerGatePolicy {
  /** Server renders a version needs before its render signals are judged (fewer: not judged). */
  minRenders: number;
  /** How many points the canary's share of failed server renders may exceed stable's. */
  maxExtraRenderFailureRate: number;
  /** How many points the canary's share of slow server renders (SLOW_RENDER_MS) may exceed stable's. */
  maxExtraSlowRenderRate: number;
}

/** A server signal's verdict, in the shape of health-gate.ts's SignalVerdict (n: renders). */
export interface ServerVerdict {
  signal: ServerSignalName;
  verdict: 'within' | 'worse' | 'inconclusive' | 'too-few';
  canary: Estimate | null;
  stable: Estimate | null;
  limit: number;
  text: string;
}

/** Both tracks' server figures over the same window as the browsers'. */
export interface ServerSample {
  canary: ServerFigures;
  stable: ServerFigures;
}

const LABEL: Record<ServerSignalName, string> = {
  'server-errors': 'server render failures',
  'server-slow': `server renders over ${SLOW_RENDER_MS / 1000} s`,
};

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const renders = (n: number) => `${n.toLocaleString('en-US')} render${n === 1 ? '' : 's'}`;

function verdictOf(
  signal: ServerSignalName,
  sample: ServerSample,
  policy: ServerGatePolicy,
  z: number,
): ServerVerdict {
  const count = (f: ServerFigures) => (signal === 'server-errors' ? f.failures : f.slow);
  const margin =
    signal === 'server-errors' ? policy.maxExtraRenderFailureRate : policy.maxExtraSlowRenderRate;
  const c = { count: count(sample.canary), n: sample.canary.renders };
  const s = { count: count(sample.stable), n: sample.stable.renders };
  const judged = shareVerdict(c, s, margin, z);
  const estimate = (n: number, value: number) => (n === 0 ? null : { n, value, low: value, high: value });
  const limit = judged.stableShare + margin;
  const fmt = (x: { n: number }, share: number) =>
    x.n === 0 ? 'no renders' : `${percent(share)} of ${renders(x.n)}`;
  const text = `${LABEL[signal]}: canary ${fmt(c, judged.canaryShare)}, stable ${fmt(s, judged.stableShare)} (allowed ${percent(limit)})`;
  const base = {
    signal,
    canary: estimate(c.n, judged.canaryShare),
    stable: estimate(s.n, judged.stableShare),
    limit,
    text,
  };
  if (c.n < policy.minRenders) return { ...base, verdict: 'too-few' };
  return { ...base, verdict: judged.verdict };
}

/** The server signals of a step; none when neither track rendered anything (a remote without a renderer). */
export function serverVerdicts(sample: ServerSample, policy: ServerGatePolicy, z: number): ServerVerdict[] {
  if (sample.canary.renders === 0 && sample.stable.renders === 0) return [];
  return SERVER_SIGNALS.map((signal) => verdictOf(signal, sample, policy, z));
}
