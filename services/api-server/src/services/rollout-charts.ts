import type {
  RolloutChart,
  RolloutHealthRow,
  RolloutPoint,
  RolloutSeries,
} from '@app/contracts/rollouts-admin';
import { type RemotePackage, signalFigures, versionSignals, visitorFigures } from '@app/rollout';
import type { RemoteSignalRow } from './rollout-health';

/**
 * The admin view's figures of one remote (docs/decisions/0027-health-gate.md): per version over the window,
 * and per track over time, in about BUCKETS buckets, each computed as the gate computes a step (per visitor).
 */
const BUCKETS = 24;
const NICE_STEPS_MS = [
  5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400,
].map((s) => s * 1000);

/** The smallest round bucket that covers `spanMs` in BUCKETS buckets. */
export function bucketFor(spanMs: number): number {
  return NICE_STEPS_MS.find((step) => step * BUCKETS >= spanMs) ?? NICE_STEPS_MS.at(-1)!;
}

const signalsOf = (rows: RemoteSignalRow[]) => signalFigures(versionSignals(visitorFigures(rows)));

function groupBy<K, T>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export function healthRows(remote: RemotePackage, rows: RemoteSignalRow[]): RolloutHealthRow[] {
  return [...groupBy(rows, (r) => r.version)].map(([version, list]) => {
    const { visitors, views, errorRate, lcp, inp, cls } = signalsOf(list);
    const lastAt = Math.max(...list.map((r) => r.at));
    return {
      remote,
      version,
      visitors,
      views,
      errorRate,
      lcp,
      inp,
      cls,
      lastAt: new Date(lastAt).toISOString(),
    };
  });
}

/** The chart of one remote from `from` to `now`: one series per version and track, one point per bucket. */
export function chartOf(
  remote: RemotePackage,
  rows: RemoteSignalRow[],
  from: number,
  now: number,
): RolloutChart {
  const first = rows.reduce((min, r) => Math.min(min, r.at), now);
  const start = Math.max(from, first);
  const bucketMs = bucketFor(Math.max(1, now - start));
  const origin = Math.floor(start / bucketMs) * bucketMs;
  const series: RolloutSeries[] = [...groupBy(rows, (r) => `${r.track}\n${r.version}`)].map(([, list]) => {
    const points: RolloutPoint[] = [...groupBy(list, (r) => Math.floor((r.at - origin) / bucketMs))]
      .sort(([a], [b]) => a - b)
      .map(([bucket, inBucket]) => {
        const { visitors, errorRate, lcp, inp, cls } = signalsOf(inBucket);
        return { at: new Date(origin + bucket * bucketMs).toISOString(), visitors, errorRate, lcp, inp, cls };
      });
    return { track: list[0]!.track, version: list[0]!.version, points };
  });
  const order = { stable: 0, canary: 1, preview: 2 };
  series.sort((a, b) => order[a.track] - order[b.track] || a.version.localeCompare(b.version));
  return { remote, from: new Date(origin).toISOString(), to: new Date(now).toISOString(), bucketMs, series };
}
