import {
  type ServerGatePolicy,
  type ServerSample,
  type ServerSignalName,
  serverVerdicts,
} from './gate-server';
import { type Estimate, type VersionSignals, zOf } from './health-signals';

/**
 * The health gate of `rollout watch` (docs/decisions/0027-health-gate.md): compare what the canary's
 * visitors felt with what stable's felt over the same window, signal by signal, and say whether to wait
 * (extend the step), advance to the next step, or roll back.
 *
 * - Error rate (mean of per-visitor rates): worse when canary − stable exceeds the margin by more than z
 *   standard errors of the difference (a one-sided Welch z-test against the margin); within when it is
 *   inside the margin by more than z standard errors (the same test the other way: shown no worse).
 * - p75 LCP, INP and CLS (of per-visitor medians): the limit is stable's p75 plus the larger of a relative
 *   and an absolute margin; worse when even the low end of the canary's interval is above the limit that the
 *   high end of stable's interval allows; within when the canary's p75 is under stable's limit.
 * - Server renders (gate-server.ts, since issue 48): the share of the edge's first-screen renders of the
 *   canary's code that failed, and that were slow, against stable's, by the same one-sided test against a
 *   margin. Judged from `minRenders` canary renders on, whatever the browsers say: a canary whose server
 *   render fails is rolled back on that alone, with no browser visitor at all.
 * Anything in between is not yet conclusive: the step is extended until more visitors decide it. The
 * decision says which kind of waiting it is: `inconclusive` (too few visitors in the window to decide
 * anything) or `extending` (enough of them, but a signal is beyond its margin and not yet surely so).
 */
export interface VitalMargin {
  /** Share of stable's p75 the canary may add (0.2: 20 % slower). */
  relative: number;
  /** What the canary may add at least (ms for LCP and INP, a score for CLS), so tiny p75s are not twitchy. */
  absolute: number;
}

export interface GatePolicy extends ServerGatePolicy {
  /** Distinct canary visitors a step needs before it may advance. */
  minVisitors: number;
  /** How many points (0.02 = 2 points) the canary's error rate may exceed stable's. */
  maxExtraErrorRate: number;
  lcp: VitalMargin;
  inp: VitalMargin;
  cls: VitalMargin;
  /** A Web Vital is judged once each track has this many visitors with a value (fewer: not judged). */
  minVitalVisitors: number;
  /** One-sided confidence of a rollback (0.99). */
  confidence: number;
}

export const DEFAULT_GATE: GatePolicy = {
  minVisitors: 50,
  maxExtraErrorRate: 0.02,
  lcp: { relative: 0.2, absolute: 100 },
  inp: { relative: 0.2, absolute: 16 },
  cls: { relative: 0.2, absolute: 0.02 },
  minVitalVisitors: 20,
  confidence: 0.99,
  minRenders: 50,
  maxExtraRenderFailureRate: 0.02,
  maxExtraSlowRenderRate: 0.05,
};

export const SIGNALS = ['errors', 'lcp', 'inp', 'cls'] as const;
export type SignalName = (typeof SIGNALS)[number];
/** The browsers' signals and the servers' (gate-server.ts). */
export type GateSignalName = SignalName | ServerSignalName;

export interface SignalVerdict {
  signal: GateSignalName;
  verdict: 'within' | 'worse' | 'inconclusive' | 'too-few';
  canary: Estimate | null;
  stable: Estimate | null;
  /** What the canary may reach (error rate or p75), from stable's figure. */
  limit: number | null;
  /** The figures in words, for the log and the audit entry. */
  text: string;
}

/**
 * The gate's answer in one word: `inconclusive` waits because the window has too few visitors (and renders)
 * to decide; `extending` waits because a signal is beyond its margin but not yet at the confidence.
 */
export type GateAnswer = 'advance' | 'rollback' | 'inconclusive' | 'extending';

export interface GateDecision {
  action: 'wait' | 'advance' | 'rollback';
  answer: GateAnswer;
  reason: string;
  signals: SignalVerdict[];
}

const LABEL: Record<SignalName, string> = {
  errors: 'errors',
  lcp: 'LCP p75',
  inp: 'INP p75',
  cls: 'CLS p75',
};

export function formatSignalValue(signal: SignalName, value: number): string {
  if (signal === 'errors') return `${(value * 100).toFixed(1)} %`;
  if (signal === 'cls') return value.toFixed(3);
  return `${Math.round(value).toLocaleString('en-US')} ms`;
}

const sample = (e: Estimate | null) => (e ? `${e.n} visitor${e.n === 1 ? '' : 's'}` : 'no visitors');

