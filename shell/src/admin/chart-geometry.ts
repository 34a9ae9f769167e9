import type { RolloutChart, RolloutPoint } from '@app/contracts/rollouts-admin';
import { formatSignalValue, type SignalName } from '@app/rollout';

/**
 * The geometry of one small rollout chart (one signal, every track of one remote), kept apart from the
 * drawing so it can be tested without a DOM: where each point lies in the SVG's viewBox, where a line
 * breaks (a bucket without a point or without a value), and the y scale from 0 to a round maximum.
 */
export const CHART_SIGNALS: readonly SignalName[] = ['errors', 'lcp', 'inp', 'cls'];

export const SIGNAL_TITLE: Record<SignalName, string> = {
  errors: 'Error rate',
  lcp: 'LCP p75',
  inp: 'INP p75',
  cls: 'CLS p75',
};

const FIELD: Record<SignalName, keyof Pick<RolloutPoint, 'errorRate' | 'lcp' | 'inp' | 'cls'>> = {
  errors: 'errorRate',
  lcp: 'lcp',
  inp: 'inp',
  cls: 'cls',
};

/** The smallest top of a scale, so a flat 0 % or a 3 ms INP is not drawn as if it filled the chart. */
const MIN_TOP: Record<SignalName, number> = { errors: 0.01, lcp: 100, inp: 10, cls: 0.01 };

export const signalValue = (point: RolloutPoint, signal: SignalName): number | null => point[FIELD[signal]];

/** The viewBox and the margins the axis labels need. */
export interface ChartBox {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export const CHART_BOX: ChartBox = { width: 360, height: 170, left: 62, right: 12, top: 10, bottom: 26 };

export interface PlotPoint {
  x: number;
  y: number;
  at: string;
  value: number;
  visitors: number;
}

export interface PlotSeries {
  track: RolloutChart['series'][number]['track'];
  version: string;
  points: PlotPoint[];
  /** The SVG path: one `M` per unbroken run, so a gap in the data is a gap in the line. */
  path: string;
}

export interface ChartGeometry {
  yMax: number;
  /** Horizontal gridlines (0, half, top) with their labels. */
  yTicks: { value: number; y: number; label: string }[];
  series: PlotSeries[];
}

/** 1, 2, 4, 5 or 10 times a power of ten, at least `value`: a top whose half is a round label too. */
export function niceCeil(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 4, 5, 10].find((s) => s * magnitude >= value * (1 - 1e-9)) ?? 10;
  return step * magnitude;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Where every point of `signal` goes, or null when no track has a single value for it (the chart then
 * says "no data" rather than drawing an empty axis).
 */
export function chartGeometry(
  chart: Pick<RolloutChart, 'from' | 'to' | 'bucketMs' | 'series'>,
  signal: SignalName,
  box: ChartBox = CHART_BOX,
): ChartGeometry | null {
  const values = chart.series.flatMap((s) =>
    s.points.map((p) => signalValue(p, signal)).filter((v): v is number => v !== null),
  );
  if (values.length === 0) return null;
  const yMax = niceCeil(Math.max(MIN_TOP[signal], ...values));
  const from = Date.parse(chart.from);
  const span = Math.max(1, Date.parse(chart.to) - from);
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const xOf = (ms: number) => round(box.left + Math.min(1, Math.max(0, (ms - from) / span)) * plotWidth);
  const yOf = (value: number) => round(box.top + plotHeight * (1 - Math.min(1, value / yMax)));

  const series = chart.series.map((s) => {
    const sorted = [...s.points].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const points: PlotPoint[] = [];
    const segments: string[] = [];
    let previousAt: number | null = null;
    for (const p of sorted) {
      const value = signalValue(p, signal);
      const at = Date.parse(p.at);
      if (value === null) {
        previousAt = null;
        continue;
      }
      const point = { x: xOf(at), y: yOf(value), at: p.at, value, visitors: p.visitors };
      // The next bucket continues the line; a missing bucket (or a null before) starts a new run.
      const joined = previousAt !== null && at - previousAt <= chart.bucketMs * 1.5;
      segments.push(`${joined ? 'L' : 'M'}${point.x} ${point.y}`);
      points.push(point);
      previousAt = at;
    }
    return { track: s.track, version: s.version, points, path: segments.join(' ') };
  });

  const yTicks = [0, yMax / 2, yMax].map((value) => ({
    value,
    y: yOf(value),
    label: formatSignalValue(signal, value),
  }));
  return { yMax, yTicks, series };
}

/**
 * A bucket's time as an admin reads it: `12:05`, with the day when the chart spans more than one, with the
 * seconds when its buckets are shorter than a minute (a rollout watched for a few minutes).
 */
export function clock(iso: string, withDay = false, seconds = false): string {
  const date = new Date(iso);
  const time = date.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
  });
  return withDay ? `${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })} ${time}` : time;
}

export const visitorsText = (n: number) => `${n.toLocaleString('en-US')} visitor${n === 1 ? '' : 's'}`;

/** The latest value of one track, for the chart's summary. */
export function latestValue(points: readonly PlotPoint[]): PlotPoint | null {
  return points.length ? points[points.length - 1]! : null;
}
