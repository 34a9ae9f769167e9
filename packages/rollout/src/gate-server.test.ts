import { describe, expect, it } from 'vitest';
import { gateNow } from './gate-now';
import { DEFAULT_GATE, decideStep } from './health-gate';
import { type VisitorFigures, versionSignals } from './health-signals';
import { type ServerFigures, shareVerdict } from './server-signals';

const people = (n: number, errors = 0): VisitorFigures[] =>
  Array.from({ length: n }, (_, i) => ({
    views: 1,
    errorViews: i < errors ? 1 : 0,
    lcp: null,
    inp: null,
    cls: null,
  }));
const renders = (n: number, failures = 0, slow = 0): ServerFigures => ({
  renders: n,
  failures,
  slow,
  durationMs: n * 100,
});
const none = versionSignals([]);

describe('the server signals', () => {
  it('roll a canary back whose server renders fail, with no browser visitor at all', () => {
    const d = decideStep(none, none, DEFAULT_GATE, { canary: renders(60, 60), stable: renders(600) });
    expect(d.action).toBe('rollback');
    expect(d.answer).toBe('rollback');
    expect(d.reason).toBe(
      'server render failures: canary 100.0 % of 60 renders, stable 0.0 % of 600 renders (allowed 2.0 %): worse beyond the margin at 99 % confidence',
    );
  });

  it('roll back on failures even when stable rendered nothing (a clean baseline)', () => {
    const d = decideStep(none, none, DEFAULT_GATE, { canary: renders(50, 20), stable: renders(0) });
    expect(d.action).toBe('rollback');
  });

  it('wait below the minimum of renders, however bad: a handful proves little', () => {
    const d = decideStep(none, none, DEFAULT_GATE, { canary: renders(49, 49), stable: renders(600) });
    expect(d.action).toBe('wait');
    expect(d.answer).toBe('inconclusive');
    expect(d.signals.find((s) => s.signal === 'server-errors')?.verdict).toBe('too-few');
  });

  it('roll back on slow renders beyond their margin', () => {
    const d = decideStep(versionSignals(people(60)), versionSignals(people(600)), DEFAULT_GATE, {
      canary: renders(400, 0, 200),
      stable: renders(4000, 0, 40),
    });
    expect(d.action).toBe('rollback');
    expect(d.reason).toMatch(/^server renders over 1 s: canary 50\.0 % of 400 renders/);
  });

  it('let healthy renders advance beside healthy visitors, and keep a step without renders as before', () => {
    const healthy = { canary: renders(1000, 1), stable: renders(5000, 5) };
    const ok = decideStep(versionSignals(people(100)), versionSignals(people(1000)), DEFAULT_GATE, healthy);
    expect(ok.action).toBe('advance');
    expect(ok.signals.map((s) => s.signal)).toContain('server-errors');
    const noRenderer = decideStep(versionSignals(people(100)), versionSignals(people(1000)), DEFAULT_GATE, {
      canary: renders(0),
      stable: renders(0),
    });
    expect(noRenderer.action).toBe('advance');
    expect(noRenderer.signals.map((s) => s.signal)).toEqual(['errors', 'lcp', 'inp', 'cls']);
  });

  it('the share test does not call 0 of 50 proven, nor 1 of 3 worse', () => {
    expect(shareVerdict({ count: 0, n: 50 }, { count: 0, n: 1000 }, 0.02, 2.33).verdict).toBe('inconclusive');
    expect(shareVerdict({ count: 0, n: 1000 }, { count: 0, n: 1000 }, 0.02, 2.33).verdict).toBe('within');
    expect(shareVerdict({ count: 1, n: 3 }, { count: 0, n: 1000 }, 0.02, 2.33).verdict).toBe('inconclusive');
  });
});

describe('inconclusive and extending', () => {
  it('says when the window has too few visitors to decide', () => {
    const d = decideStep(versionSignals(people(12)), versionSignals(people(500)), DEFAULT_GATE, {
      canary: renders(5),
      stable: renders(100),
    });
    expect(d.action).toBe('wait');
    expect(d.answer).toBe('inconclusive');
    expect(d.reason).toMatch(
      /^inconclusive: not enough visitors in the window \(12 of 50 canary visitors this step, 5 of 50 canary renders\); errors: /,
    );
  });

  it('tells that apart from a step extended because a signal is beyond the margin, not yet surely', () => {
    // 3 of 60 canary visitors failed (5 %) against stable's 0.4 %: beyond the 2-point margin, not at 99 %.
    const d = decideStep(versionSignals(people(60, 3)), versionSignals(people(1000, 4)), DEFAULT_GATE);
    expect(d.answer).toBe('extending');
    expect(d.reason).toMatch(
      /^extending the step: errors: canary 5\.0 % of 60 visitors.*not yet at 99 % confidence$/,
    );
  });
});

describe('gateNow', () => {
  it('reads both tracks over the step, stable over the whole rollout when the step has too few', async () => {
    const asked: string[] = [];
    const decision = await gateNow(
      {
        visitors: (version, since) => {
          asked.push(`visitors ${version} ${since.toISOString()}`);
          return [];
        },
        server: (version, since) => {
          asked.push(`server ${version} ${since.toISOString()}`);
          return version === 'canary-v' ? renders(80, 80) : renders(0);
        },
      },
      'stable-v',
      {
        version: 'canary-v',
        percent: 10,
        startedAt: '2026-01-01T10:00:00.000Z',
        stepStartedAt: '2026-01-01T11:00:00.000Z',
      },
      DEFAULT_GATE,
    );
    expect(decision.action).toBe('rollback');
    expect(asked).toContain('server stable-v 2026-01-01T10:00:00.000Z');
    expect(decision.reason).toMatch(/stable renders over the whole rollout/);
  });
});
