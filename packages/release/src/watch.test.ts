import { AuditEntrySchema } from '@app/contracts';
import { DEFAULT_GATE, type VisitorFigures } from '@app/rollout';
import { readManifestFile } from '@app/rollout/node';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollback, setPercent, startCanary } from './commands';
import type { HealthSource } from './health';
import { release } from './release';
import { pinsOf, readJsonLines, runCli, type Sandbox, sandbox } from './test-support';
import { watch } from './watch';

/** A HealthSource answering from a function (per remote, version and window start). */
const fakeHealth = (visitors: HealthSource['visitors']): HealthSource => ({ visitors });

/** `n` visitors of one page view each; `errors` of them saw a failure; Web Vitals as given per visitor. */
function people(
  n: number,
  o: { errors?: number; lcp?: (i: number) => number; inp?: (i: number) => number } = {},
): VisitorFigures[] {
  return Array.from({ length: n }, (_, i) => ({
    views: 1,
    errorViews: i < (o.errors ?? 0) ? 1 : 0,
    lcp: o.lcp ? o.lcp(i) : null,
    inp: o.inp ? o.inp(i) : null,
    cls: null,
  }));
}

let s: Sandbox;
let stable: string;
let canary: string;
beforeEach(async () => {
  s = sandbox();
  stable = (await release({ remote: 'mf-research', dist: s.dist({ at: 'a', content: 'a' }) }, s.ctx)).info
    .version;
  canary = (await release({ remote: 'mf-research', dist: s.dist({ at: 'b', content: 'b' }) }, s.ctx)).info
    .version;
  rollback(s.ctx, { remote: 'mf-research', to: stable });
  startCanary(s.ctx, { remote: 'mf-research', version: canary, percent: 1 });
});
afterEach(() => s.cleanup());

const gate = { ...DEFAULT_GATE, minVisitors: 10 };
/** Each sleep moves the fake clock, as real time would. */
const sleep = async () => s.tick(30_000);
const watchActions = () =>
  readJsonLines(s.paths.auditFile)
    .map((e) => v.parse(AuditEntrySchema, e))
    .filter((e) => e.action.startsWith('watch-'));

