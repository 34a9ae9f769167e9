import { type DashboardIndicator, type DashboardPoint, SHORT_MONTHS } from '@app/contracts';

// Built on first use, not when the remote loads: an Intl formatter loads locale data on the main thread
// (@app/contracts format.ts), and Home, which this remote also renders, shows no indicator value.
let decimal: Intl.NumberFormat | undefined;
const number = () => (decimal ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }));

/** A value with its unit: '%' directly after the number, any other unit after a space. */
export function formatValue(value: number, unit: string): string {
  const n = number().format(value);
  if (unit === '') return n;
  return unit === '%' ? `${n}%` : `${n} ${unit}`;
}

/** A difference: percentage values change by percentage points, not by percent. */
function formatChange(change: number, unit: string): string {
  const size = Math.abs(change);
  const n = number().format(size);
  // "1 day", not "1 days": units are stored in the plural.
  const one = (plural: string) => (size === 1 && plural.endsWith('s') ? plural.slice(0, -1) : plural);
  if (unit === '%') return `${n} ${one('percentage points')}`;
  return unit === '' ? n : `${n} ${one(unit)}`;
}

/** `2025-04` as `Apr 2025`; anything else is shown as it came. */
export function formatPeriod(period: string, style: 'long' | 'short' = 'long'): string {
  const match = /^(\d{4})-(\d{2})$/.exec(period);
  const month = match ? SHORT_MONTHS[Number(match[2]) - 1] : undefined;
  if (!match || !month) return period;
  return style === 'long' ? `${month} ${match[1]}` : `${month} '${match[1]!.slice(2)}`;
}

const extreme = (points: readonly DashboardPoint[], pick: (a: number, b: number) => boolean) =>
  points.reduce((best, p) => (pick(p.value, best.value) ? p : best));

/**
 * The chart's text alternative: where the series started and ended, by how much it moved, and its high and
 * low, so a reader who cannot see the line learns what a sighted reader takes from it at a glance.
 */
export function summarize(indicator: DashboardIndicator): string {
  const { points, unit, title } = indicator;
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return `${title}: no data yet.`;
  const at = (p: DashboardPoint) => `${formatValue(p.value, unit)} in ${formatPeriod(p.period)}`;
  if (points.length === 1) return `${title} was ${at(first)}.`;
  const change = last.value - first.value;
  const trend =
    change === 0
      ? `${title} was ${formatValue(last.value, unit)} in both ${formatPeriod(first.period)} and ${formatPeriod(last.period)}.`
      : `${title} ${change > 0 ? 'rose' : 'fell'} from ${at(first)} to ${at(last)}, ${change > 0 ? 'up' : 'down'} ${formatChange(change, unit)}.`;
  const high = extreme(points, (a, b) => a > b);
  const low = extreme(points, (a, b) => a < b);
  return `${trend} Highest: ${at(high)}. Lowest: ${at(low)}.`;
}

/** Round axis ticks (1, 2, 2.5 or 5 times a power of ten) that cover min..max in about `count` steps. */
export function niceTicks(min: number, max: number, count = 4): number[] {
  if (min === max) {
    const pad = Math.abs(min) * 0.1 || 1;
    return niceTicks(min - pad, max + pad, count);
  }
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const start = Math.floor(min / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's precision, so 0.1 + 0.2 never shows as 0.30000000000000004.
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  for (let v = start; ; v += step) {
    ticks.push(Number(v.toFixed(digits)));
    if (v >= max - step * 1e-9) break;
  }
  return ticks;
}
