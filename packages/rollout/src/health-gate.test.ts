import { describe, expect, it } from 'vitest';
import { DEFAULT_GATE, decideStep } from './health-gate';
import {
  ADDRESS_VISITOR_CAP,
  quantileEstimate,
  type SignalRow,
  type VisitorFigures,
  versionSignals,
  visitorFigures,
  visitorSample,
  zOf,
} from './health-signals';

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
        address: 'x',
        ticket: `a${i}`,
        kind: 'load' as const,
        value: 1,
      })),
      ...Array.from({ length: 25 }, (_, i) => ({
        visitor: 'a',
        address: 'x',
        ticket: `a${i}`,
        kind: 'runtime-error' as const,
        value: null,
      })),
      { visitor: 'b', address: 'x', ticket: 'b0', kind: 'load' as const, value: 1 },
      { visitor: 'b', address: 'x', ticket: 'b0', kind: 'lcp' as const, value: 1800 },
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

/** One page view of `visitor` from `address`: a load, and a failure when it failed. */
const view = (visitor: string, address: string | null, failed = false): SignalRow[] => [
  { visitor, address, ticket: `${visitor}-t`, kind: 'load', value: 300 },
  ...(failed
    ? [{ visitor, address, ticket: `${visitor}-t`, kind: 'runtime-error' as const, value: null }]
    : []),
];
/** `n` visitors, each from an address of their own (`<prefix>-<i>`) unless `address` names one for all. */
const crowd = (prefix: string, n: number, o: { failed?: boolean; address?: string | null } = {}) =>
  Array.from({ length: n }, (_, i) =>
    view(
      `${prefix}${String(i).padStart(3, '0')}`,
      o.address === undefined ? `${prefix}-${i}` : o.address,
      o.failed,
    ),
  ).flat();

describe('the cap per address group', () => {
  it('60 visitors from one address weigh as ADDRESS_VISITOR_CAP (5): those with the smallest pseudonyms', () => {
    expect(ADDRESS_VISITOR_CAP).toBe(5);
    // The first five pseudonyms (v000…v004) failed, the other 55 did not: the five that count are those.
    const rows = crowd('v', 60, { address: 'office' }).map((row) =>
      row.visitor < 'v005' ? [row, { ...row, kind: 'render-error' as const, value: null }] : [row],
    );
    const sample = visitorSample(rows.flat().reverse());
    expect(sample).toMatchObject({ addresses: 1, overCap: 55 });
    expect(sample.visitors).toHaveLength(5);
    expect(sample.visitors.every((v) => v.errorViews === 1)).toBe(true);
  });

  it('caps each address apart: 60 from one and 3 from another are 5 + 3 visitors', () => {
    const sample = visitorSample([
      ...crowd('a', 60, { address: 'one' }),
      ...crowd('b', 3, { address: 'two' }),
    ]);
    expect(sample).toMatchObject({ addresses: 2, overCap: 55 });
    expect(sample.visitors).toHaveLength(8);
  });

  it('counts a visitor once, in one group, whichever addresses their page views came from', () => {
    const rows = [
      ...view('traveller', 'home'),
      { visitor: 'traveller', address: 'train', ticket: 'second', kind: 'load' as const, value: 1 },
      ...crowd('h', 6, { address: 'home' }),
      ...crowd('t', 2, { address: 'train' }),
    ];
    const sample = visitorSample(rows);
    // 'home' (the smaller address) holds the traveller and 6 others: 5 count; 'train' holds 2.
    expect(sample).toMatchObject({ addresses: 2, overCap: 2 });
    expect(sample.visitors).toHaveLength(7);
  });

  it('puts reports without an address (stored before tickets carried one) in one group of their own', () => {
    const sample = visitorSample([...crowd('old', 40, { address: null }), ...crowd('new', 20)]);
    expect(sample).toMatchObject({ addresses: 21, overCap: 35 });
    expect(sample.visitors).toHaveLength(25);
    // A visitor seen with an address and without one belongs to the address.
    const mixed = visitorSample([
      ...view('m', null),
      { visitor: 'm', address: 'somewhere', ticket: 'm2', kind: 'load', value: 1 },
    ]);
    expect(mixed).toMatchObject({ addresses: 1, overCap: 0 });
    expect(mixed.visitors).toEqual([{ views: 2, errorViews: 0, lcp: null, inp: null, cls: null }]);
  });

  it('counts a server-render failure as a failed page view', () => {
    const rows: SignalRow[] = [
      ...view('s', 'a'),
      { visitor: 's', address: 'a', ticket: 's-t', kind: 'server-render-failure', value: null },
    ];
    expect(visitorFigures(rows)).toEqual([{ views: 1, errorViews: 1, lcp: null, inp: null, cls: null }]);
  });
});

describe('the gate against visitors minted from one address', () => {
  const stable = crowd('s', 200);
  const judge = (canary: SignalRow[]) =>
    decideStep(versionSignals(visitorFigures(canary)), versionSignals(visitorFigures(stable)), gate);

  it("does not roll back a healthy canary for an attacker's 50 failing visitors from one address", () => {
    const attacked = [...crowd('good', 20), ...crowd('bot', 50, { address: 'attacker', failed: true })];
    // Uncapped, the same rows would be 50 failing visitors of 70: a rollback.
    const uncapped = attacked.map((row) => ({ ...row, address: row.visitor }));
    expect(judge(uncapped).action).toBe('rollback');
    const d = judge(attacked);
    expect(d.action).not.toBe('rollback');
    expect(d.reason).toMatch(/canary 20\.0 % of 25 visitors/);
  });

  it('rolls back a canary that fails 20 real visitors from 20 addresses', () => {
    const d = judge([...crowd('good', 20), ...crowd('hurt', 20, { failed: true })]);
    expect(d.action).toBe('rollback');
    expect(d.reason).toMatch(/^errors: canary 50\.0 % of 40 visitors/);
  });

  it("still rolls back a failing canary diluted by an attacker's 50 healthy visitors from one address", () => {
    const d = judge([
      ...crowd('good', 20),
      ...crowd('hurt', 20, { failed: true }),
      ...crowd('bot', 50, { address: 'attacker' }),
    ]);
    expect(d.action).toBe('rollback');
    expect(d.reason).toMatch(/^errors: canary 44\.4 % of 45 visitors/);
  });
});

describe('decideStep', () => {
  it('waits for the minimum number of distinct visitors', () => {
    const d = decide(people(49), people(500));
    expect(d.action).toBe('wait');
    expect(d.answer).toBe('inconclusive');
    expect(d.reason).toMatch(
      /^inconclusive: not enough visitors in the window \(49 of 50 canary visitors this step\)/,
    );
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
