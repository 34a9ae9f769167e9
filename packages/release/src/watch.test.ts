import { AuditEntrySchema } from '@app/contracts';
import type { HealthCounts } from '@app/rollout';
import { readManifestFile } from '@app/rollout/node';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollback, setPercent, startCanary } from './commands';
import type { HealthSource } from './health';
import { release } from './release';
import { pinsOf, readJsonLines, runCli, type Sandbox, sandbox } from './test-support';
import { watch } from './watch';

/** A HealthSource answering from a function (per remote, version and window start). */
const fakeHealth = (counts: HealthSource['counts']): HealthSource => ({ counts });

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

const gate = { minSample: 10, maxExtraFailureRate: 0.02 };
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
      return { loads: 40, loadFailures: 0, renderErrors: 0 };
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
      'canary failure rate 0.0 % over 40 loads, stable 0.0 % over 40: within 2.0 % of stable; 1 % → 10 %',
    );
    // Every step is judged on its own window, which starts when the step does.
    expect(new Set(windows).size).toBe(4);
  });

  it('waits for the sample, then rolls a failing canary back with the rates as the reason', async () => {
    let calls = 0;
    const health = fakeHealth((_r, version): HealthCounts => {
      if (version !== canary) return { loads: 200, loadFailures: 0, renderErrors: 0 };
      calls++;
      return calls === 1
        ? { loads: 3, loadFailures: 0, renderErrors: 0 }
        : { loads: 0, loadFailures: 12, renderErrors: 0 };
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
      reason: 'canary failure rate 100.0 % over 12 loads, stable 0.0 % over 200: above the allowed 2.0 %',
    });
    expect(s.logs.some((line) => line.includes('1 %: canary failure rate 0.0 % over 3 loads'))).toBe(true);
  });

  it('stops when someone else changes the canary meanwhile, without overwriting them', async () => {
    const health = fakeHealth(() => ({ loads: 1, loadFailures: 0, renderErrors: 0 }));
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

  it('gives up after --max-wait without a decision and leaves the canary as it is', async () => {
    const health = fakeHealth(() => ({ loads: 1, loadFailures: 0, renderErrors: 0 }));
    await expect(
      watch(s.ctx, health, { remote: 'mf-research', gate, intervalMs: 0, maxWaitMs: 60_000 }, sleep),
    ).rejects.toThrow('gave up watching mf-research after 60 s without a decision at 1 %');
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.percent).toBe(1);
  });

  it('refuses a remote without a canary', async () => {
    await expect(
      watch(
        s.ctx,
        fakeHealth(() => ({ loads: 0, loadFailures: 0, renderErrors: 0 })),
        { remote: 'mf-account' },
      ),
    ).rejects.toThrow('mf-account has no canary to watch');
  });
});

describe('pnpm rollout watch (the CLI, on the API health store)', () => {
  it('rolls back a canary the browsers report failing, exit code 2 and the reason in the audit log', async () => {
    const { openRolloutHealthStore } = await import('@app/api-server/rollout-health');
    const store = await openRolloutHealthStore(s.env.DB_PATH);
    const stepStart = Date.parse(
      readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary?.stepStartedAt ?? '',
    );
    try {
      const at = new Date(stepStart + 1000);
      for (let i = 0; i < 20; i++)
        await store.record({ remote: 'mf-research', version: stable, track: 'stable', event: 'load' }, at);
      for (let i = 0; i < 6; i++) {
        await store.record(
          { remote: 'mf-research', version: canary, track: 'canary', event: 'load-failure' },
          at,
        );
      }
    } finally {
      await store.close();
    }
    const result = await runCli(
      'rollout',
      ['watch', 'mf-research', '--interval', '0.05', '--min-sample', '5', '--max-wait', '5'],
      s.env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      'rolled back: canary failure rate 100.0 % over 6 loads, stable 0.0 % over 20',
    );
    expect(readManifestFile(s.paths.manifestFile)?.remotes['mf-research']?.canary).toBeUndefined();
    expect(watchActions()).toMatchObject([
      {
        action: 'watch-rollback',
        actor: 'tester',
        reason: expect.stringContaining('canary failure rate 100.0 % over 6 loads'),
      },
    ]);
  }, 20_000);
});

describe('rollout watch and the lock', () => {
  it('waits for a lock held by another command instead of failing, then carries on', async () => {
    const { acquireLock } = await import('./lock');
    let unlock: (() => void) | null = acquireLock(s.paths.lockFile, 'test');
    const health = fakeHealth(() => ({ loads: 40, loadFailures: 0, renderErrors: 0 }));
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
