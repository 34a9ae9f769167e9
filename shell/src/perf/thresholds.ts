/** SPEC §9 performance monitor thresholds: below `good` is good, below `fair` is fair, else poor. */
export const PERF_THRESHOLDS = {
  loadMs: { good: 1000, fair: 3000 },
  renderMs: { good: 16, fair: 50 },
  memoryMb: { good: 50, fair: 100 },
} as const;

export type Rating = 'good' | 'fair' | 'poor';

export function rate(value: number, limits: { good: number; fair: number }): Rating {
  if (value < limits.good) return 'good';
  if (value < limits.fair) return 'fair';
  return 'poor';
}
