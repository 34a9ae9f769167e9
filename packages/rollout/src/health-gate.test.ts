import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE, decideStep } from './health-gate';
import { quantileEstimate, type VisitorFigures, versionSignals, visitorFigures, zOf } from './health-signals';

const people = (n: number, o: { errors?: number; inp?: (i: number) => number } = {}): VisitorFigures[] =>
  Array.from({ length: n }, (_, i) => ({
    views: 1,
    errorViews: i < (o.errors ?? 0) ? 1 : 0,
    lcp: null,
    inp: o.inp ? o.inp(i) : null,
    cls: null,
  }));
const gate = { ...DEFAULT_GATE, minVisitors: 50 };
const decide = (canary: VisitorFigures[], stable: VisitorFigures[]) =>
  decideStep(versionSignals(canary), versionSignals(stable), gate);

describe('the statistics', () => {
  it('z of a confidence level', () => {
    expect(zOf(0.95)).toBeCloseTo(1.6449, 3);
    expect(zOf(0.99)).toBeCloseTo(2.3263, 3);
    expect(zOf(0.999)).toBeCloseTo(3.0902, 3);
  });

  it('a quantile with a distribution-free interval around it', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    const e = quantileEstimate(values, 0.75, zOf(0.99));
    expect(e).toMatchObject({ n: 100, value: 75 });
    expect(e!.low).toBeLessThan(75);
    expect(e!.high).toBeGreaterThan(75);
    expect(quantileEstimate([], 0.75, 2)).toBeNull();
  });

  it('counts per visitor: a visitor who reloads 50 times is one visitor with a rate', () => {
    const rows = [
      ...Array.from({ length: 50 }, (_, i) => ({
        visitor: 'a',
        ticket: `a${i}`,
        kind: 'load' as const,
        value: 1,
      })),
      ...Array.from({ length: 25 }, (_, i) => ({
        visitor: 'a',
        ticket: `a${i}`,
        kind: 'runtime-error' as const,
        value: null,
      })),
      { visitor: 'b', ticket: 'b0', kind: 'load' as const, value: 1 },
      { visitor: 'b', ticket: 'b0', kind: 'lcp' as const, value: 1800 },
    ];
    const figures = visitorFigures(rows);
    expect(figures).toEqual([
      { views: 50, errorViews: 25, lcp: null, inp: null, cls: null },
      { views: 1, errorViews: 0, lcp: 1800, inp: null, cls: null },
    ]);
    const signals = versionSignals(figures);
    expect(signals).toMatchObject({ visitors: 2, views: 51 });
    expect(signals.errorRate?.value).toBe(0.25); // (0.5 + 0) / 2, not 25 / 51
  });
});

describe('decideStep', () => {
  it('waits for the minimum number of distinct visitors', () => {
    const d = decide(people(49), people(500));
    expect(d.action).toBe('wait');
    expect(d.reason).toMatch(/^49 of 50 canary visitors this step/);
  });

  it('advances a canary that fares like stable on every signal', () => {
    const inp = (i: number) => 100 + (i % 40);
    const d = decide(people(200, { inp }), people(2000, { inp }));
    expect(d.action).toBe('advance');
    expect(d.signals.map((s) => `${s.signal} ${s.verdict}`)).toEqual([
      'errors within',
      'lcp too-few',
      'inp within',
      'cls too-few',
    ]);
  });

  it('rolls back a canary whose handler throws for 5 % of its visitors, once the sample proves it', () => {
    expect(decide(people(60, { errors: 3 }), people(2000, { errors: 4 })).action).toBe('wait');
    const d = decide(people(400, { errors: 20 }), people(4000, { errors: 8 }));
    expect(d.action).toBe('rollback');
    expect(d.reason).toBe(
      'errors: canary 5.0 % of 400 visitors, stable 0.2 % of 4000 visitors (allowed 2.2 %): worse beyond the margin at 99 % confidence',
    );
  });

  it('rolls back a canary whose INP is twice stable’s', () => {
    const inp = (i: number) => 120 + (i % 50) * 3;
    const d = decide(people(60, { inp: (i) => 2 * inp(i) }), people(600, { inp }));
    expect(d.action).toBe('rollback');
    expect(d.signals.find((s) => s.signal === 'inp')?.verdict).toBe('worse');
  });

  it('rolls back early on overwhelming evidence, but never on fewer than 10 visitors', () => {
    expect(decide(people(9, { errors: 9 }), people(100)).action).toBe('wait');
    expect(decide(people(10, { errors: 10 }), people(100)).action).toBe('rollback');
  });

  it('extends a step whose canary is beyond the margin without proof yet', () => {
    const d = decide(people(50, { errors: 3 }), people(1000));
    expect(d.action).toBe('wait');
    expect(d.reason).toMatch(/^extending the step: errors: canary 6\.0 % of 50 visitors/);
  });

  it('advances on errors only when the canary is shown no worse, not when it looks fine by luck', () => {
    // 2 of 100 canary visitors saw errors (2.0 %, inside 0.5 % + 2 points), but 100 visitors cannot tell a
    // 2 % canary from a 5 % one: the step is extended, not passed.
    const lucky = decide(people(100, { errors: 2 }), people(2000, { errors: 10 }));
    expect(lucky.action).toBe('wait');
    expect(lucky.signals[0]?.verdict).toBe('inconclusive');
    expect(decide(people(400, { errors: 2 }), people(2000, { errors: 10 })).action).toBe('advance');
  });

  it('a stable without visitors counts as error-free (the canary must be within the margin of 0)', () => {
    expect(decide(people(50), []).action).toBe('advance');
    expect(decide(people(50, { errors: 50 }), []).action).toBe('rollback');
  });
});