describe('rollout watch', () => {
  it('advances a healthy canary 1 → 10 → 50 → 100 %, then promotes it', async () => {
    const windows: string[] = [];
    const health = fakeHealth((_remote, version, since) => {
      if (version === canary) windows.push(since?.toISOString() ?? '');
      return people(40, { inp: (i) => 100 + i });
    });
    s.tick(1000);
    const result = await watch(s.ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, sleep);
    expect(result).toEqual({ outcome: 'promoted', version: canary });
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']).toEqual({
      stable: canary,
      previous: [stable],
      integrity: pinsOf(s.paths.store, 'mf-research', canary, stable),
    });
    const entries = watchActions();
    expect(entries.map((e) => [e.action, e.to])).toEqual([
      ['watch-advance', `stable ${stable} · canary ${canary} at 10 %`],
      ['watch-advance', `stable ${stable} · canary ${canary} at 50 %`],
      ['watch-advance', `stable ${stable} · canary ${canary} at 100 %`],
      ['watch-promote', `stable ${canary}`],
    ]);
    expect(entries[0]?.reason).toBe(
      'errors: canary 0.0 % of 40 visitors, stable 0.0 % of 40 visitors (allowed 2.0 %); LCP p75: canary none, stable none; INP p75: canary 129 ms (40 visitors), stable 129 ms (40 visitors), allowed 155 ms; CLS p75: canary none, stable none: within the margins; 1 % → 10 %',
    );
    // Every step is judged on its own window, which starts when the step does.
    expect(new Set(windows).size).toBe(4);
  });

  it('waits for the sample, then rolls a failing canary back with the rates as the reason', async () => {
    let calls = 0;
    const health = fakeHealth((_r, version) => {
      if (version !== canary) return people(200);
      calls++;
      return calls === 1 ? people(3) : people(12, { errors: 12 });
    });
    const result = await watch(s.ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, sleep);
    expect(result.outcome).toBe('rolled-back');
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']).toEqual({
      stable,
      previous: [],
      integrity: pinsOf(s.paths.store, 'mf-research', stable),
    });
    const [entry] = watchActions();
    expect(entry).toMatchObject({
      action: 'watch-rollback',
      from: `stable ${stable} · canary ${canary} at 1 %`,
      to: `stable ${stable}`,
      reason:
        'errors: canary 100.0 % of 12 visitors, stable 0.0 % of 200 visitors (allowed 2.0 %): worse beyond the margin at 99 % confidence',
    });
    expect(s.logs.some((line) => line.includes('1 %: 3 of 10 canary visitors this step'))).toBe(true);
  });

  it('rolls back a canary whose INP is twice stable’s, with the figures and the sample', async () => {
    const health = fakeHealth((_r, version) =>
      people(60, { inp: (i) => (version === canary ? 2 : 1) * (80 + (i % 20) * 6) }),
    );
    const result = await watch(s.ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, sleep);
    expect(result).toMatchObject({ outcome: 'rolled-back' });
    const [entry] = watchActions();
    expect(entry?.action).toBe('watch-rollback');
    expect(entry?.reason).toBe(
      'INP p75: canary 328 ms (60 visitors), stable 164 ms (60 visitors), allowed 197 ms: worse beyond the margin at 99 % confidence',
    );
  });

  it('extends a step whose figures are beyond the margin but not yet conclusive', async () => {
    // 1 of 10 canary visitors saw an error: 10 % against 0 %, but 10 visitors cannot prove it at 99 %.
    const health = fakeHealth((_r, version) =>
      version === canary ? people(10, { errors: 1 }) : people(100),
    );
    const result = await watch(
      s.ctx,
      health,
      { remote: 'mf-research', gate, intervalMs: 0, maxWaitMs: 60_000 },
      sleep,
    );
    expect(result.outcome).toBe('stopped');
    expect(
      s.logs.some((line) => line.includes('extending the step: errors: canary 10.0 % of 10 visitors')),
    ).toBe(true);
    const [entry] = watchActions();
    expect(entry).toMatchObject({ action: 'watch-stop', from: entry?.to });
    expect(entry?.reason).toMatch(
      /^no decision within 60 s at 1 %: extending the step: errors: canary 10\.0 %/,
    );
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.percent).toBe(1);
  });

  it('judges stable over the whole rollout when too few stable visitors are left this step', async () => {
    s.tick(60_000);
    setPercent(s.ctx, { remote: 'mf-research', percent: 100 });
    const windows: Array<[string, string]> = [];
    const health = fakeHealth((_r, version, since) => {
      windows.push([version === canary ? 'canary' : 'stable', since?.toISOString() ?? '']);
      if (version === canary) return people(20);
      return people(windows.filter(([t]) => t === 'stable').length === 1 ? 0 : 30);
    });
    const result = await watch(
      s.ctx,
      health,
      { remote: 'mf-research', gate, intervalMs: 0, steps: [100] },
      sleep,
    );
    expect(result.outcome).toBe('promoted');
    const stableWindows = windows.filter(([t]) => t === 'stable').map(([, since]) => since);
    expect(stableWindows).toHaveLength(2);
    expect(stableWindows[1]! < stableWindows[0]!).toBe(true);
    expect(watchActions()[0]?.reason).toContain(
      '(stable over the whole rollout: too few stable visitors this step)',
    );
  });

  it('stops when someone else changes the canary meanwhile, without overwriting them', async () => {
    const health = fakeHealth(() => people(1));
    const meddle = async () => {
      s.tick(30_000);
      setPercent(s.ctx, { remote: 'mf-research', percent: 7 });
    };
    await expect(
      watch(s.ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, meddle),
    ).rejects.toThrow(
      `stopped watching mf-research: the canary ${canary} at 1 % was changed by someone else; it is now ${canary} at 7 %`,
    );
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.percent).toBe(7);
    expect(watchActions()).toEqual([]);
  });

  it('stops after --max-wait when a step never gets enough visitors, and says why in the audit log', async () => {
    const health = fakeHealth(() => people(1));
    const result = await watch(
      s.ctx,
      health,
      { remote: 'mf-research', gate, intervalMs: 0, maxWaitMs: 60_000 },
      sleep,
    );
    expect(result).toMatchObject({ outcome: 'stopped' });
    expect(watchActions()[0]?.reason).toMatch(
      /^no decision within 60 s at 1 %: 1 of 10 canary visitors this step/,
    );
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.percent).toBe(1);
  });

  it('refuses a remote without a canary', async () => {
    await expect(
      watch(
        s.ctx,
        fakeHealth(() => []),
        { remote: 'mf-account' },
      ),
    ).rejects.toThrow('mf-account has no canary to watch');
  });
});