function errorVerdict(c: VersionSignals, s: VersionSignals, policy: GatePolicy, z: number): SignalVerdict {
  const canary = c.errorRate;
  const stable = s.errorRate;
  const limit = (stable?.value ?? 0) + policy.maxExtraErrorRate;
  const fmt = (e: Estimate | null) =>
    e ? `${formatSignalValue('errors', e.value)} of ${sample(e)}` : 'no visitors';
  const text = `errors: canary ${fmt(canary)}, stable ${fmt(stable)} (allowed ${formatSignalValue('errors', limit)})`;
  const base = { signal: 'errors' as const, canary, stable, limit, text };
  if (!canary) return { ...base, verdict: 'too-few' };
  const excess = canary.value - limit;
  const se = Math.sqrt((canary.se ?? 0) ** 2 + (stable?.se ?? 0) ** 2);
  // Within only when even the high end of the difference is inside the margin: an observed rate inside it
  // by luck (a canary failing 5 % of its visitors can look like 2 % over 100 of them) is not yet proof.
  if (excess + z * se <= 0) return { ...base, verdict: 'within' };
  return { ...base, verdict: excess > z * se ? 'worse' : 'inconclusive' };
}

function vitalVerdict(
  signal: Exclude<SignalName, 'errors'>,
  c: VersionSignals,
  s: VersionSignals,
  policy: GatePolicy,
): SignalVerdict {
  const canary = c[signal];
  const stable = s[signal];
  const margin = policy[signal];
  const limitOf = (p75: number) => p75 + Math.max(margin.relative * p75, margin.absolute);
  const fmt = (e: Estimate | null) => (e ? `${formatSignalValue(signal, e.value)} (${sample(e)})` : 'none');
  const limit = stable ? limitOf(stable.value) : null;
  const allowed = limit === null ? '' : `, allowed ${formatSignalValue(signal, limit)}`;
  const text = `${LABEL[signal]}: canary ${fmt(canary)}, stable ${fmt(stable)}${allowed}`;
  const base = { signal, canary, stable, limit, text };
  if (!canary || !stable || limit === null || Math.min(canary.n, stable.n) < policy.minVitalVisitors)
    return { ...base, verdict: 'too-few' };
  if (canary.value <= limit) return { ...base, verdict: 'within' };
  return { ...base, verdict: canary.low > limitOf(stable.high) ? 'worse' : 'inconclusive' };
}

export function judgeSignals(
  canary: VersionSignals,
  stable: VersionSignals,
  policy: GatePolicy,
): SignalVerdict[] {
  const z = zOf(policy.confidence);
  return [
    errorVerdict(canary, stable, policy, z),
    vitalVerdict('lcp', canary, stable, policy),
    vitalVerdict('inp', canary, stable, policy),
    vitalVerdict('cls', canary, stable, policy),
  ];
}

/** A rollback needs at least this many canary visitors, however clear the figures: 2 visitors prove little. */
export const minRollbackVisitors = (policy: GatePolicy) => Math.min(policy.minVisitors, 10);

export function decideStep(
  canary: VersionSignals,
  stable: VersionSignals,
  policy: GatePolicy,
  server?: ServerSample,
): GateDecision {
  const browser = judgeSignals(canary, stable, policy);
  const rendered = server ? serverVerdicts(server, policy, zOf(policy.confidence)) : [];
  const signals = [...browser, ...rendered];
  const texts = (list: SignalVerdict[]) => list.map((v) => v.text).join('; ');
  const pct = `${Math.round(policy.confidence * 100)} % confidence`;
  // A browser signal rolls back from a few visitors on; a server one is judged only from minRenders renders
  // on, so its verdict stands alone, with no browser visitor needed.
  const worse = [...(canary.visitors >= minRollbackVisitors(policy) ? browser : []), ...rendered].filter(
    (v) => v.verdict === 'worse',
  );
  if (worse.length > 0) {
    const reason = `${texts(worse)}: worse beyond the margin at ${pct}`;
    return { action: 'rollback', answer: 'rollback', reason, signals };
  }
  if (canary.visitors < policy.minVisitors) {
    const renders = server ? `, ${server.canary.renders} of ${policy.minRenders} canary renders` : '';
    return {
      action: 'wait',
      answer: 'inconclusive',
      reason: `inconclusive: not enough visitors in the window (${canary.visitors} of ${policy.minVisitors} canary visitors this step${renders}); ${texts(signals)}`,
      signals,
    };
  }
  const unsure = signals.filter((v) => v.verdict === 'inconclusive' || v.verdict === 'worse');
  if (unsure.length > 0) {
    return {
      action: 'wait',
      answer: 'extending',
      reason: `extending the step: ${texts(unsure)}: beyond the margin, not yet at ${pct}`,
      signals,
    };
  }
  return { action: 'advance', answer: 'advance', reason: `${texts(signals)}: within the margins`, signals };
}
