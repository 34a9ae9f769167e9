/**
 * The health gate of `rollout watch`: compare the canary's failure rate with stable's over the current
 * step, and say whether to wait, advance to the next step, or roll back.
 *
 * A failure is a load that failed (manifest, entry or chunk missing, timeout) or an error-boundary hit; the
 * sample is the number of load attempts (loads + load failures).
 */
export interface HealthCounts {
  loads: number;
  loadFailures: number;
  renderErrors: number;
}

export interface GatePolicy {
  /** Load attempts the canary needs in this step before a decision. */
  minSample: number;
  /** How many percentage points the canary's failure rate may exceed stable's. */
  maxExtraFailureRate: number;
}

export type GateDecision =
  | { action: 'wait'; reason: string }
  | { action: 'advance'; reason: string }
  | { action: 'rollback'; reason: string };

export const DEFAULT_GATE: GatePolicy = { minSample: 50, maxExtraFailureRate: 0.02 };

export function sampleOf(c: HealthCounts): number {
  return c.loads + c.loadFailures;
}

export function failureRate(c: HealthCounts): number {
  const attempts = sampleOf(c);
  return attempts === 0 ? 0 : Math.min(1, (c.loadFailures + c.renderErrors) / attempts);
}

const pct = (rate: number) => `${(rate * 100).toFixed(1)} %`;

export function decideStep(canary: HealthCounts, stable: HealthCounts, policy: GatePolicy): GateDecision {
  const canaryRate = failureRate(canary);
  const stableRate = failureRate(stable);
  const sample = sampleOf(canary);
  const summary = `canary failure rate ${pct(canaryRate)} over ${sample} loads, stable ${pct(stableRate)} over ${sampleOf(stable)}`;
  // Fail fast: once the failures alone prove the rate over the threshold, more samples cannot save it.
  const limit = stableRate + policy.maxExtraFailureRate;
  const failures = canary.loadFailures + canary.renderErrors;
  if (sample >= policy.minSample || failures > limit * Math.max(policy.minSample, sample)) {
    if (canaryRate > limit)
      return { action: 'rollback', reason: `${summary}: above the allowed ${pct(limit)}` };
  }
  if (sample < policy.minSample) {
    return { action: 'wait', reason: `${summary}: waiting for ${policy.minSample} loads` };
  }
  return { action: 'advance', reason: `${summary}: within ${pct(policy.maxExtraFailureRate)} of stable` };
}
