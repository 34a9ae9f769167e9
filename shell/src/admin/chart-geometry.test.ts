import { describe, expect, it } from 'vitest';
import { CHART_BOX, chartGeometry, niceCeil } from './chart-geometry';

const at = (minute: number) => new Date(Date.UTC(2026, 4, 12, 12, minute)).toISOString();
const pt = (minute: number, errorRate: number | null, lcp: number | null = null) => ({
  at: at(minute),
  visitors: 10,
  errorRate,
  lcp,
  inp: null,
  cls: null,
});
const chart = (points: ReturnType<typeof pt>[]) => ({
  from: at(0),
  to: at(60),
  bucketMs: 10 * 60_000,
  series: [{ track: 'canary' as const, version: '1.1.0-abc1234def', points }],
});

describe('chartGeometry', () => {
  it('rounds the top of the scale up to 1, 2, 4, 5 or 10 of a power of ten', () => {
    expect([0.052, 0.04, 0.0031, 1230, 7, 0].map(niceCeil)).toEqual([0.1, 0.04, 0.004, 2000, 10, 1]);
  });

  it('spans x over [from, to] and y from 0 (bottom) to the top', () => {
    const g = chartGeometry(chart([pt(0, 0), pt(60, 0.1)]), 'errors')!;
    const [first, last] = g.series[0]!.points;
    expect(first).toMatchObject({ x: CHART_BOX.left, y: CHART_BOX.height - CHART_BOX.bottom });
    expect(last).toMatchObject({ x: CHART_BOX.width - CHART_BOX.right, y: CHART_BOX.top });
    expect(g.yTicks.map((t) => t.label)).toEqual(['0.0 %', '5.0 %', '10.0 %']);
  });

  it('breaks the line where a bucket is missing or has no value, and sorts the points by time', () => {
    const g = chartGeometry(
      chart([pt(10, 0.01), pt(0, 0.02), pt(30, 0.01), pt(40, null), pt(50, 0.03)]),
      'errors',
    )!;
    const { path, points } = g.series[0]!;
    expect(points.map((p) => p.at)).toEqual([at(0), at(10), at(30), at(50)]);
    expect(
      path
        .split(' ')
        .filter((s) => /^[ML]/.test(s))
        .map((s) => s[0]),
    ).toEqual(['M', 'L', 'M', 'M']);
  });

  it('keeps a floor under a flat scale, and has no geometry when no track has a value', () => {
    expect(chartGeometry(chart([pt(0, 0), pt(10, 0)]), 'errors')!.yMax).toBe(0.01);
    expect(chartGeometry(chart([pt(0, 0.01, 1234)]), 'lcp')!.yMax).toBe(2000);
    expect(chartGeometry(chart([pt(0, 0.01)]), 'lcp')).toBeNull();
    expect(chartGeometry({ ...chart([]), series: [] }, 'errors')).toBeNull();
  });
});
