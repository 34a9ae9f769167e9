import fs from 'node:fs';
import type { RolloutHealthReport } from '@app/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { openRolloutHealthStore, type RolloutHealthStore } from '../src/rollout-health-store';
import { tempDatabase, tempDbPath } from './helpers';
import { V1, V2 } from './rollout-fixtures';

const report = (over: Partial<RolloutHealthReport> = {}): RolloutHealthReport => ({
  remote: 'mf-research',
  version: V1,
  track: 'stable',
  event: 'load',
  ...over,
});
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

let store: RolloutHealthStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
});

describe('openRolloutHealthStore', () => {
  it('creates and migrates a new database file', async () => {
    const file = tempDbPath();
    store = await openRolloutHealthStore(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(await store.summary()).toEqual([]);
    expect(await store.counts('mf-research', V1)).toEqual({ loads: 0, loadFailures: 0, renderErrors: 0 });
  });

  it('counts per remote and version, and respects since', async () => {
    store = await openRolloutHealthStore(tempDatabase());
    await store.record(report(), minutesAgo(120));
    await store.record(report({ event: 'load-failure' }), minutesAgo(90));
    await store.record(report(), minutesAgo(10));
    await store.record(report({ event: 'render-error' }), minutesAgo(5));
    await store.record(report({ version: V2, track: 'canary' }), minutesAgo(5));
    await store.record(report({ remote: 'mf-account' }), minutesAgo(5));

    expect(await store.counts('mf-research', V1)).toEqual({ loads: 2, loadFailures: 1, renderErrors: 1 });
    expect(await store.counts('mf-research', V1, minutesAgo(60))).toEqual({
      loads: 1,
      loadFailures: 0,
      renderErrors: 1,
    });
    expect(await store.counts('mf-research', V1, minutesAgo(1))).toEqual({
      loads: 0,
      loadFailures: 0,
      renderErrors: 0,
    });
    expect(await store.counts('mf-research', V2)).toEqual({ loads: 1, loadFailures: 0, renderErrors: 0 });
    expect(await store.counts('mf-account', V1)).toEqual({ loads: 1, loadFailures: 0, renderErrors: 0 });

    const rows = await store.summary();
    expect(rows.map((r) => `${r.remote} ${r.version}`).sort()).toEqual([
      `mf-account ${V1}`,
      `mf-research ${V1}`,
      `mf-research ${V2}`,
    ]);
    expect(rows.find((r) => r.remote === 'mf-research' && r.version === V1)).toMatchObject({
      loads: 2,
      loadFailures: 1,
      renderErrors: 1,
    });
  });

  it('refuses an invalid report', async () => {
    store = await openRolloutHealthStore(tempDatabase());
    await expect(
      store.record({ ...report(), event: 'click' } as unknown as RolloutHealthReport),
    ).rejects.toThrow();
    await expect(store.record({ ...report(), version: '../x' })).rejects.toThrow();
    expect(await store.summary()).toEqual([]);
  });

  it('prunes events older than 30 days', async () => {
    store = await openRolloutHealthStore(tempDatabase());
    await store.record(report(), minutesAgo(31 * 24 * 60));
    await store.record(report(), minutesAgo(29 * 24 * 60));
    // The first record of a process prunes; the 31-day-old event is gone, the 29-day-old one stays.
    expect(await store.counts('mf-research', V1)).toEqual({ loads: 1, loadFailures: 0, renderErrors: 0 });
  });

  it('opens DB_PATH by default, like the server', async () => {
    const file = tempDbPath();
    const before = process.env.DB_PATH;
    process.env.DB_PATH = file;
    try {
      store = await openRolloutHealthStore();
      await store.record(report());
    } finally {
      if (before === undefined) delete process.env.DB_PATH;
      else process.env.DB_PATH = before;
    }
    await store.close();
    store = await openRolloutHealthStore(file);
    expect((await store.counts('mf-research', V1)).loads).toBe(1);
  });
});
