import fs from 'node:fs';
import type { RolloutHealthReport } from '@app/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { openRolloutHealthStore, type RolloutHealthStore } from '../src/rollout-health-store';
import { tempDbPath } from './helpers';
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
afterEach(() => {
  store?.close();
  store = null;
});

describe('openRolloutHealthStore', () => {
  it('creates and migrates a new database file', () => {
    const file = tempDbPath();
    store = openRolloutHealthStore(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(store.summary()).toEqual([]);
    expect(store.counts('mf-research', V1)).toEqual({ loads: 0, loadFailures: 0, renderErrors: 0 });
  });

  it('counts per remote and version, and respects since', () => {
    store = openRolloutHealthStore(tempDbPath());
    store.record(report(), minutesAgo(120));
    store.record(report({ event: 'load-failure' }), minutesAgo(90));
    store.record(report(), minutesAgo(10));
    store.record(report({ event: 'render-error' }), minutesAgo(5));
    store.record(report({ version: V2, track: 'canary' }), minutesAgo(5));
    store.record(report({ remote: 'mf-account' }), minutesAgo(5));

    expect(store.counts('mf-research', V1)).toEqual({ loads: 2, loadFailures: 1, renderErrors: 1 });
    expect(store.counts('mf-research', V1, minutesAgo(60))).toEqual({
      loads: 1,
      loadFailures: 0,
      renderErrors: 1,
    });
    expect(store.counts('mf-research', V1, minutesAgo(1))).toEqual({
      loads: 0,
      loadFailures: 0,
      renderErrors: 0,
    });
    expect(store.counts('mf-research', V2)).toEqual({ loads: 1, loadFailures: 0, renderErrors: 0 });
    expect(store.counts('mf-account', V1)).toEqual({ loads: 1, loadFailures: 0, renderErrors: 0 });

    const rows = store.summary();
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

  it('refuses an invalid report', () => {
    store = openRolloutHealthStore(tempDbPath());
    expect(() => store?.record({ ...report(), event: 'click' } as unknown as RolloutHealthReport)).toThrow();
    expect(() => store?.record({ ...report(), version: '../x' })).toThrow();
    expect(store.summary()).toEqual([]);
  });

  it('prunes events older than 30 days', () => {
    store = openRolloutHealthStore(tempDbPath());
    store.record(report(), minutesAgo(31 * 24 * 60));
    store.record(report(), minutesAgo(29 * 24 * 60));
    // The first record of a process prunes; the 31-day-old event is gone, the 29-day-old one stays.
    expect(store.counts('mf-research', V1)).toEqual({ loads: 1, loadFailures: 0, renderErrors: 0 });
  });

  it('opens DB_PATH by default, like the server', () => {
    const file = tempDbPath();
    const before = process.env.DB_PATH;
    process.env.DB_PATH = file;
    try {
      store = openRolloutHealthStore();
      store.record(report());
    } finally {
      if (before === undefined) delete process.env.DB_PATH;
      else process.env.DB_PATH = before;
    }
    store.close();
    store = openRolloutHealthStore(file);
    expect(store.counts('mf-research', V1).loads).toBe(1);
  });
});