describe('pnpm rollout watch (the CLI, on the API health store)', () => {
  it('rolls back a canary whose visitors report errors, exit code 2 and the reason in the audit log', async () => {
    const { openRolloutHealthStore } = await import('@app/api-server/rollout-health');
    const stepStart = Date.parse(
      readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.stepStartedAt ?? '',
    );
    const store = await openRolloutHealthStore(s.env.DB_PATH as string, { now: () => stepStart + 1000 });
    const served = (i: number, track: 'stable' | 'canary') => ({
      id: `ticket-${track}-${i}`,
      visitor: `visitor-${track}-${i}`,
      expiresAt: stepStart + 3_600_000,
      remotes: {
        'mf-research':
          track === 'canary'
            ? { version: canary, track, fallback: stable }
            : { version: stable, track, fallback: null },
      },
    });
    try {
      for (let i = 0; i < 20; i++)
        await store.record(served(i, 'stable'), [
          { remote: 'mf-research', version: stable, kind: 'load', value: 200 },
        ]);
      for (let i = 0; i < 12; i++) {
        await store.record(served(i, 'canary'), [
          { remote: 'mf-research', version: canary, kind: 'load', value: 200 },
          { remote: 'mf-research', version: canary, kind: 'runtime-error' },
        ]);
      }
    } finally {
      await store.close();
    }
    const result = await runCli(
      'rollout',
      ['watch', 'mf-research', '--interval', '0.05', '--min-visitors', '10', '--max-wait', '5'],
      s.env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      'rolled back: errors: canary 100.0 % of 12 visitors, stable 0.0 % of 20 visitors (allowed 2.0 %)',
    );
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary).toBeUndefined();
    expect(watchActions()).toMatchObject([
      {
        action: 'watch-rollback',
        actor: 'tester',
        reason: expect.stringContaining('errors: canary 100.0 % of 12 visitors'),
      },
    ]);
  }, 20_000);
});

describe('rollout watch and the lock', () => {
  it('waits for a lock held by another command instead of failing, then carries on', async () => {
    const { acquireLock } = await import('./lock');
    let unlock: (() => void) | null = acquireLock(s.paths.lockFile, 'test');
    const health = fakeHealth(() => people(40));
    const releaseLater = async () => {
      s.tick(30_000);
      unlock?.();
      unlock = null;
    };
    const result = await watch(s.ctx, health, { remote: 'mf-research', gate, intervalMs: 0 }, releaseLater);
    expect(result.outcome).toBe('promoted');
    expect(
      s.logs.some((line) => line.includes('another rollout command is changing the "test" deployment')),
    ).toBe(true);
    expect(watchActions().map((e) => e.action)).toEqual([
      'watch-advance',
      'watch-advance',
      'watch-advance',
      'watch-promote',
    ]);
  });
});
