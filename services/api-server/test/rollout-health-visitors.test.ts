import { type HealthTicket, verifyTicket } from '@app/rollout/node';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../src/db/database';
import { RolloutHealthService } from '../src/services/rollout-health';
import { event, KEY, ticketFor } from './health-tickets';
import { tempDatabase } from './helpers';
import { V1, V2 } from './rollout-fixtures';

const MINUTE = 60_000;
const ticket = (o: Parameters<typeof ticketFor>[0] = {}): HealthTicket => {
  const verdict = verifyTicket(ticketFor(o), KEY);
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict.ticket;
};

/** Writes reports as the API does, at given times, into a database a second connection then reads. */
async function writer(where: { dbPath: string; databaseUrl: string | null }) {
  const sql = openDatabase(where);
  await migrate(sql);
  let now = Date.now();
  const health = new RolloutHealthService(sql, () => now);
  return {
    at: (minutesAgo: number) => {
      now = Date.now() - minutesAgo * MINUTE;
      return health;
    },
    close: () => sql.close(),
  };
}

/** What the deploy API's health route reads (`rollout status` and `watch` ask it), on its own connection. */
async function reader(where: { dbPath: string; databaseUrl: string | null }) {
  const sql = openDatabase(where);
  const health = new RolloutHealthService(sql);
  closers.push(() => sql.close());
  return health;
}

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

describe("the gate's figures per visitor (RolloutHealthService.visitors)", () => {
  it('reads per visitor, per remote and version, and respects since', async () => {
    const where = tempDatabase();
    const w = await writer(where);
    const alice = { visitor: 'user:1' };
    await w.at(120).record(ticket(alice), [event()]);
    await w.at(90).record(ticket(alice), [event({ kind: 'load-failure' })]);
    await w.at(10).record(ticket(alice), [event(), event({ kind: 'runtime-error', value: undefined })]);
    await w.at(5).record(ticket({ visitor: 'user:2' }), [event(), event({ kind: 'lcp', value: 1500 })]);
    await w.at(5).record(ticket({ canary: true }), [event({ version: V2 })]);
    await w.close();

    const store = await reader(where);
    const v1 = await store.visitors('production', 'mf-research', V1);
    expect(v1).toHaveLength(2);
    expect(v1).toContainEqual({ views: 3, errorViews: 2, lcp: null, inp: null, cls: null });
    expect(v1).toContainEqual({ views: 1, errorViews: 0, lcp: 1500, inp: null, cls: null });
    expect(
      await store.visitors('production', 'mf-research', V1, new Date(Date.now() - 60 * MINUTE)),
    ).toHaveLength(2);
    expect(await store.visitors('production', 'mf-research', V1, new Date(Date.now() - 7 * MINUTE))).toEqual([
      { views: 1, errorViews: 0, lcp: 1500, inp: null, cls: null },
    ]);
    expect(await store.visitors('production', 'mf-research', V1, new Date(Date.now() + MINUTE))).toEqual([]);
    expect(await store.visitors('production', 'mf-research', V2)).toHaveLength(1);
    expect(await store.visitors('production', 'mf-account', V1)).toEqual([]);
  });

  it('prunes reports older than 30 days', async () => {
    const where = tempDatabase();
    const w = await writer(where);
    await w.at(31 * 24 * 60).record(ticket(), [event()]);
    await w.at(29 * 24 * 60).record(ticket(), [event()]);
    await w.at(0).prune();
    await w.close();
    const store = await reader(where);
    expect(await store.visitors('production', 'mf-research', V1)).toHaveLength(1);
  });
});
