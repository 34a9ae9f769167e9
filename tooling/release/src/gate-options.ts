import { DEFAULT_GATE, type GatePolicy, type VitalMargin } from '@app/rollout';
import { parseNonNegativeInt, parsePositiveInt, parseRate } from './args';
import { RolloutError } from './errors';

/**
 * `rollout watch`'s gate flags (docs/decisions/0027-health-gate.md), each with the default of DEFAULT_GATE.
 * --min-sample and --max-extra-failure-rate are the names the first gate had, still understood.
 */
export const GATE_OPTIONS = {
  'min-visitors': { type: 'string' },
  'max-extra-error-rate': { type: 'string' },
  'lcp-margin': { type: 'string' },
  'inp-margin': { type: 'string' },
  'cls-margin': { type: 'string' },
  'min-vital-visitors': { type: 'string' },
  confidence: { type: 'string' },
  'min-renders': { type: 'string' },
  'max-extra-render-failure-rate': { type: 'string' },
  'max-extra-slow-render-rate': { type: 'string' },
  'min-sample': { type: 'string' },
  'max-extra-failure-rate': { type: 'string' },
} as const;

const margin = (m: VitalMargin) => `${m.relative},${m.absolute}`;

export const GATE_USAGE = `[--min-visitors ${DEFAULT_GATE.minVisitors}] [--max-extra-error-rate ${DEFAULT_GATE.maxExtraErrorRate}]
        [--lcp-margin ${margin(DEFAULT_GATE.lcp)}] [--inp-margin ${margin(DEFAULT_GATE.inp)}] [--cls-margin ${margin(DEFAULT_GATE.cls)}]
        [--min-vital-visitors ${DEFAULT_GATE.minVitalVisitors}] [--confidence ${DEFAULT_GATE.confidence}]
        [--min-renders ${DEFAULT_GATE.minRenders}] [--max-extra-render-failure-rate ${DEFAULT_GATE.maxExtraRenderFailureRate}]
        [--max-extra-slow-render-rate ${DEFAULT_GATE.maxExtraSlowRenderRate}]`;

/** `<relative>,<absolute>`: "0.2,100" lets the canary's p75 exceed stable's by 20 %, or 100 at least. */
function parseMargin(value: string, option: string): VitalMargin {
  const [relative, absolute, ...rest] = value.split(',').map((part) => Number(part.trim()));
  if (
    rest.length > 0 ||
    !Number.isFinite(relative) ||
    !Number.isFinite(absolute) ||
    relative! < 0 ||
    absolute! < 0
  )
    throw new RolloutError(`${option} must be <relative>,<absolute> (e.g. 0.2,100), got: ${value}`);
  return { relative: relative!, absolute: absolute! };
}

function parseConfidence(value: string): number {
  const n = Number(value);
  if (!(n >= 0.5 && n < 1))
    throw new RolloutError(`--confidence must be at least 0.5 and below 1, got: ${value}`);
  return n;
}

export function gatePolicyFrom(str: (name: keyof typeof GATE_OPTIONS) => string | undefined): GatePolicy {
  const minVisitors = str('min-visitors') ?? str('min-sample');
  const extra = str('max-extra-error-rate') ?? str('max-extra-failure-rate');
  const given = <T>(name: keyof typeof GATE_OPTIONS, parse: (value: string) => T, fallback: T): T => {
    const value = str(name);
    return value === undefined ? fallback : parse(value);
  };
  return {
    minVisitors:
      minVisitors === undefined ? DEFAULT_GATE.minVisitors : parsePositiveInt(minVisitors, '--min-visitors'),
    maxExtraErrorRate:
      extra === undefined ? DEFAULT_GATE.maxExtraErrorRate : parseRate(extra, '--max-extra-error-rate'),
    lcp: given('lcp-margin', (v) => parseMargin(v, '--lcp-margin'), DEFAULT_GATE.lcp),
    inp: given('inp-margin', (v) => parseMargin(v, '--inp-margin'), DEFAULT_GATE.inp),
    cls: given('cls-margin', (v) => parseMargin(v, '--cls-margin'), DEFAULT_GATE.cls),
    minVitalVisitors: given(
      'min-vital-visitors',
      (v) => parseNonNegativeInt(v, '--min-vital-visitors'),
      DEFAULT_GATE.minVitalVisitors,
    ),
    confidence: given('confidence', parseConfidence, DEFAULT_GATE.confidence),
    // The edges' server renders (docs/decisions/0043-server-signals-in-the-gate.md).
    minRenders: given('min-renders', (v) => parsePositiveInt(v, '--min-renders'), DEFAULT_GATE.minRenders),
    maxExtraRenderFailureRate: given(
      'max-extra-render-failure-rate',
      (v) => parseRate(v, '--max-extra-render-failure-rate'),
      DEFAULT_GATE.maxExtraRenderFailureRate,
    ),
    maxExtraSlowRenderRate: given(
      'max-extra-slow-render-rate',
      (v) => parseRate(v, '--max-extra-slow-render-rate'),
      DEFAULT_GATE.maxExtraSlowRenderRate,
    ),
  };
}
